// Which handler a request goes to. Pure: method + path in, route out, so the
// table is tested without a server. Paths under /api/ and /ws/ are ours;
// every other GET is a static file of the web client.
#ifndef DRAUGHTS_GATEWAY_ROUTER_H_
#define DRAUGHTS_GATEWAY_ROUTER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace draughts::gateway {

enum class Route {
  kNotFound,          // 404
  kMethodNotAllowed,  // 405 (the path exists with another method; `allow` says which)
  kHealth,            // GET /healthz
  kVariants,          // GET /api/variants
  kCreateSession,     // POST /api/session
  kGetSession,        // GET /api/session
  kRegister,          // POST /api/accounts
  kLogin,             // POST /api/login
  kLogout,            // POST /api/logout
  kChangePassword,    // POST /api/account/password
  kDeleteAccount,     // DELETE /api/account
  kCreateGame,        // POST /api/games
  kGetGame,           // GET /api/games/{id}
  kGamePdn,           // GET /api/games/{id}/pdn (a finished game's PDN, from the archive)
  kGameArchive,       // GET /api/games/{id}/archive (the archived record as JSON)
  kGameReplay,        // GET /api/games/{id}/replay (a finished game's positions and moves)
  kLeaderboard,       // GET /api/leaderboard?variant=&month=&pageToken=
  kPlayer,            // GET /api/players/{id}
  kPdnReplay,         // POST /api/pdn/replay (a PDN file's games to replay)
  kMalformedGameId,   // 400: /api/games/{id}/pdn|archive|replay with an {id} that is no game id
  kGameSocket,        // GET /ws/games/{id} (WebSocket upgrade)
  kTableSocket,       // GET /ws/tables/{id} (WebSocket upgrade)
  // Lobby (lobby_handlers.h); table_id holds the {id} or {code}.
  kListTables,     // GET /api/tables
  kCreateTable,    // POST /api/tables
  kGetTable,       // GET /api/tables/{id}
  kJoinTable,      // POST /api/tables/{id}/join
  kLeaveTable,     // POST /api/tables/{id}/leave
  kFillSeats,      // POST /api/tables/{id}/bots
  kStartTable,     // POST /api/tables/{id}/start
  kTableInvite,    // GET /api/tables/{id}/invite
  kPairingStatus,  // GET /api/tables/{id}/pairing (a quick-pair wait's outcome)
  kJoinByInvite,   // POST /api/invites/{code}/join
  kQuickPair,      // POST /api/quick-pair
  kPlayComputer,   // POST /api/play-computer
  kInvitePage,     // GET /join/{code}: redirect to the client's /#/join/{code}
  kStaticFile,     // GET anything else
};

struct RouteMatch {
  Route route = Route::kNotFound;
  std::string game_id;    // kGetGame, kGamePdn, kGameArchive, kGameReplay, kGameSocket
  std::string table_id;   // kTableSocket; the lobby's table id or invite code
  std::string player_id;  // kPlayer
  std::string allow;      // kMethodNotAllowed: the Allow header value
};

// `path` is the request target without its query string.
RouteMatch MatchRoute(std::string_view method, std::string_view path);

// The largest request body a route takes: kMaxMessageBytes, but a PDN file
// to replay may hold a whole tournament.
inline constexpr std::size_t kMaxPdnUploadBytes = 512 * 1024;
std::size_t BodyLimit(Route route);

// Metrics label of a route: a fixed set, whatever clients send.
std::string_view RouteLabel(Route route);

// Game ids are URL-safe tokens; anything else is not a game (404) and never
// reaches game_state.
bool LooksLikeGameId(std::string_view id);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ROUTER_H_
