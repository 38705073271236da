// The REST side of the gateway: sessions, variants, creating and reading
// games, health, static files. Each handler is a blocking function from an
// HttpRequest to an HttpResponse (run on the worker pool, never on an I/O
// thread), so it can be called directly in tests.
#ifndef DRAUGHTS_GATEWAY_API_HANDLERS_H_
#define DRAUGHTS_GATEWAY_API_HANDLERS_H_

#include <string>

#include "absl/status/statusor.h"
#include "gateway/account_handlers.h"
#include "gateway/archive_backend.h"
#include "gateway/game_backend.h"
#include "gateway/http_types.h"
#include "gateway/idempotency.h"
#include "gateway/lobby_handlers.h"
#include "gateway/router.h"
#include "gateway/session_store.h"
#include "gateway/static_files.h"

namespace draughts::gateway {

class ApiHandlers {
 public:
  // `accounts` may be null (no --pg): the account routes then answer 503;
  // so do the lobby's without `lobby`.
  ApiHandlers(SessionStore* sessions, IdempotencyStore* idempotency, GameBackend* games,
              ArchiveBackend* archive, const StaticFiles* files,
              AccountHandlers* accounts = nullptr, bool secure_cookie = false,
              LobbyHandlers* lobby = nullptr);

  // Answers every route except kGameSocket (see CheckGameSocket).
  HttpResponse Handle(const RouteMatch& route, const HttpRequest& request);

  // Before a game socket is upgraded: the caller has a known session, the
  // game exists, and ?after= is an event id. The error maps to the HTTP
  // answer that replaces the upgrade.
  absl::Status CheckGameSocket(const RouteMatch& route, const HttpRequest& request,
                               std::string* after_event_id);

  // The session named by the request's cookie; UNAUTHENTICATED if none.
  absl::StatusOr<Session> RequireSession(const HttpRequest& request);

 private:
  HttpResponse CreateSession(const HttpRequest& request);
  HttpResponse GetSession(const HttpRequest& request);
  HttpResponse Accounts(const RouteMatch& route, const HttpRequest& request);
  HttpResponse CreateGame(const HttpRequest& request);
  // The CreateGame call and its answer (run at most once per idempotency key).
  HttpResponse StartGame(const v1::CreateGameRequest& create);
  HttpResponse GetGame(const RouteMatch& route, const HttpRequest& request);
  // Finished games are public records: no session needed, so a PDN link
  // can be shared and fetched by any tool.
  HttpResponse GamePdn(const RouteMatch& route);
  HttpResponse GameArchive(const RouteMatch& route);
  HttpResponse Health();
  // INVALID_ARGUMENT when the request has a malformed Idempotency-Key.
  static absl::Status CheckIdempotencyKey(const HttpRequest& request);

  SessionStore* sessions_;
  IdempotencyStore* idempotency_;
  GameBackend* games_;
  ArchiveBackend* archive_;
  const StaticFiles* files_;
  AccountHandlers* accounts_;
  LobbyHandlers* lobby_;
  const bool secure_cookie_;
  const std::string variants_json_;  // fixed for the life of the process
};

// The value of `name` in a query string ("a=1&after=5-0"), percent-decoded;
// nullopt if absent.
std::optional<std::string> QueryParameter(std::string_view query, std::string_view name);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_API_HANDLERS_H_
