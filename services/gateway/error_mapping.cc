#include "gateway/error_mapping.h"

#include "absl/strings/str_cat.h"
#include "gateway/json_string.h"
#include "platform/absl_compat.h"
#include "platform/rpc_metrics.h"

namespace draughts::gateway {

std::string_view StatusCodeName(absl::StatusCode code) {
  // absl and gRPC number their canonical codes alike.
  return platform::GrpcCodeName(static_cast<int>(code));
}

int HttpStatusFor(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kFailedPrecondition:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

std::string ErrorObjectJson(const absl::Status& status) {
  return absl::StrCat("{\"code\":", JsonQuote(StatusCodeName(status.code())),
                      ",\"message\":", JsonQuote(platform::ToStd(status.message())), "}");
}

HttpResponse ErrorResponse(int http_status, const absl::Status& status) {
  HttpResponse response;
  response.status = http_status;
  response.body = absl::StrCat("{\"error\":", ErrorObjectJson(status), "}");
  return response;
}

HttpResponse ErrorResponse(const absl::Status& status) {
  return ErrorResponse(HttpStatusFor(status.code()), status);
}

}  // namespace draughts::gateway
