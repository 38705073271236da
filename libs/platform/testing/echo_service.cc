#include "platform/testing/echo_service.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace draughts::platform::testing {

bool EchoServiceImpl::StillFailing(const std::string& text, int fail_times) {
  if (fail_times <= 0) return true;
  std::lock_guard<std::mutex> lock(mu_);
  int& failed = failed_[text];
  if (failed >= fail_times) return false;
  ++failed;
  return true;
}

grpc::Status EchoServiceImpl::Echo(grpc::ServerContext* context, const EchoRequest* request,
                                   EchoReply* reply) {
  calls_.fetch_add(1);
  if (request->delay_ms() > 0) {
    // Sleep in slices so a cancelled call (shutdown deadline) ends early.
    absl::Time until = absl::Now() + absl::Milliseconds(request->delay_ms());
    while (absl::Now() < until && !context->IsCancelled()) absl::SleepFor(absl::Milliseconds(5));
  }
  int code = request->fail_with_code();
  if (code < 0 || code > 16) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        absl::StrCat("fail_with_code ", code, " is not a status code"));
  }
  if (code != 0 && StillFailing(request->text(), request->fail_times())) {
    return grpc::Status(static_cast<grpc::StatusCode>(code),
                        absl::StrCat("failing as asked: ", request->text()));
  }
  reply->set_text(request->text());
  return grpc::Status::OK;
}

}  // namespace draughts::platform::testing
