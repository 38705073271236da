// Guest sessions: one per browser, named by a random id kept in the
// draughts_session cookie. The store is an interface so handlers can be
// tested without Redis; RedisSessionStore is the one the binary runs, so
// sessions survive restarts and are shared by every gateway replica.
#ifndef DRAUGHTS_GATEWAY_SESSION_STORE_H_
#define DRAUGHTS_GATEWAY_SESSION_STORE_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace draughts::gateway {

struct Session {
  std::string id;          // 128 random bits, URL-safe base64 (22 characters)
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
// "Guest-" and four random digits.
std::string NewGuestName();

// Whether `id` has the shape NewSessionId() produces (checked before any
// store lookup, so garbage cookies never reach Redis).
bool IsWellFormedSessionId(std::string_view id);

// The draughts_session value in a Cookie header, or "" if absent.
std::string SessionIdFromCookie(std::string_view cookie_header);

// The Set-Cookie header value for a session.
std::string SessionCookie(std::string_view session_id);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SESSION_STORE_H_
