// Passwords of private tables: stored only as an Argon2id hash
// (libsodium crypto_pwhash_str, salted, memory-hard), never in the clear,
// never logged. The cost is a flag so tests under sanitizers stay fast;
// production keeps libsodium's interactive limits.
#ifndef DRAUGHTS_MATCHMAKING_TABLE_PASSWORD_H_
#define DRAUGHTS_MATCHMAKING_TABLE_PASSWORD_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::matchmaking {

class PasswordHasher {
 public:
  // 0 = libsodium's interactive limits.
  PasswordHasher(unsigned long long ops_limit = 0, std::size_t mem_limit_bytes = 0);

  absl::StatusOr<std::string> Hash(std::string_view password) const;
  bool Verify(std::string_view hash, std::string_view password) const;
  // Spends the time of a Verify, for an unknown table: a guesser must not
  // tell a missing table from a wrong password by the answer's delay.
  void VerifyNothing(std::string_view password) const;

 private:
  unsigned long long ops_limit_;
  std::size_t mem_limit_;
  std::string decoy_hash_;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_TABLE_PASSWORD_H_
