#include "game_state/player_tokens.h"

#include <sodium.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace draughts::game_state {
namespace {

constexpr int kTokenBytes = 24;

// sodium_init is idempotent and thread-safe; it only has to run before the
// first random number is drawn.
void EnsureSodium() {
  static const bool ready = [] {
    if (sodium_init() < 0) std::abort();  // no usable randomness: nothing is safe
    return true;
  }();
  (void)ready;
}

std::string ToUrlSafeBase64(const unsigned char* data, std::size_t size) {
  const int variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  std::string out(sodium_base64_ENCODED_LEN(size, variant), '\0');
  sodium_bin2base64(out.data(), out.size(), data, size, variant);
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string RandomUrlSafeString(int bytes) {
  EnsureSodium();
  std::vector<unsigned char> buffer(static_cast<std::size_t>(bytes));
  randombytes_buf(buffer.data(), buffer.size());
  return ToUrlSafeBase64(buffer.data(), buffer.size());
}

std::string NewPlayerToken() {
  return RandomUrlSafeString(kTokenBytes);
}

std::string HashPlayerToken(std::string_view token) {
  EnsureSodium();
  std::string digest(crypto_generichash_BYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(digest.data()), digest.size(), Bytes(token),
                     token.size(), nullptr, 0);
  return digest;
}

bool TokenMatchesHash(std::string_view token, std::string_view hash) {
  if (hash.size() != crypto_generichash_BYTES) return false;
  const std::string digest = HashPlayerToken(token);
  return sodium_memcmp(digest.data(), hash.data(), digest.size()) == 0;
}

absl::StatusOr<TokenSealer> TokenSealer::FromSecret(std::string_view secret) {
  if (secret.size() < 16) {
    return absl::InvalidArgumentError("the token secret must be at least 16 bytes long");
  }
  EnsureSodium();
  std::string key(crypto_secretbox_KEYBYTES, '\0');
  static constexpr std::string_view kContext = "draughts game-state token seal v1";
  crypto_generichash(reinterpret_cast<unsigned char*>(key.data()), key.size(), Bytes(kContext),
                     kContext.size(), Bytes(secret), secret.size());
  return TokenSealer(std::move(key));
}

TokenSealer TokenSealer::Ephemeral() {
  EnsureSodium();
  std::string key(crypto_secretbox_KEYBYTES, '\0');
  randombytes_buf(key.data(), key.size());
  return TokenSealer(std::move(key));
}

std::string TokenSealer::Seal(const TokenPair& tokens) const {
  // Tokens are URL-safe base64, so a newline cannot occur inside one.
  const std::string plain = tokens.white + "\n" + tokens.black;
  std::string box(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + plain.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(box.data());
  randombytes_buf(out, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(out + crypto_secretbox_NONCEBYTES, Bytes(plain), plain.size(), out,
                        Bytes(key_));
  return box;
}

absl::StatusOr<TokenPair> TokenSealer::Open(std::string_view sealed) const {
  if (sealed.size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
    return absl::FailedPreconditionError("sealed tokens are damaged");
  }
  const std::size_t cipher_size = sealed.size() - crypto_secretbox_NONCEBYTES;
  std::string plain(cipher_size - crypto_secretbox_MACBYTES, '\0');
  if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(plain.data()),
                                 Bytes(sealed) + crypto_secretbox_NONCEBYTES, cipher_size,
                                 Bytes(sealed), Bytes(key_)) != 0) {
    return absl::FailedPreconditionError(
        "the player tokens were sealed with another secret: give every replica the same "
        "--token_secret");
  }
  const std::size_t newline = plain.find('\n');
  if (newline == std::string::npos)
    return absl::FailedPreconditionError("sealed tokens are damaged");
  return TokenPair{plain.substr(0, newline), plain.substr(newline + 1)};
}

}  // namespace draughts::game_state
