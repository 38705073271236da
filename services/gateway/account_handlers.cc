#include "gateway/account_handlers.h"

#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gateway/account_names.h"
#include "gateway/error_mapping.h"
#include "gateway/proto_json.h"
#include "gateway/rest_bodies.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

constexpr std::string_view kWrongNameOrPassword = "wrong name or password";

HttpResponse Json(std::string body) {
  HttpResponse response;
  response.body = std::move(body);
  return response;
}

// A string field that must be present.
absl::StatusOr<std::string> RequiredString(const google::protobuf::Struct& body,
                                           const std::string& name) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalStringField(body, name));
  if (!value.has_value())
    return absl::InvalidArgumentError(absl::StrCat("\"", name, "\" is required"));
  return *std::move(value);
}

absl::StatusOr<google::protobuf::Struct> Body(const HttpRequest& request) {
  if (request.body.empty()) return absl::InvalidArgumentError("the body must be a JSON object");
  return ParseJsonObject(request.body);
}

}  // namespace

absl::Status CheckSameOrigin(const HttpRequest& request) {
  if (request.origin.empty()) return absl::OkStatus();
  std::string_view origin = request.origin;
  if (origin.starts_with("https://")) {
    origin.remove_prefix(8);
  } else if (origin.starts_with("http://")) {
    origin.remove_prefix(7);
  } else {
    return absl::PermissionDeniedError("cross-origin request refused");
  }
  if (request.host.empty() || origin != request.host) {
    return absl::PermissionDeniedError("cross-origin request refused");
  }
  return absl::OkStatus();
}

AccountHandlers::AccountHandlers(SessionStore* sessions, AccountStore* accounts,
                                 const PasswordHasher* hasher, LoginLimiter* limiter,
                                 GatewayMetrics* metrics, bool secure_cookie)
    : sessions_(sessions),
      accounts_(accounts),
      hasher_(hasher),
      limiter_(limiter),
      metrics_(metrics),
      secure_cookie_(secure_cookie) {}

absl::StatusOr<std::optional<Session>> AccountHandlers::CurrentSession(const HttpRequest& request) {
  const std::string id = SessionIdFromCookie(request.cookie);
  if (id.empty()) return std::optional<Session>();
  return sessions_->Find(id);
}

absl::StatusOr<Session> AccountHandlers::RequirePerson(const HttpRequest& request) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<Session> session, CurrentSession(request));
  if (!session.has_value() || !session->is_person()) {
    return absl::UnauthenticatedError("not logged in: POST /api/login first");
  }
  return *std::move(session);
}

HttpResponse AccountHandlers::LimitedResponse(int64_t retry_after_seconds) {
  metrics_->RecordAccountEvent("login_limited");
  HttpResponse response = ErrorResponse(absl::ResourceExhaustedError(
      absl::StrCat("too many failed attempts: retry in ", retry_after_seconds, " s")));
  response.headers.emplace_back("Retry-After", absl::StrCat(retry_after_seconds));
  return response;
}

HttpResponse AccountHandlers::StartSession(const StoredCredentials& account, int64_t generation,
                                           const std::optional<Session>& replaced) {
  absl::StatusOr<Session> session = sessions_->CreateForAccount(
      account.account.id, account.account.public_id, account.account.name, generation);
  if (!session.ok()) return ErrorResponse(session.status());
  if (replaced.has_value()) {
    // Best effort: the browser gets the new cookie either way.
    if (absl::Status revoked = sessions_->Revoke(replaced->id); !revoked.ok()) {
      platform::LogWarn("could not revoke a replaced session",
                        {{"error", std::string(revoked.message())}});
    }
  }
  HttpResponse response = Json(SessionJson(*session));
  response.headers.emplace_back("Set-Cookie", SessionCookie(session->id, secure_cookie_));
  return response;
}

HttpResponse AccountHandlers::Register(const HttpRequest& request) {
  if (absl::Status origin = CheckSameOrigin(request); !origin.ok()) return ErrorResponse(origin);
  absl::StatusOr<google::protobuf::Struct> body = Body(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> name = RequiredString(*body, "name");
  if (!name.ok()) return ErrorResponse(name.status());
  absl::StatusOr<std::string> password = RequiredString(*body, "password");
  if (!password.ok()) return ErrorResponse(password.status());
  if (absl::Status valid = ValidateAccountName(*name); !valid.ok()) return ErrorResponse(valid);
  if (absl::Status valid = ValidatePassword(*password); !valid.ok()) return ErrorResponse(valid);
  absl::StatusOr<std::optional<Session>> current = CurrentSession(request);
  if (!current.ok()) return ErrorResponse(current.status());
  if (current->has_value() && (*current)->is_person()) {
    return ErrorResponse(absl::FailedPreconditionError("already logged in: log out first"));
  }
  // Registration hashes a password too: it shares the per-address allowance
  // with logins, so it cannot be used to burn the server's CPU either.
  absl::StatusOr<LoginAttempt> attempt = limiter_->Begin("", request.client_address);
  if (!attempt.ok()) return ErrorResponse(attempt.status());
  if (attempt->retry_after_seconds > 0) return LimitedResponse(attempt->retry_after_seconds);
  absl::StatusOr<std::string> hash = hasher_->Hash(*password);
  if (!hash.ok()) return ErrorResponse(hash.status());
  // The guest's public id becomes the account's: their seats are its seats.
  const std::string public_id = current->has_value() ? (*current)->player_id : NewAccountPlayerId();
  absl::StatusOr<Account> account = accounts_->Create(*name, *hash, public_id);
  if (!account.ok()) {
    if (account.status().code() == absl::StatusCode::kAlreadyExists) {
      metrics_->RecordAccountEvent("register_name_taken");
    }
    return ErrorResponse(account.status());
  }
  (void)limiter_->Release(*attempt);
  metrics_->RecordAccountEvent("register");
  platform::LogInfo("account registered", {{"player", account->public_id}});
  // A new account has never had its sessions revoked: generation 0.
  absl::StatusOr<int64_t> generation = sessions_->AccountGeneration(account->id);
  if (!generation.ok()) return ErrorResponse(generation.status());
  return StartSession(StoredCredentials{*account, ""}, *generation, *current);
}

HttpResponse AccountHandlers::Login(const HttpRequest& request) {
  if (absl::Status origin = CheckSameOrigin(request); !origin.ok()) return ErrorResponse(origin);
  absl::StatusOr<google::protobuf::Struct> body = Body(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> name = RequiredString(*body, "name");
  if (!name.ok()) return ErrorResponse(name.status());
  absl::StatusOr<std::string> password = RequiredString(*body, "password");
  if (!password.ok()) return ErrorResponse(password.status());
  // A name that cannot exist is counted against the address only (it
  // cannot be a Redis key), and answered like any other wrong name.
  const bool possible_name = ValidateAccountName(*name).ok();
  absl::StatusOr<LoginAttempt> attempt =
      limiter_->Begin(possible_name ? NormaliseAccountName(*name) : "", request.client_address);
  if (!attempt.ok()) return ErrorResponse(attempt.status());
  if (attempt->retry_after_seconds > 0) return LimitedResponse(attempt->retry_after_seconds);
  absl::StatusOr<std::optional<StoredCredentials>> found =
      possible_name ? accounts_->FindByName(*name) : std::optional<StoredCredentials>();
  if (!found.ok()) return ErrorResponse(found.status());
  const bool right = found->has_value() ? hasher_->Verify((*found)->password_hash, *password)
                                        : hasher_->VerifyDummy(*password);
  if (!right) {
    metrics_->RecordAccountEvent("login_failed");
    platform::LogInfo("login refused", {{"address", request.client_address}});
    return ErrorResponse(absl::UnauthenticatedError(std::string(kWrongNameOrPassword)));
  }
  (void)limiter_->Release(*attempt);
  StoredCredentials account = **std::move(found);
  if (hasher_->NeedsRehash(account.password_hash)) {
    absl::StatusOr<std::string> rehashed = hasher_->Hash(*password);
    if (rehashed.ok()) {
      absl::StatusOr<bool> replaced =
          accounts_->ReplacePasswordHash(account.account.id, account.password_hash, *rehashed);
      if (replaced.ok() && *replaced) {
        account.password_hash = *std::move(rehashed);
        metrics_->RecordAccountEvent("password_rehashed");
      }
    }
  }
  // Read the generation, then check the hash is still the one verified: a
  // password change that lands in between either shows here (refused) or
  // revokes the session made below (its generation is then stale).
  absl::StatusOr<int64_t> generation = sessions_->AccountGeneration(account.account.id);
  if (!generation.ok()) return ErrorResponse(generation.status());
  absl::StatusOr<std::optional<StoredCredentials>> again = accounts_->FindById(account.account.id);
  if (!again.ok()) return ErrorResponse(again.status());
  if (!again->has_value() || (*again)->password_hash != account.password_hash) {
    return ErrorResponse(absl::UnauthenticatedError(std::string(kWrongNameOrPassword)));
  }
  absl::StatusOr<std::optional<Session>> current = CurrentSession(request);
  if (!current.ok()) return ErrorResponse(current.status());
  metrics_->RecordAccountEvent("login");
  platform::LogInfo("logged in", {{"player", account.account.public_id}});
  return StartSession(account, *generation, *current);
}

HttpResponse AccountHandlers::Logout(const HttpRequest& request) {
  if (absl::Status origin = CheckSameOrigin(request); !origin.ok()) return ErrorResponse(origin);
  const std::string id = SessionIdFromCookie(request.cookie);
  if (!id.empty()) {
    if (absl::Status revoked = sessions_->Revoke(id); !revoked.ok()) return ErrorResponse(revoked);
  }
  metrics_->RecordAccountEvent("logout");
  HttpResponse response = Json("{\"loggedOut\":true}");
  response.headers.emplace_back("Set-Cookie", ExpiredSessionCookie(secure_cookie_));
  return response;
}

absl::StatusOr<StoredCredentials> AccountHandlers::CheckPassword(const HttpRequest& request,
                                                                 int64_t account_id,
                                                                 const std::string& password,
                                                                 int64_t* retry_after_seconds) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<StoredCredentials> account,
                            accounts_->FindById(account_id));
  if (!account.has_value()) return absl::UnauthenticatedError("this account no longer exists");
  DRAUGHTS_ASSIGN_OR_RETURN(
      LoginAttempt attempt,
      limiter_->Begin(NormaliseAccountName(account->account.name), request.client_address));
  if (attempt.retry_after_seconds > 0) {
    *retry_after_seconds = attempt.retry_after_seconds;
    return absl::ResourceExhaustedError(
        absl::StrCat("too many failed attempts: retry in ", attempt.retry_after_seconds, " s"));
  }
  if (!hasher_->Verify(account->password_hash, password)) {
    metrics_->RecordAccountEvent("password_check_failed");
    return absl::PermissionDeniedError("wrong password");
  }
  (void)limiter_->Release(attempt);
  return *std::move(account);
}

HttpResponse AccountHandlers::ChangePassword(const HttpRequest& request) {
  if (absl::Status origin = CheckSameOrigin(request); !origin.ok()) return ErrorResponse(origin);
  absl::StatusOr<Session> session = RequirePerson(request);
  if (!session.ok()) return ErrorResponse(session.status());
  absl::StatusOr<google::protobuf::Struct> body = Body(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> current_password = RequiredString(*body, "currentPassword");
  if (!current_password.ok()) return ErrorResponse(current_password.status());
  absl::StatusOr<std::string> new_password = RequiredString(*body, "newPassword");
  if (!new_password.ok()) return ErrorResponse(new_password.status());
  if (absl::Status valid = ValidatePassword(*new_password); !valid.ok()) {
    return ErrorResponse(valid);
  }
  int64_t retry_after = 0;
  absl::StatusOr<StoredCredentials> account =
      CheckPassword(request, session->account_id, *current_password, &retry_after);
  if (!account.ok()) {
    if (retry_after > 0) return LimitedResponse(retry_after);
    return ErrorResponse(account.status());
  }
  absl::StatusOr<std::string> hash = hasher_->Hash(*new_password);
  if (!hash.ok()) return ErrorResponse(hash.status());
  absl::StatusOr<bool> replaced =
      accounts_->ReplacePasswordHash(account->account.id, account->password_hash, *hash);
  if (!replaced.ok()) return ErrorResponse(replaced.status());
  if (!*replaced) {
    return ErrorResponse(absl::AbortedError("the password changed meanwhile: try again"));
  }
  // Every session of the account ends, this one too; the caller gets a new
  // one below, under the new generation.
  if (absl::Status revoked = sessions_->RevokeAccountSessions(account->account.id); !revoked.ok()) {
    return ErrorResponse(revoked);
  }
  absl::StatusOr<int64_t> generation = sessions_->AccountGeneration(account->account.id);
  if (!generation.ok()) return ErrorResponse(generation.status());
  metrics_->RecordAccountEvent("password_changed");
  platform::LogInfo("password changed", {{"player", account->account.public_id}});
  return StartSession(*account, *generation, std::nullopt);
}

HttpResponse AccountHandlers::DeleteAccount(const HttpRequest& request) {
  if (absl::Status origin = CheckSameOrigin(request); !origin.ok()) return ErrorResponse(origin);
  absl::StatusOr<Session> session = RequirePerson(request);
  if (!session.ok()) return ErrorResponse(session.status());
  absl::StatusOr<google::protobuf::Struct> body = Body(request);
  if (!body.ok()) return ErrorResponse(body.status());
  absl::StatusOr<std::string> password = RequiredString(*body, "password");
  if (!password.ok()) return ErrorResponse(password.status());
  int64_t retry_after = 0;
  absl::StatusOr<StoredCredentials> account =
      CheckPassword(request, session->account_id, *password, &retry_after);
  if (!account.ok()) {
    if (retry_after > 0) return LimitedResponse(retry_after);
    return ErrorResponse(account.status());
  }
  absl::StatusOr<bool> deleted = accounts_->Delete(account->account.id);
  if (!deleted.ok()) return ErrorResponse(deleted.status());
  if (absl::Status revoked = sessions_->RevokeAccountSessions(account->account.id); !revoked.ok()) {
    return ErrorResponse(revoked);
  }
  metrics_->RecordAccountEvent("account_deleted");
  platform::LogInfo("account deleted", {{"player", account->account.public_id}});
  HttpResponse response = Json("{\"deleted\":true}");
  response.headers.emplace_back("Set-Cookie", ExpiredSessionCookie(secure_cookie_));
  return response;
}

}  // namespace draughts::gateway
