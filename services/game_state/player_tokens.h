// Player tokens: the secret each seat gets at CreateGame and sends with
// every acting call (random, stored hashed: platform/secret_tokens.h).
//
// A retried CreateGame must answer with the same tokens, so they are also
// kept sealed under a secret shared by the replicas (--token_secret) and
// never stored in the clear: a copy of Redis alone does not let anyone act
// for a player.
#ifndef DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_
#define DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "platform/secret_tokens.h"

namespace draughts::game_state {

// A fresh random token (192 bits), URL-safe base64 (32 characters).
std::string NewPlayerToken();

struct TokenPair {
  std::string white;
  std::string black;
};

class TokenSealer {
 public:
  // The key is derived from `secret` (at least 16 bytes); replicas that share
  // it can open each other's sealed tokens.
  static absl::StatusOr<TokenSealer> FromSecret(std::string_view secret);
  // A key of this process only: sealed tokens open nowhere else.
  static TokenSealer Ephemeral();

  std::string Seal(const TokenPair& tokens) const;
  // FAILED_PRECONDITION when the box was sealed with another key or is
  // damaged.
  absl::StatusOr<TokenPair> Open(std::string_view sealed) const;

 private:
  explicit TokenSealer(platform::SecretBox box) : box_(std::move(box)) {}

  platform::SecretBox box_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_
