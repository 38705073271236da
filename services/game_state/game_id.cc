#include "game_state/game_id.h"

#include <sodium.h>

#include <array>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::game_state {
namespace {

using platform::ToAbsl;

bool IsGameIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
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
    if (!IsGameIdChar(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(field), " may only contain letters, digits, '_' and '-'"));
    }
  }
  return absl::OkStatus();
}

}  // namespace draughts::game_state
