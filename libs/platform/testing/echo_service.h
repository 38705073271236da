// Test-only implementation of draughts.platform.testing.EchoService.
#ifndef DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_
#define DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_

#include <atomic>

#include "platform/testing/echo.grpc.pb.h"

namespace draughts::platform::testing {

class EchoServiceImpl final : public EchoService::Service {
 public:
  grpc::Status Echo(grpc::ServerContext* context, const EchoRequest* request,
                    EchoReply* reply) override;

  int calls() const { return calls_.load(); }

 private:
  std::atomic<int> calls_{0};
};

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_PLATFORM_TESTING_ECHO_SERVICE_H_
