// Secrets handed to clients (seat tokens, invite codes, session-like ids):
// drawn from the OS's randomness, stored only as a hash so a copy of the
// database does not let anyone act for a player, compared in constant time
// so response times do not leak how much of a guess was right. When a
// retried call must hand out the same secret again, it is kept sealed
// (authenticated encryption) under a key every replica derives from a
// shared secret, never in the clear.
#ifndef DRAUGHTS_PLATFORM_SECRET_TOKENS_H_
#define DRAUGHTS_PLATFORM_SECRET_TOKENS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::platform {

// `bytes` random bytes as URL-safe base64 without padding (4 characters per
// 3 bytes): fits in URLs, headers and Redis keys as it is, and can never
// contain a newline or '|'.
std::string RandomUrlSafeString(int bytes);

// The stored form of a secret: its 32-byte BLAKE2b digest. Secrets are
// random and long, so no salt or slow hash is needed.
std::string HashSecret(std::string_view secret);

// Whether `secret` hashes to `hash`, in time independent of where they
// differ. An empty or malformed hash never matches.
bool SecretMatchesHash(std::string_view secret, std::string_view hash);

// Seals short texts with a key of the service (XSalsa20-Poly1305): what
// comes out of Open was sealed by a holder of the same key, unchanged.
class SecretBox {
 public:
  // Nonce and tag: a sealed text is this much longer than the plain one.
  static const std::size_t kOverhead;

  // The key is derived from `secret` (at least 16 bytes) and `context`
  // (what is sealed, with a version: a key for one purpose opens nothing
  // of another). Replicas sharing both open each other's boxes.
  static absl::StatusOr<SecretBox> FromSecret(std::string_view secret, std::string_view context);
  // A key of this process only: its boxes open nowhere else.
  static SecretBox Ephemeral();

  std::string Seal(std::string_view plain) const;
  // FAILED_PRECONDITION when the box was sealed with another key, or is
  // damaged or truncated.
  absl::StatusOr<std::string> Open(std::string_view sealed) const;

 private:
  explicit SecretBox(std::string key) : key_(std::move(key)) {}

  std::string key_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_SECRET_TOKENS_H_
