// Event ids are Redis stream entry ids ("<ms>-<seq>"), handed to clients
// as resume points (WatchGame, WatchTable, WatchChat). Compared as text
// they misorder ("5-10" < "5-9"), so they are parsed to be compared.
#ifndef DRAUGHTS_PLATFORM_EVENT_ID_H_
#define DRAUGHTS_PLATFORM_EVENT_ID_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::platform {

// Ordered as the stream orders its entries; {0, 0} is before every entry
// (XREAD from "0-0" reads the whole stream).
struct EventId {
  uint64_t ms = 0;
  uint64_t seq = 0;
  friend auto operator<=>(const EventId&, const EventId&) = default;
};

// INVALID_ARGUMENT unless `text` is "<ms>-<seq>" with decimal numbers;
// the message quotes at most 64 characters of a bad id.
absl::StatusOr<EventId> ParseEventId(std::string_view text);
std::string FormatEventId(const EventId& id);

// A watch request's resume point: nullopt when `text` is empty (from now,
// or from the start), INVALID_ARGUMENT naming `field` when malformed.
absl::StatusOr<std::optional<EventId>> ParseResumePoint(std::string_view field,
                                                        std::string_view text);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_EVENT_ID_H_
