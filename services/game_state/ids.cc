#include "game_state/ids.h"

#include <sodium.h>

#include <array>
#include <charconv>

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::game_state {
namespace {

using platform::ToAbsl;

bool IsIdChar(char c, bool allow_dot_colon) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || (allow_dot_colon && (c == '.' || c == ':'));
}

bool ParseDecimal(std::string_view text, uint64_t& value) {
  if (text.empty() || text.size() > 20) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::string GameIdForKey(std::string_view idempotency_key) {
  static constexpr std::string_view kContext = "draughts.v1.CreateGame";
  std::array<unsigned char, 17> digest{};
  crypto_generichash(digest.data(), digest.size(),
                     reinterpret_cast<const unsigned char*>(idempotency_key.data()),
                     idempotency_key.size(),
                     reinterpret_cast<const unsigned char*>(kContext.data()), kContext.size());
  // Lower-case base32 (RFC 4648 alphabet): readable in URLs and logs.
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string id;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char byte : digest) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && id.size() < 26) {
      id.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  return id;
}

absl::Status ValidateGameId(std::string_view id, std::string_view field) {
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat(ToAbsl(field), " is empty"));
  if (id.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(ToAbsl(field), " is longer than 64 characters"));
  }
  for (char c : id) {
    if (!IsIdChar(c, false)) {
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(field), " may only contain letters, digits, '_' and '-'"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateIdempotencyKey(std::string_view key) {
  if (key.empty()) return absl::InvalidArgumentError("idempotency_key is empty");
  if (key.size() > 64) {
    return absl::InvalidArgumentError("idempotency_key is longer than 64 characters");
  }
  for (char c : key) {
    if (!IsIdChar(c, true)) {
      return absl::InvalidArgumentError(
          "idempotency_key may only contain letters, digits and _ . : -");
    }
  }
  return absl::OkStatus();
}

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

}  // namespace draughts::game_state
