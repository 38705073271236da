// Test-only implementation of draughts.platform.testing.EchoService.
#ifndef DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_
#define DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "platform/testing/echo.grpc.pb.h"

namespace draughts::platform::testing {

class EchoServiceImpl final : public EchoService::Service {
 public:
  grpc::Status Echo(grpc::ServerContext* context, const EchoRequest* request,
                    EchoReply* reply) override;

  int calls() const { return calls_.load(); }

 private:
  // True while calls with `text` still have to fail (fail_times).
  bool StillFailing(const std::string& text, int fail_times);

  std::atomic<int> calls_{0};
  std::mutex mu_;
  std::map<std::string, int> failed_;  // text -> failures so far
};

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_
