// Session ids, public player ids, guest names and the cookie that carries
// the session id.
#include <sodium.h>

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gateway/session_store.h"
#include "platform/absl_compat.h"

namespace draughts::gateway {
namespace {

constexpr std::string_view kCookieName = "draughts_session";
constexpr std::size_t kRandomTokenLength = 22;  // 16 bytes in unpadded base64
constexpr std::string_view kPublicPlayerIdPrefix = "g_";
constexpr std::string_view kAccountPlayerIdPrefix = "p_";

void EnsureSodium() {
  // sodium_init is idempotent and thread-safe; randombytes works without it
  // on Linux, but calling it picks the best implementation once.
  static const int initialised = sodium_init();
  (void)initialised;
}

// 16 fresh random bytes, URL-safe base64 without padding (22 characters).
std::string RandomToken() {
  EnsureSodium();
  unsigned char bytes[16];
  randombytes_buf(bytes, sizeof bytes);
  std::string id;
  absl::WebSafeBase64Escape(absl::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes),
                            &id);
  return id;
}

bool IsRandomToken(std::string_view text) {
  if (text.size() != kRandomTokenLength) return false;
  for (char c : text) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

}  // namespace

std::string NewSessionId() {
  return RandomToken();
}

// Its own draw, never computed from the session id: knowing the public id
// tells nothing about the secret.
std::string NewPublicPlayerId() {
  return absl::StrCat(platform::ToAbsl(kPublicPlayerIdPrefix), RandomToken());
}

std::string NewAccountPlayerId() {
  return absl::StrCat(platform::ToAbsl(kAccountPlayerIdPrefix), RandomToken());
}

std::string NewGuestName() {
  EnsureSodium();
  return absl::StrCat("Guest-", 1000 + randombytes_uniform(9000));
}

bool IsWellFormedSessionId(std::string_view id) {
  return IsRandomToken(id);
}

bool IsWellFormedPublicPlayerId(std::string_view id) {
  const std::string_view prefix = id.substr(0, kPublicPlayerIdPrefix.size());
  return (prefix == kPublicPlayerIdPrefix || prefix == kAccountPlayerIdPrefix) &&
         IsRandomToken(id.substr(kPublicPlayerIdPrefix.size()));
}

std::string SessionIdFromCookie(std::string_view cookie_header) {
  for (absl::string_view pair : absl::StrSplit(platform::ToAbsl(cookie_header), ';')) {
    pair = absl::StripAsciiWhitespace(pair);
    if (absl::ConsumePrefix(&pair, platform::ToAbsl(kCookieName)) &&
        absl::ConsumePrefix(&pair, "=")) {
      return std::string(absl::StripAsciiWhitespace(pair));
    }
  }
  return "";
}

std::string SessionCookie(std::string_view session_id, bool secure) {
  return absl::StrCat(platform::ToAbsl(kCookieName), "=", platform::ToAbsl(session_id),
                      "; HttpOnly; SameSite=Lax; Path=/; Max-Age=", 30 * 24 * 3600,
                      secure ? "; Secure" : "");
}

std::string ExpiredSessionCookie(bool secure) {
  return absl::StrCat(platform::ToAbsl(kCookieName), "=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0",
                      secure ? "; Secure" : "");
}

}  // namespace draughts::gateway
