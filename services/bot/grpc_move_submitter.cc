#include "bot/grpc_move_submitter.h"

namespace draughts::bot {

absl::Status GrpcMoveSubmitter::Submit(const MoveSubmission& submission) {
  v1::SubmitMoveRequest request;
  request.set_game_id(submission.game_id);
  request.set_player_token(submission.player_token);
  request.set_move(submission.move);
  request.set_expected_ply(submission.expected_ply);
  return client_->Call(&GameClient::Stub::SubmitMove, request, {.safe_to_retry = true}).status();
}

}  // namespace draughts::bot
