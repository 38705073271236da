// How a bot's move reaches the game: GameService.SubmitMove with the bot
// seat's token at the job's ply. An interface so the pool's logic is
// testable without game-state; grpc_move_submitter.h is the real one.
#ifndef DRAUGHTS_BOT_MOVE_SUBMITTER_H_
#define DRAUGHTS_BOT_MOVE_SUBMITTER_H_

#include <string>

#include "absl/status/status.h"

namespace draughts::bot {

struct MoveSubmission {
  std::string game_id;
  std::string player_token;
  std::string move;
  int expected_ply = 0;
};

class MoveSubmitter {
 public:
  virtual ~MoveSubmitter() = default;
  // game-state's answer as a status (its documented codes); UNAVAILABLE
  // or DEADLINE_EXCEEDED leave the outcome unknown: submit again.
  virtual absl::Status Submit(const MoveSubmission& submission) = 0;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_MOVE_SUBMITTER_H_
