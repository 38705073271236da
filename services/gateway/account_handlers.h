// The account routes (docs/WEB_PROTOCOL.md, "Accounts"): register, log in,
// log out, change password, delete account. Sessions stay in Redis
// (session_store.h); accounts and their Argon2id hashes are in PostgreSQL
// (account_store.h). While the database is down these routes answer 503
// and guests play on.
//
// A guest who registers keeps their games: the new account takes the
// guest session's public player id as its own, so the seats the guest holds
// (which show that id) are the account's, and the seat tokens the browser
// keeps for them still play. Registering and logging in both replace the
// browser's session with a new one (a new cookie; the old id is revoked),
// so an id planted in a browser before it logged in is worth nothing after.
//
// The password and its hash appear in no response, log line or metric.
// Login failures all read "wrong name or password", in the same time
// whether the name exists or not (an unknown name is checked against a
// dummy hash). Every account POST from a browser on another origin (its
// Origin header names another host) is refused, on top of the SameSite=Lax
// cookie: that also stops a page elsewhere from logging a visitor into the
// page owner's account.
#ifndef DRAUGHTS_GATEWAY_ACCOUNT_HANDLERS_H_
#define DRAUGHTS_GATEWAY_ACCOUNT_HANDLERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gateway/account_store.h"
#include "gateway/gateway_metrics.h"
#include "gateway/http_types.h"
#include "gateway/login_limiter.h"
#include "gateway/password_hasher.h"
#include "gateway/session_store.h"

namespace draughts::gateway {

class AccountHandlers {
 public:
  // All must outlive the handlers. `secure_cookie` adds Secure to the
  // session cookies set here (the gateway is reached over TLS).
  AccountHandlers(SessionStore* sessions, AccountStore* accounts, const PasswordHasher* hasher,
                  LoginLimiter* limiter, GatewayMetrics* metrics, bool secure_cookie);

  // POST /api/accounts {"name","password"}
  HttpResponse Register(const HttpRequest& request);
  // POST /api/login {"name","password"}
  HttpResponse Login(const HttpRequest& request);
  // POST /api/logout
  HttpResponse Logout(const HttpRequest& request);
  // POST /api/account/password {"currentPassword","newPassword"}
  HttpResponse ChangePassword(const HttpRequest& request);
  // DELETE /api/account {"password"}
  HttpResponse DeleteAccount(const HttpRequest& request);

  // OK when the accounts database answers (for /healthz).
  absl::Status Ping() { return accounts_->Ping(); }

 private:
  // The session of the request's cookie, or nullopt if it has none (or a
  // dead one); errors only when the store fails.
  absl::StatusOr<std::optional<Session>> CurrentSession(const HttpRequest& request);
  // The session of a logged-in account, else UNAUTHENTICATED.
  absl::StatusOr<Session> RequirePerson(const HttpRequest& request);
  // Checks `password` against the account's stored hash, within the login
  // limits (past them: RESOURCE_EXHAUSTED, `retry_after_seconds` set);
  // PERMISSION_DENIED when wrong.
  absl::StatusOr<StoredCredentials> CheckPassword(const HttpRequest& request, int64_t account_id,
                                                  const std::string& password,
                                                  int64_t* retry_after_seconds);
  // A new session for the account, answered with its cookie; `replaced`,
  // the browser's previous session, is revoked.
  HttpResponse StartSession(const StoredCredentials& account, int64_t generation,
                            const std::optional<Session>& replaced);
  HttpResponse LimitedResponse(int64_t retry_after_seconds);

  SessionStore* sessions_;
  AccountStore* accounts_;
  const PasswordHasher* hasher_;
  LoginLimiter* limiter_;
  GatewayMetrics* metrics_;
  const bool secure_cookie_;
};

// PERMISSION_DENIED when the request comes from a page of another origin:
// an Origin header whose host[:port] is not the Host header's. Requests
// without Origin (not from a browser page, or a same-origin GET) pass.
absl::Status CheckSameOrigin(const HttpRequest& request);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ACCOUNT_HANDLERS_H_
