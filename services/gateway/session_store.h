// Sessions: one per browser, named by a random id kept in the
// draughts_session cookie. A session is a guest's, or an account's once its
// browser registered or logged in (account_handlers.h). The id is the session's secret: whoever
// sends it is that guest, so it goes nowhere but the owner's cookie. What others see
// (Seat.player_id in every game view) is the session's public player id,
// drawn apart from the secret so one never leads to the other.
// The store is an interface so handlers can be tested without Redis;
// RedisSessionStore is the one the binary runs, so sessions survive restarts
// and are shared by every gateway replica.
#ifndef DRAUGHTS_GATEWAY_SESSION_STORE_H_
#define DRAUGHTS_GATEWAY_SESSION_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::gateway {

struct Session {
  std::string id;            // the secret: 128 random bits, URL-safe base64 (22 characters)
  std::string player_id;     // public: "g_" or "p_" and 128 other random bits (24 characters)
  std::string display_name;  // a guest's "Guest-4821", or the account's name
  int64_t account_id = 0;    // 0 for a guest; internal, never sent to clients

  bool is_person() const { return account_id != 0; }
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  // A new guest session.
  virtual absl::StatusOr<Session> Create() = 0;
  // A new session for an account, with the account's public id and name.
  // `generation` is AccountGeneration() read before the password was
  // checked: a revocation in between leaves the new session dead at birth.
  virtual absl::StatusOr<Session> CreateForAccount(int64_t account_id, std::string_view player_id,
                                                   std::string_view name, int64_t generation) = 0;
  // Ends one session (logout); unknown ids are fine.
  virtual absl::Status Revoke(std::string_view id) = 0;
  // The account's session generation: sessions made under an older one are
  // revoked.
  virtual absl::StatusOr<int64_t> AccountGeneration(int64_t account_id) = 0;
  // Revokes every session of the account (password change, deletion).
  virtual absl::Status RevokeAccountSessions(int64_t account_id) = 0;
  // The session with this id (its lifetime extended), or nullopt if unknown
  // or expired.
  virtual absl::StatusOr<std::optional<Session>> Find(std::string_view id) = 0;
  // OK when the backing store answers (for /healthz).
  virtual absl::Status Ping() = 0;
};

// A fresh session id: 16 random bytes, URL-safe base64 without padding.
std::string NewSessionId();
// A fresh public player id: "g_" and 16 other random bytes, encoded alike.
std::string NewPublicPlayerId();
// The same with "p_", for an account registered without a guest session.
std::string NewAccountPlayerId();
// "Guest-" and four random digits.
std::string NewGuestName();

// Whether `id` has the shape NewSessionId() produces (checked before any
// store lookup, so garbage cookies never reach Redis).
bool IsWellFormedSessionId(std::string_view id);
// Whether `id` has the shape NewPublicPlayerId() or NewAccountPlayerId()
// produces.
bool IsWellFormedPublicPlayerId(std::string_view id);

// The draughts_session value in a Cookie header, or "" if absent.
std::string SessionIdFromCookie(std::string_view cookie_header);

// The Set-Cookie header value for a session: HttpOnly, SameSite=Lax, and
// Secure when `secure` (the gateway is reached over TLS).
std::string SessionCookie(std::string_view session_id, bool secure = false);
// The Set-Cookie header value that makes the browser drop its session cookie.
std::string ExpiredSessionCookie(bool secure = false);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SESSION_STORE_H_
