// CreateGame: checks the request and builds the game's first state, its
// GameCreated event and, when a bot moves first, its first bot job.
#ifndef DRAUGHTS_GAME_STATE_NEW_GAME_H_
#define DRAUGHTS_GAME_STATE_NEW_GAME_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.pb.h"
#include "game_state/game_store.h"
#include "game_state/player_tokens.h"

namespace draughts::game_state {

struct PreparedGame {
  std::string game_id;
  NewGame game;
  TokenPair tokens;
};

// INVALID_ARGUMENT, with a message naming the field, for every request
// CreateGame refuses (game.proto); nothing is stored here.
absl::StatusOr<PreparedGame> PrepareNewGame(const v1::CreateGameRequest& request,
                                            const TokenSealer& sealer, absl::Time now);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_NEW_GAME_H_
