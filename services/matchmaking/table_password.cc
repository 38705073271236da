#include "matchmaking/table_password.h"

#include <sodium.h>

#include <vector>

namespace draughts::matchmaking {

PasswordHasher::PasswordHasher(unsigned long long ops_limit, std::size_t mem_limit_bytes)
    : ops_limit_(ops_limit != 0 ? ops_limit : crypto_pwhash_OPSLIMIT_INTERACTIVE),
      mem_limit_(mem_limit_bytes != 0 ? mem_limit_bytes : crypto_pwhash_MEMLIMIT_INTERACTIVE) {
  if (sodium_init() < 0) return;
  absl::StatusOr<std::string> decoy = Hash("a decoy nobody knows");
  if (decoy.ok()) decoy_hash_ = *std::move(decoy);
}

absl::StatusOr<std::string> PasswordHasher::Hash(std::string_view password) const {
  std::vector<char> out(crypto_pwhash_STRBYTES);
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), ops_limit_, mem_limit_,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return absl::ResourceExhaustedError("not enough memory to hash the password; retry");
  }
  return std::string(out.data());
}

bool PasswordHasher::Verify(std::string_view hash, std::string_view password) const {
  if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
  std::string terminated(hash);
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

void PasswordHasher::VerifyNothing(std::string_view password) const {
  if (!decoy_hash_.empty()) (void)Verify(decoy_hash_, password);
}

}  // namespace draughts::matchmaking
