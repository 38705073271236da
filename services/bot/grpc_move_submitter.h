// MoveSubmitter over gRPC to game-state (platform::GrpcClient: deadline,
// retries of UNAVAILABLE, which SubmitMove's expected_ply makes safe).
#ifndef DRAUGHTS_BOT_GRPC_MOVE_SUBMITTER_H_
#define DRAUGHTS_BOT_GRPC_MOVE_SUBMITTER_H_

#include <memory>

#include "bot/move_submitter.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::bot {

class GrpcMoveSubmitter final : public MoveSubmitter {
 public:
  using GameClient = platform::GrpcClient<v1::GameService>;
  explicit GrpcMoveSubmitter(std::unique_ptr<GameClient> client) : client_(std::move(client)) {}

  absl::Status Submit(const MoveSubmission& submission) override;

 private:
  std::unique_ptr<GameClient> client_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_GRPC_MOVE_SUBMITTER_H_
