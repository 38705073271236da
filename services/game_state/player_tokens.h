// Player tokens: the secret each seat gets at CreateGame and sends with
// every acting call. Tokens are random (192 bits); only a hash is stored,
// and comparisons are constant-time so timing does not leak a prefix.
//
// A retried CreateGame must answer with the same tokens, so they are also
// kept sealed (authenticated encryption) under a secret shared by the
// replicas (--token_secret) and never stored in the clear: a copy of Redis
// alone does not let anyone act for a player.
#ifndef DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_
#define DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::game_state {

// A fresh random token, URL-safe base64 (32 characters).
std::string NewPlayerToken();

// The stored form of a token (32-byte BLAKE2b digest).
std::string HashPlayerToken(std::string_view token);

// Whether `token` hashes to `hash`, in time independent of where they differ.
// An empty hash never matches.
bool TokenMatchesHash(std::string_view token, std::string_view hash);

// Random bytes, URL-safe base64 without padding: ids and tokens.
std::string RandomUrlSafeString(int bytes);

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
  explicit TokenSealer(std::string key) : key_(std::move(key)) {}

  std::string key_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_PLAYER_TOKENS_H_
