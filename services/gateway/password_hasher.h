// Argon2id password hashes (libsodium's crypto_pwhash_str: the encoded
// string carries the algorithm, its parameters and a random salt).
//
// The work factors are configuration (--password-opslimit,
// --password-memlimit-kib): by default libsodium's "interactive" levels,
// opslimit 2 and 64 MiB, about 0.1 s per hash on one core. A stored hash
// made with other parameters still verifies; after a successful login it is
// replaced by one with the current parameters (NeedsRehash), so raising the
// factors upgrades accounts as their owners log in.
//
// A name that matches no account is verified against a dummy hash made with
// the current parameters (VerifyDummy), so a wrong name costs the same time
// as a wrong password and the answer's timing says nothing about which
// names exist.
#ifndef DRAUGHTS_GATEWAY_PASSWORD_HASHER_H_
#define DRAUGHTS_GATEWAY_PASSWORD_HASHER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::gateway {

struct PasswordHashOptions {
  uint64_t opslimit = 2;            // crypto_pwhash_OPSLIMIT_INTERACTIVE
  std::size_t memlimit = 64 << 20;  // crypto_pwhash_MEMLIMIT_INTERACTIVE (bytes)
};

class PasswordHasher {
 public:
  // INVALID_ARGUMENT when libsodium refuses the parameters.
  static absl::StatusOr<PasswordHasher> Create(PasswordHashOptions options);

  // The encoded Argon2id hash of `password`; RESOURCE_EXHAUSTED if the
  // memory could not be had.
  absl::StatusOr<std::string> Hash(std::string_view password) const;
  // Whether `password` matches `encoded` (false for a malformed hash).
  bool Verify(std::string_view encoded, std::string_view password) const;
  // Spends the time of a Verify on a dummy hash; always false.
  bool VerifyDummy(std::string_view password) const;
  // Whether `encoded` was made with other parameters than the current ones.
  bool NeedsRehash(std::string_view encoded) const;

  const PasswordHashOptions& options() const { return options_; }

 private:
  PasswordHasher(PasswordHashOptions options, std::string dummy_hash)
      : options_(options), dummy_hash_(std::move(dummy_hash)) {}

  PasswordHashOptions options_;
  std::string dummy_hash_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_PASSWORD_HASHER_H_
