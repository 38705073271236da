#include "platform/secret_tokens.h"

#include <sodium.h>

#include <cstdlib>
#include <utility>
#include <vector>

namespace draughts::platform {
namespace {

// sodium_init is idempotent and thread-safe; it only has to run before the
// first random number is drawn.
void EnsureSodium() {
  static const bool ready = [] {
    if (sodium_init() < 0) std::abort();  // no usable randomness: nothing is safe
    return true;
  }();
  (void)ready;
}

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string RandomUrlSafeString(int bytes) {
  if (bytes <= 0) return "";
  EnsureSodium();
  std::vector<unsigned char> buffer(static_cast<std::size_t>(bytes));
  randombytes_buf(buffer.data(), buffer.size());
  const int variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  std::string out(sodium_base64_ENCODED_LEN(buffer.size(), variant), '\0');
  sodium_bin2base64(out.data(), out.size(), buffer.data(), buffer.size(), variant);
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

std::string HashSecret(std::string_view secret) {
  EnsureSodium();
  std::string digest(crypto_generichash_BYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(digest.data()), digest.size(), Bytes(secret),
                     secret.size(), nullptr, 0);
  return digest;
}

bool SecretMatchesHash(std::string_view secret, std::string_view hash) {
  if (hash.size() != crypto_generichash_BYTES) return false;
  const std::string digest = HashSecret(secret);
  return sodium_memcmp(digest.data(), hash.data(), digest.size()) == 0;
}

const std::size_t SecretBox::kOverhead = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES;

absl::StatusOr<SecretBox> SecretBox::FromSecret(std::string_view secret, std::string_view context) {
  if (secret.size() < 16) {
    return absl::InvalidArgumentError("the token secret must be at least 16 bytes long");
  }
  EnsureSodium();
  std::string key(crypto_secretbox_KEYBYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(key.data()), key.size(), Bytes(context),
                     context.size(), Bytes(secret), secret.size());
  return SecretBox(std::move(key));
}

SecretBox SecretBox::Ephemeral() {
  EnsureSodium();
  std::string key(crypto_secretbox_KEYBYTES, '\0');
  randombytes_buf(key.data(), key.size());
  return SecretBox(std::move(key));
}

std::string SecretBox::Seal(std::string_view plain) const {
  std::string box(kOverhead + plain.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(box.data());
  randombytes_buf(out, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(out + crypto_secretbox_NONCEBYTES, Bytes(plain), plain.size(), out,
                        Bytes(key_));
  return box;
}

absl::StatusOr<std::string> SecretBox::Open(std::string_view sealed) const {
  if (sealed.size() < kOverhead) return absl::FailedPreconditionError("the sealed box is damaged");
  const std::size_t cipher_size = sealed.size() - crypto_secretbox_NONCEBYTES;
  std::string plain(cipher_size - crypto_secretbox_MACBYTES, '\0');
  if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(plain.data()),
                                 Bytes(sealed) + crypto_secretbox_NONCEBYTES, cipher_size,
                                 Bytes(sealed), Bytes(key_)) != 0) {
    return absl::FailedPreconditionError("the box was sealed with another key, or is damaged");
  }
  return plain;
}

}  // namespace draughts::platform
