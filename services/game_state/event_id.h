// Event ids: the ids of Redis stream entries ("<ms>-<seq>") that name a
// game's events, parsed so that they can be ordered.
#ifndef DRAUGHTS_GAME_STATE_EVENT_ID_H_
#define DRAUGHTS_GAME_STATE_EVENT_ID_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::game_state {

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

#endif  // DRAUGHTS_GAME_STATE_EVENT_ID_H_
