// How a failure reaches the browser: the gRPC code name in a JSON body and
// an HTTP status derived from the code (docs/WEB_PROTOCOL.md, "Errors").
#ifndef DRAUGHTS_GATEWAY_ERROR_MAPPING_H_
#define DRAUGHTS_GATEWAY_ERROR_MAPPING_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "gateway/http_types.h"

namespace draughts::gateway {

// "INVALID_ARGUMENT", "NOT_FOUND", ... (the canonical gRPC names).
std::string_view StatusCodeName(absl::StatusCode code);

// 400, 401, 403, 404, 409 (ALREADY_EXISTS, ABORTED, FAILED_PRECONDITION),
// 429, 503, else 500.
int HttpStatusFor(absl::StatusCode code);

// {"code":"...","message":"..."}
std::string ErrorObjectJson(const absl::Status& status);

// A JSON error response: {"error":{...}} with the mapped HTTP status.
HttpResponse ErrorResponse(const absl::Status& status);
// Same with an explicit HTTP status (413, 405) that has no gRPC code of its own.
HttpResponse ErrorResponse(int http_status, const absl::Status& status);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ERROR_MAPPING_H_
