// Rebuilds the rules library's record of a game (positions, legal moves,
// draw-rule counters) from what is stored: the rule set, its options, the
// starting FEN and the moves. The stored state stays small and plain; the
// draw rules always see the whole game.
#ifndef DRAUGHTS_GAME_STATE_GAME_REPLAY_H_
#define DRAUGHTS_GAME_STATE_GAME_REPLAY_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "draughts/v1/game.pb.h"
#include "rules/game.h"

namespace draughts::game_state {

// INTERNAL if the stored game does not replay (it was written by this
// service, so that means corruption or an incompatible rules change).
absl::StatusOr<rules::GameRecord> ReplayGame(const v1::GameState& state);

// Plays the stored moves from index `from` on onto `record` (which holds
// the first `from` of them): INTERNAL if one does not apply.
absl::Status ApplyStoredMoves(const v1::GameState& state, int from, rules::GameRecord& record);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_REPLAY_H_
