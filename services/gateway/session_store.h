// Guest sessions: one per browser, named by a random id kept in the
// draughts_session cookie. The id is the session's secret: whoever sends it
// is that guest, so it goes nowhere but the owner's cookie. What others see
// (Seat.player_id in every game view) is the session's public player id,
// drawn apart from the secret so one never leads to the other.
// The store is an interface so handlers can be tested without Redis;
// RedisSessionStore is the one the binary runs, so sessions survive restarts
// and are shared by every gateway replica.
#ifndef DRAUGHTS_GATEWAY_SESSION_STORE_H_
#define DRAUGHTS_GATEWAY_SESSION_STORE_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::gateway {

struct Session {
  std::string id;          // the secret: 128 random bits, URL-safe base64 (22 characters)
  std::string player_id;   // public: "g_" and 128 other random bits (24 characters)
  std::string guest_name;  // "Guest-4821"
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  // A new guest session.
  virtual absl::StatusOr<Session> Create() = 0;
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
// "Guest-" and four random digits.
std::string NewGuestName();

// Whether `id` has the shape NewSessionId() produces (checked before any
// store lookup, so garbage cookies never reach Redis).
bool IsWellFormedSessionId(std::string_view id);
// Whether `id` has the shape NewPublicPlayerId() produces.
bool IsWellFormedPublicPlayerId(std::string_view id);

// The draughts_session value in a Cookie header, or "" if absent.
std::string SessionIdFromCookie(std::string_view cookie_header);

// The Set-Cookie header value for a session.
std::string SessionCookie(std::string_view session_id);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SESSION_STORE_H_
