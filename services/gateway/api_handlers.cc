#include "gateway/api_handlers.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gateway/error_mapping.h"
#include "gateway/idempotency.h"
#include "gateway/json_string.h"
#include "gateway/proto_json.h"
#include "gateway/rest_bodies.h"
#include "gateway/variants_json.h"
#include "gateway/ws_protocol.h"
#include "platform/absl_compat.h"
#include "platform/event_id.h"
#include "platform/logging.h"
#include "platform/status_macros.h"
#include "rules/variant.h"

namespace draughts::gateway {
namespace {

HttpResponse Json(std::string body, int status = 200) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

absl::StatusOr<v1::CreateGameRequest> HotseatRequest(const HttpRequest& http,
                                                     const Session& session) {
  if (http.body.empty()) {
    return absl::InvalidArgumentError("the body must be a JSON object with variant and mode");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(google::protobuf::Struct body, ParseJsonObject(http.body));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> variant,
                            OptionalStringField(body, "variant"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> mode, OptionalStringField(body, "mode"));
  if (!variant.has_value() || variant->empty()) {
    return absl::InvalidArgumentError("\"variant\" is required");
  }
  if (!rules::FindVariant(*variant).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown variant ", JsonQuote(variant->substr(0, 40))));
  }
  if (!mode.has_value() || *mode != "hotseat") {
    return absl::InvalidArgumentError("mode not supported yet (only \"hotseat\")");
  }
  v1::CreateGameRequest request;
  request.set_variant(*variant);
  for (v1::Seat* seat : {request.mutable_white(), request.mutable_black()}) {
    seat->set_kind(session.is_person() ? v1::SEAT_KIND_PERSON : v1::SEAT_KIND_GUEST);
    // Every game view shows it: the public id, never the session secret.
    seat->set_player_id(session.player_id);
    seat->set_display_name(session.display_name);
  }
  return request;
}

}  // namespace

std::optional<std::string> QueryParameter(std::string_view query, std::string_view name) {
  for (absl::string_view absl_pair : absl::StrSplit(platform::ToAbsl(query), '&')) {
    const std::string_view pair = platform::ToStd(absl_pair);
    const std::size_t eq = pair.find('=');
    if (pair.substr(0, eq) != name) continue;
    if (eq == std::string_view::npos) return std::string();
    absl::StatusOr<std::string> value = PercentDecode(pair.substr(eq + 1));
    return value.ok() ? *value : std::string("\x01");  // undecodable: never valid
  }
  return std::nullopt;
}

ApiHandlers::ApiHandlers(SessionStore* sessions, IdempotencyStore* idempotency, GameBackend* games,
                         ArchiveBackend* archive, const StaticFiles* files,
                         AccountHandlers* accounts, bool secure_cookie, LobbyHandlers* lobby)
    : sessions_(sessions),
      idempotency_(idempotency),
      games_(games),
      archive_(archive),
      files_(files),
      accounts_(accounts),
      lobby_(lobby),
      secure_cookie_(secure_cookie),
      variants_json_(AllVariantsJson()) {}

absl::Status ApiHandlers::CheckIdempotencyKey(const HttpRequest& request) {
  if (!request.idempotency_key.has_value()) return absl::OkStatus();
  return ValidateIdempotencyKey(*request.idempotency_key);
}

absl::StatusOr<Session> ApiHandlers::RequireSession(const HttpRequest& request) {
  const std::string id = SessionIdFromCookie(request.cookie);
  if (id.empty()) {
    return absl::UnauthenticatedError("no session: POST /api/session first");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<Session> session, sessions_->Find(id));
  if (!session.has_value()) {
    return absl::UnauthenticatedError("unknown or expired session: POST /api/session");
  }
  return *std::move(session);
}

HttpResponse ApiHandlers::Handle(const RouteMatch& route, const HttpRequest& request) {
  if (LobbyHandlers::IsLobbyRoute(route.route)) {
    if (lobby_ == nullptr) {
      return ErrorResponse(absl::UnavailableError("the lobby is not configured on this gateway"));
    }
    absl::StatusOr<Session> session = RequireSession(request);
    if (!session.ok()) return ErrorResponse(session.status());
    return lobby_->Handle(route, request, *session);
  }
  switch (route.route) {
    case Route::kInvitePage:
      return LobbyHandlers::InvitePage(route);
    case Route::kHealth:
      return Health();
    case Route::kVariants:
      return Json(variants_json_);
    case Route::kCreateSession:
      return CreateSession(request);
    case Route::kGetSession:
      return GetSession(request);
    case Route::kRegister:
    case Route::kLogin:
    case Route::kLogout:
    case Route::kChangePassword:
    case Route::kDeleteAccount:
      return Accounts(route, request);
    case Route::kCreateGame:
      return CreateGame(request);
    case Route::kGetGame:
      return GetGame(route, request);
    case Route::kGamePdn:
      return GamePdn(route);
    case Route::kGameArchive:
      return GameArchive(route);
    case Route::kMalformedGameId:
      return ErrorResponse(
          absl::InvalidArgumentError("malformed game id: 1-64 letters, digits, '-' or '_'"));
    case Route::kStaticFile:
      return files_->Serve(request.path);
    case Route::kMethodNotAllowed: {
      HttpResponse response = ErrorResponse(
          405, absl::InvalidArgumentError(absl::StrCat("use ", route.allow, " on this path")));
      response.headers.emplace_back("Allow", route.allow);
      return response;
    }
    case Route::kGameSocket:
    case Route::kTableSocket:
      return ErrorResponse(absl::InvalidArgumentError("this path needs a WebSocket upgrade"));
    case Route::kListTables:  // answered above (LobbyHandlers::IsLobbyRoute)
    case Route::kCreateTable:
    case Route::kGetTable:
    case Route::kJoinTable:
    case Route::kLeaveTable:
    case Route::kFillSeats:
    case Route::kStartTable:
    case Route::kTableInvite:
    case Route::kPairingStatus:
    case Route::kJoinByInvite:
    case Route::kQuickPair:
    case Route::kPlayComputer:
    case Route::kNotFound:
      break;
  }
  return ErrorResponse(absl::NotFoundError("no such path"));
}

HttpResponse ApiHandlers::CreateSession(const HttpRequest& request) {
  // The key is checked but not needed: a retry that carries the first
  // answer's cookie gets the same session back (below), and one whose first
  // answer was lost makes a second guest session that nothing refers to.
  if (absl::Status key = CheckIdempotencyKey(request); !key.ok()) return ErrorResponse(key);
  // A browser that already has a live session keeps it (a reload must not
  // make the player someone else).
  absl::StatusOr<Session> session = RequireSession(request);
  if (!session.ok() && session.status().code() != absl::StatusCode::kUnauthenticated) {
    return ErrorResponse(session.status());
  }
  if (!session.ok()) session = sessions_->Create();
  if (!session.ok()) return ErrorResponse(session.status());
  // The secret travels only in the (HttpOnly) cookie; the page gets the
  // public id, the one games show.
  HttpResponse response = Json(SessionJson(*session));
  response.headers.emplace_back("Set-Cookie", SessionCookie(session->id, secure_cookie_));
  return response;
}

HttpResponse ApiHandlers::GetSession(const HttpRequest& request) {
  absl::StatusOr<Session> session = RequireSession(request);
  if (!session.ok()) return ErrorResponse(session.status());
  return Json(SessionJson(*session));
}

HttpResponse ApiHandlers::Accounts(const RouteMatch& route, const HttpRequest& request) {
  if (accounts_ == nullptr) {
    return ErrorResponse(absl::UnavailableError("accounts are not configured on this gateway"));
  }
  switch (route.route) {
    case Route::kRegister:
      return accounts_->Register(request);
    case Route::kLogin:
      return accounts_->Login(request);
    case Route::kLogout:
      return accounts_->Logout(request);
    case Route::kChangePassword:
      return accounts_->ChangePassword(request);
    case Route::kDeleteAccount:
      return accounts_->DeleteAccount(request);
    default:
      break;
  }
  return ErrorResponse(absl::NotFoundError("no such path"));
}

HttpResponse ApiHandlers::CreateGame(const HttpRequest& request) {
  absl::StatusOr<Session> session = RequireSession(request);
  if (!session.ok()) return ErrorResponse(session.status());
  if (absl::Status key = CheckIdempotencyKey(request); !key.ok()) return ErrorResponse(key);
  absl::StatusOr<v1::CreateGameRequest> create = HotseatRequest(request, *session);
  if (!create.ok()) return ErrorResponse(create.status());
  if (!request.idempotency_key.has_value()) {
    // No key, no dedupe: a fresh random key per request, so a retry makes a
    // second game.
    create->set_idempotency_key(absl::StrCat("gw-", NewSessionId()));
    return StartGame(*create);
  }
  const std::string& key = *request.idempotency_key;
  // What the request asks for, before the (derived) key is added to it.
  const std::string fingerprint = RequestFingerprint("CreateGame", *create);
  create->set_idempotency_key(BackendIdempotencyKey("CreateGame", session->player_id, key));
  return RespondOnce(*idempotency_, session->player_id, key, fingerprint,
                     [&] { return StartGame(*create); });
}

HttpResponse ApiHandlers::StartGame(const v1::CreateGameRequest& create) {
  absl::StatusOr<v1::CreateGameResponse> created = games_->CreateGame(create);
  if (!created.ok()) return ErrorResponse(created.status());
  platform::LogInfo(
      "game created",
      {{"game", created->game_id()}, {"variant", create.variant()}, {"mode", "hotseat"}});
  return Json(CreatedGameJson(*created));
}

HttpResponse ApiHandlers::GetGame(const RouteMatch& route, const HttpRequest& request) {
  absl::StatusOr<Session> session = RequireSession(request);
  if (!session.ok()) return ErrorResponse(session.status());
  absl::StatusOr<GameView> view = games_->GetView(route.game_id);
  if (!view.ok()) return ErrorResponse(view.status());
  return Json(GameViewJson(*view));
}

HttpResponse ApiHandlers::GamePdn(const RouteMatch& route) {
  absl::StatusOr<v1::ArchivedGame> game = archive_->Find(route.game_id);
  if (!game.ok()) return ErrorResponse(game.status());
  HttpResponse response;
  // PDN has no registered media type; it is plain text.
  response.content_type = "text/plain; charset=utf-8";
  response.body = game->pdn();
  response.headers.emplace_back("Content-Disposition", PdnContentDisposition(route.game_id));
  return response;
}

HttpResponse ApiHandlers::GameArchive(const RouteMatch& route) {
  absl::StatusOr<v1::ArchivedGame> game = archive_->Find(route.game_id);
  if (!game.ok()) return ErrorResponse(game.status());
  return Json(ArchivedGameJson(*game));
}

HttpResponse ApiHandlers::Health() {
  absl::Status redis = sessions_->Ping();
  if (!redis.ok()) {
    return ErrorResponse(503, absl::UnavailableError(absl::StrCat("redis: ", redis.message())));
  }
  absl::Status game_state = games_->Ping();
  if (!game_state.ok()) return ErrorResponse(503, game_state);
  // Guests play without the accounts database, so it does not make the
  // gateway unready (that would take guest play down with it); the answer
  // says whether accounts work.
  if (accounts_ == nullptr) return Json("{\"status\":\"ok\",\"accounts\":\"disabled\"}");
  const absl::Status accounts = accounts_->Ping();
  return Json(absl::StrCat("{\"status\":\"ok\",\"accounts\":\"",
                           accounts.ok() ? "ok" : "unavailable", "\"}"));
}

absl::Status ApiHandlers::CheckGameSocket(const RouteMatch& route, const HttpRequest& request,
                                          std::string* after_event_id) {
  DRAUGHTS_RETURN_IF_ERROR(RequireSession(request).status());
  std::optional<std::string> after = QueryParameter(request.query, "after");
  if (after.has_value() && !after->empty() && !platform::ParseEventId(*after).ok()) {
    return absl::InvalidArgumentError("?after= must be an event id such as 1700000000000-0");
  }
  *after_event_id = after.value_or("");
  // Existence only; the socket sends the full snapshot once open.
  return games_->GetView(route.game_id).status();
}

}  // namespace draughts::gateway
