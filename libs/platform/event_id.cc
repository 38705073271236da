#include "platform/event_id.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

bool ParseDecimal(std::string_view text, uint64_t& value) {
  if (text.empty() || text.size() > 20) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

}  // namespace

absl::StatusOr<EventId> ParseEventId(std::string_view text) {
  const std::size_t dash = text.find('-');
  EventId id;
  if (dash == std::string_view::npos || !ParseDecimal(text.substr(0, dash), id.ms) ||
      !ParseDecimal(text.substr(dash + 1), id.seq)) {
    return absl::InvalidArgumentError(
        absl::StrCat("event id \"", ToAbsl(text.substr(0, 64)),
                     "\" is malformed: expected <ms>-<seq>, e.g. 1700000000000-0"));
  }
  return id;
}

std::string FormatEventId(const EventId& id) {
  return absl::StrCat(id.ms, "-", id.seq);
}

absl::StatusOr<std::optional<EventId>> ParseResumePoint(std::string_view field,
                                                        std::string_view text) {
  if (text.empty()) return std::nullopt;
  absl::StatusOr<EventId> parsed = ParseEventId(text);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(std::string(field) + ": " +
                                      std::string(parsed.status().message()));
  }
  return *parsed;
}

}  // namespace draughts::platform
