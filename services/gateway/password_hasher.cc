#include "gateway/password_hasher.h"

#include <sodium.h>

#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::gateway {

absl::StatusOr<PasswordHasher> PasswordHasher::Create(PasswordHashOptions options) {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  if (options.opslimit < crypto_pwhash_OPSLIMIT_MIN ||
      options.opslimit > crypto_pwhash_OPSLIMIT_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        "password opslimit must be ", crypto_pwhash_OPSLIMIT_MIN, "-", crypto_pwhash_OPSLIMIT_MAX));
  }
  if (options.memlimit < crypto_pwhash_MEMLIMIT_MIN || options.memlimit > (std::size_t{4} << 30)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "password memlimit must be ", crypto_pwhash_MEMLIMIT_MIN / 1024, " KiB - 4 GiB"));
  }
  // The dummy's password is random and thrown away: nothing can match it.
  unsigned char random[32];
  randombytes_buf(random, sizeof random);
  PasswordHasher hasher(options, "");
  absl::StatusOr<std::string> dummy =
      hasher.Hash(std::string_view(reinterpret_cast<const char*>(random), sizeof random));
  sodium_memzero(random, sizeof random);
  if (!dummy.ok()) return dummy.status();
  hasher.dummy_hash_ = *std::move(dummy);
  return hasher;
}

absl::StatusOr<std::string> PasswordHasher::Hash(std::string_view password) const {
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), options_.opslimit,
                            options_.memlimit, crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return absl::ResourceExhaustedError("out of memory hashing a password: retry later");
  }
  return std::string(out);
}

bool PasswordHasher::Verify(std::string_view encoded, std::string_view password) const {
  // crypto_pwhash_str_verify wants a NUL-terminated string.
  const std::string terminated(encoded);
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

bool PasswordHasher::VerifyDummy(std::string_view password) const {
  (void)Verify(dummy_hash_, password);
  return false;
}

bool PasswordHasher::NeedsRehash(std::string_view encoded) const {
  const std::string terminated(encoded);
  // 1: other parameters, -1: not an Argon2id hash at all; both get a new one.
  return crypto_pwhash_str_needs_rehash(terminated.c_str(), options_.opslimit, options_.memlimit) !=
         0;
}

}  // namespace draughts::gateway
