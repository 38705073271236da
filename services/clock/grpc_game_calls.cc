#include "clock/grpc_game_calls.h"

namespace draughts::clock {
namespace {

constexpr platform::CallOptions kIdempotent{.safe_to_retry = true};

}  // namespace

absl::StatusOr<v1::PlayAutomaticMoveResponse> GrpcGameCalls::PlayAutomaticMove(
    const v1::PlayAutomaticMoveRequest& request) {
  return client_->Call(&Client::Stub::PlayAutomaticMove, request, kIdempotent);
}

absl::StatusOr<v1::RecordPresenceResponse> GrpcGameCalls::RecordPresence(
    const v1::RecordPresenceRequest& request) {
  return client_->Call(&Client::Stub::RecordPresence, request, kIdempotent);
}

absl::StatusOr<v1::DeclareAbandonedResponse> GrpcGameCalls::DeclareAbandoned(
    const v1::DeclareAbandonedRequest& request) {
  return client_->Call(&Client::Stub::DeclareAbandoned, request, kIdempotent);
}

}  // namespace draughts::clock
