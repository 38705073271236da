// GameCalls over gRPC to game-state (platform::GrpcClient): each call has
// its own deadline and is retried on UNAVAILABLE, which is safe because
// every one of them is idempotent by contract (expected_ply, idempotency
// key).
#ifndef DRAUGHTS_CLOCK_GRPC_GAME_CALLS_H_
#define DRAUGHTS_CLOCK_GRPC_GAME_CALLS_H_

#include <memory>

#include "clock/game_calls.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::clock {

class GrpcGameCalls final : public GameCalls {
 public:
  using Client = platform::GrpcClient<v1::GameService>;
  explicit GrpcGameCalls(std::unique_ptr<Client> client) : client_(std::move(client)) {}

  absl::StatusOr<v1::PlayAutomaticMoveResponse> PlayAutomaticMove(
      const v1::PlayAutomaticMoveRequest& request) override;
  absl::StatusOr<v1::RecordPresenceResponse> RecordPresence(
      const v1::RecordPresenceRequest& request) override;
  absl::StatusOr<v1::DeclareAbandonedResponse> DeclareAbandoned(
      const v1::DeclareAbandonedRequest& request) override;

 private:
  std::unique_ptr<Client> client_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_GRPC_GAME_CALLS_H_
