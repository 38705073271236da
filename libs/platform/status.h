// Conversions between absl::Status (used inside services and the platform
// library) and grpc::Status (used at the RPC edge). Codes map 1:1 and the
// message is kept, so a handler can `return ToGrpcStatus(DoWork(...));`.
#ifndef DRAUGHTS_PLATFORM_STATUS_H_
#define DRAUGHTS_PLATFORM_STATUS_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace draughts::platform {

grpc::StatusCode ToGrpcCode(absl::StatusCode code);
absl::StatusCode FromGrpcCode(grpc::StatusCode code);

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_STATUS_H_
