// The lobby's REST routes (docs/WEB_PROTOCOL.md, "Lobby"): list, create,
// view, join (by id + password or by invite code), leave tables, fill seats
// with bots, start a table's game, quick pairing and "play the computer" in
// one step, all through MatchmakingService on behalf of the session's
// player (its public id and name, never the session secret). Bodies are
// the web_lobby.proto messages in protobuf's JSON mapping, parsed strictly.
// Blocking (run on the worker pool); thread-safe.
#ifndef DRAUGHTS_GATEWAY_LOBBY_HANDLERS_H_
#define DRAUGHTS_GATEWAY_LOBBY_HANDLERS_H_

#include <string>

#include "draughts/v1/matchmaking.pb.h"
#include "draughts/v1/rating.grpc.pb.h"
#include "draughts/v1/web_lobby.pb.h"
#include "gateway/action_rate_limiter.h"
#include "gateway/http_types.h"
#include "gateway/idempotency.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/router.h"
#include "gateway/session_store.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using RatingReader = platform::GrpcClient<v1::RatingService>;

class LobbyHandlers {
 public:
  // `ratings` may be null: quick pairing then treats every player as 1500
  // and refuses rated requests (UNAVAILABLE).
  LobbyHandlers(IdempotencyStore* idempotency, MatchmakingBackend* matchmaking,
                RatingReader* ratings, ActionRateLimits limits = {});

  // Whether `route` is one of the lobby's (kInvitePage aside, which needs no
  // session: see InvitePage).
  static bool IsLobbyRoute(Route route);

  // Answers a lobby route for the session's player.
  HttpResponse Handle(const RouteMatch& route, const HttpRequest& request, const Session& session);

  // GET /join/{code}: sends the browser to the client's #/join/{code}
  // (the page's relative paths would not resolve under /join/).
  static HttpResponse InvitePage(const RouteMatch& route);

 private:
  HttpResponse ListTables(const HttpRequest& request);
  HttpResponse GetTable(const RouteMatch& route, const v1::Seat& requester);
  HttpResponse TableInvite(const RouteMatch& route, const v1::Seat& requester);
  // A quick-pair waiting table's outcome: the table the requester now plays
  // at (their own, or the one they were seated at, which GetTable of the
  // closed waiting table cannot tell), or still waiting.
  HttpResponse PairingStatus(const RouteMatch& route, const v1::Seat& requester);
  // POST routes: body parsed, request built, then RespondOnce per key.
  HttpResponse Act(const RouteMatch& route, const HttpRequest& request, const Session& session);

  absl::StatusOr<int> RatingFor(const Session& session, const std::string& variant);

  IdempotencyStore* idempotency_;
  MatchmakingBackend* matchmaking_;
  RatingReader* ratings_;
  ActionRateLimiter limiter_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_LOBBY_HANDLERS_H_
