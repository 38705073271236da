// The three GameService calls the clock makes, as an interface so the
// firing logic is tested without a game-state. The adapter is
// grpc_game_calls.h (retries on UNAVAILABLE: every call is idempotent).
#ifndef DRAUGHTS_CLOCK_GAME_CALLS_H_
#define DRAUGHTS_CLOCK_GAME_CALLS_H_

#include "absl/status/statusor.h"
#include "draughts/v1/game.pb.h"

namespace draughts::clock {

class GameCalls {
 public:
  virtual ~GameCalls() = default;
  virtual absl::StatusOr<v1::PlayAutomaticMoveResponse> PlayAutomaticMove(
      const v1::PlayAutomaticMoveRequest& request) = 0;
  virtual absl::StatusOr<v1::RecordPresenceResponse> RecordPresence(
      const v1::RecordPresenceRequest& request) = 0;
  virtual absl::StatusOr<v1::DeclareAbandonedResponse> DeclareAbandoned(
      const v1::DeclareAbandonedRequest& request) = 0;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_GAME_CALLS_H_
