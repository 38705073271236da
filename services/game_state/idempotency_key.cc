#include "game_state/idempotency_key.h"

namespace draughts::game_state {
namespace {

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == ':';
}

}  // namespace

absl::Status ValidateIdempotencyKey(std::string_view key) {
  if (key.empty()) return absl::InvalidArgumentError("idempotency_key is empty");
  if (key.size() > 64) {
    return absl::InvalidArgumentError("idempotency_key is longer than 64 characters");
  }
  for (char c : key) {
    if (!IsKeyChar(c)) {
      return absl::InvalidArgumentError(
          "idempotency_key may only contain letters, digits and _ . : -");
    }
  }
  return absl::OkStatus();
}

}  // namespace draughts::game_state
