#include "game_state/player_tokens.h"

#include <utility>

namespace draughts::game_state {
namespace {

constexpr int kTokenBytes = 24;
// Changing it makes every replica's sealed tokens unreadable to the others
// during a rolling update: keep it.
constexpr std::string_view kSealContext = "draughts game-state token seal v1";

}  // namespace

std::string NewPlayerToken() {
  return platform::RandomUrlSafeString(kTokenBytes);
}

absl::StatusOr<TokenSealer> TokenSealer::FromSecret(std::string_view secret) {
  absl::StatusOr<platform::SecretBox> box = platform::SecretBox::FromSecret(secret, kSealContext);
  if (!box.ok()) return box.status();
  return TokenSealer(*std::move(box));
}

TokenSealer TokenSealer::Ephemeral() {
  return TokenSealer(platform::SecretBox::Ephemeral());
}

std::string TokenSealer::Seal(const TokenPair& tokens) const {
  // Tokens are URL-safe base64, so a newline cannot occur inside one.
  return box_.Seal(tokens.white + "\n" + tokens.black);
}

absl::StatusOr<TokenPair> TokenSealer::Open(std::string_view sealed) const {
  if (sealed.size() < platform::SecretBox::kOverhead) {
    return absl::FailedPreconditionError("sealed tokens are damaged");
  }
  absl::StatusOr<std::string> plain = box_.Open(sealed);
  if (!plain.ok()) {
    return absl::FailedPreconditionError(
        "the player tokens were sealed with another secret: give every replica the same "
        "--token_secret");
  }
  const std::size_t newline = plain->find('\n');
  if (newline == std::string::npos) {
    return absl::FailedPreconditionError("sealed tokens are damaged");
  }
  return TokenPair{plain->substr(0, newline), plain->substr(newline + 1)};
}

}  // namespace draughts::game_state
