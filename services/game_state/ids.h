// Game ids, idempotency keys and event ids: what well-formed ones look like.
#ifndef DRAUGHTS_GAME_STATE_IDS_H_
#define DRAUGHTS_GAME_STATE_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

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

// 1-64 characters of [A-Za-z0-9_.:-] (common.proto, "Retrying safely").
absl::Status ValidateIdempotencyKey(std::string_view key);

// A Redis stream entry id "<ms>-<seq>", ordered as a pair.
struct EventId {
  uint64_t ms = 0;
  uint64_t seq = 0;
  friend auto operator<=>(const EventId&, const EventId&) = default;
};

// INVALID_ARGUMENT unless `text` is "<ms>-<seq>" with decimal numbers.
absl::StatusOr<EventId> ParseEventId(std::string_view text);
std::string FormatEventId(const EventId& id);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_IDS_H_
