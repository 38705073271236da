// Game ids: how one is made from a CreateGame idempotency key, and what a
// well-formed one looks like.
#ifndef DRAUGHTS_GAME_STATE_GAME_ID_H_
#define DRAUGHTS_GAME_STATE_GAME_ID_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace draughts::game_state {

// The game id of a CreateGame idempotency key: a digest of it, so every
// retry of one CreateGame names the same game, and "create unless it
// exists" is a single atomic step on that game's keys (no separate key
// table in another Redis Cluster slot). 26 base32 characters (130 bits).
std::string GameIdForKey(std::string_view idempotency_key);

// INVALID_ARGUMENT naming `field` unless `id` is 1-64 of [A-Za-z0-9_-]:
// ids go into Redis key names and hash tags, so braces and the like are
// refused up front.
absl::Status ValidateGameId(std::string_view id, std::string_view field = "game_id");

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_ID_H_
