#include "gateway/router.h"

#include "absl/strings/ascii.h"
#include "gateway/http_types.h"

namespace draughts::gateway {
namespace {

RouteMatch Only(std::string_view method, std::string_view wanted, Route route) {
  RouteMatch match;
  if (method == wanted) {
    match.route = route;
  } else {
    match.route = Route::kMethodNotAllowed;
    match.allow = std::string(wanted);
  }
  return match;
}

// The {id} of "<prefix>{id}", or "" when the path has another shape.
std::string_view IdAfter(std::string_view path, std::string_view prefix) {
  if (!path.starts_with(prefix)) return {};
  return path.substr(prefix.size());
}

// "{id}/pdn" and "{id}/archive" (what follows "/api/games/"). These are
// links people share and type, so a mangled id says so (400) instead of
// looking like a game that does not exist.
RouteMatch MatchArchivedGame(std::string_view method, std::string_view rest) {
  const std::size_t slash = rest.rfind('/');
  if (slash == std::string_view::npos) return {};
  const std::string_view what = rest.substr(slash + 1);
  Route route = Route::kNotFound;
  if (what == "pdn") route = Route::kGamePdn;
  if (what == "archive") route = Route::kGameArchive;
  if (what == "replay") route = Route::kGameReplay;
  if (route == Route::kNotFound) return {};
  const std::string_view id = rest.substr(0, slash);
  if (!LooksLikeGameId(id)) {
    RouteMatch malformed;
    malformed.route = Route::kMalformedGameId;
    return malformed;
  }
  RouteMatch match = Only(method, "GET", route);
  match.game_id = std::string(id);
  return match;
}

// "/api/tables/{id}[/action]" (what follows "/api/tables/").
RouteMatch MatchTable(std::string_view method, std::string_view rest) {
  const std::size_t slash = rest.find('/');
  const std::string_view id = rest.substr(0, slash);
  if (!LooksLikeGameId(id)) return {};
  RouteMatch match;
  if (slash == std::string_view::npos) {
    match = Only(method, "GET", Route::kGetTable);
  } else {
    const std::string_view action = rest.substr(slash + 1);
    if (action == "join") {
      match = Only(method, "POST", Route::kJoinTable);
    } else if (action == "leave") {
      match = Only(method, "POST", Route::kLeaveTable);
    } else if (action == "bots") {
      match = Only(method, "POST", Route::kFillSeats);
    } else if (action == "start") {
      match = Only(method, "POST", Route::kStartTable);
    } else if (action == "invite") {
      match = Only(method, "GET", Route::kTableInvite);
    } else if (action == "pairing") {
      match = Only(method, "GET", Route::kPairingStatus);
    } else {
      return {};
    }
  }
  match.table_id = std::string(id);
  return match;
}

}  // namespace

bool LooksLikeGameId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

RouteMatch MatchRoute(std::string_view method, std::string_view path) {
  if (path == "/healthz") return Only(method, "GET", Route::kHealth);
  if (path == "/api/variants") return Only(method, "GET", Route::kVariants);
  if (path == "/api/session") {
    if (method == "GET") return {Route::kGetSession, "", "", "", ""};
    RouteMatch match = Only(method, "POST", Route::kCreateSession);
    if (match.route == Route::kMethodNotAllowed) match.allow = "GET, POST";
    return match;
  }
  if (path == "/api/accounts") return Only(method, "POST", Route::kRegister);
  if (path == "/api/login") return Only(method, "POST", Route::kLogin);
  if (path == "/api/logout") return Only(method, "POST", Route::kLogout);
  if (path == "/api/account/password") return Only(method, "POST", Route::kChangePassword);
  if (path == "/api/account") return Only(method, "DELETE", Route::kDeleteAccount);
  if (path == "/api/games") return Only(method, "POST", Route::kCreateGame);
  if (path == "/api/leaderboard") return Only(method, "GET", Route::kLeaderboard);
  if (path == "/api/pdn/replay") return Only(method, "POST", Route::kPdnReplay);
  if (std::string_view id = IdAfter(path, "/api/players/"); !id.empty()) {
    if (!LooksLikeGameId(id)) return {};
    RouteMatch match = Only(method, "GET", Route::kPlayer);
    match.player_id = std::string(id);
    return match;
  }
  if (std::string_view id = IdAfter(path, "/api/games/"); !id.empty()) {
    if (RouteMatch archived = MatchArchivedGame(method, id); archived.route != Route::kNotFound) {
      return archived;
    }
    if (!LooksLikeGameId(id)) return {};
    RouteMatch match = Only(method, "GET", Route::kGetGame);
    match.game_id = std::string(id);
    return match;
  }
  if (path == "/api/tables") {
    if (method == "GET") return {Route::kListTables, "", "", "", ""};
    RouteMatch match = Only(method, "POST", Route::kCreateTable);
    if (match.route == Route::kMethodNotAllowed) match.allow = "GET, POST";
    return match;
  }
  if (std::string_view rest = IdAfter(path, "/api/tables/"); !rest.empty()) {
    return MatchTable(method, rest);
  }
  if (std::string_view rest = IdAfter(path, "/api/invites/"); rest.ends_with("/join")) {
    const std::string_view code = rest.substr(0, rest.size() - 5);
    if (!LooksLikeGameId(code)) return {};
    RouteMatch match = Only(method, "POST", Route::kJoinByInvite);
    match.table_id = std::string(code);
    return match;
  }
  if (path == "/api/quick-pair") return Only(method, "POST", Route::kQuickPair);
  if (path == "/api/play-computer") return Only(method, "POST", Route::kPlayComputer);
  if (std::string_view code = IdAfter(path, "/join/"); !code.empty()) {
    if (!LooksLikeGameId(code)) return {};
    RouteMatch match = Only(method, "GET", Route::kInvitePage);
    match.table_id = std::string(code);
    return match;
  }
  if (std::string_view id = IdAfter(path, "/ws/games/"); !id.empty()) {
    if (!LooksLikeGameId(id)) return {};
    RouteMatch match = Only(method, "GET", Route::kGameSocket);
    match.game_id = std::string(id);
    return match;
  }
  if (std::string_view id = IdAfter(path, "/ws/tables/"); !id.empty()) {
    if (!LooksLikeGameId(id)) return {};
    RouteMatch match = Only(method, "GET", Route::kTableSocket);
    match.table_id = std::string(id);
    return match;
  }
  // Unknown API paths are 404 rather than a file lookup.
  if (path == "/api" || path == "/ws" || path.starts_with("/api/") || path.starts_with("/ws/")) {
    return {};
  }
  if (path.empty() || path[0] != '/') return {};
  return Only(method, "GET", Route::kStaticFile);
}

std::size_t BodyLimit(Route route) {
  return route == Route::kPdnReplay ? kMaxPdnUploadBytes : kMaxMessageBytes;
}

std::string_view RouteLabel(Route route) {
  switch (route) {
    case Route::kNotFound:
      return "not_found";
    case Route::kMethodNotAllowed:
      return "method_not_allowed";
    case Route::kHealth:
      return "healthz";
    case Route::kVariants:
      return "variants";
    case Route::kCreateSession:
      return "create_session";
    case Route::kGetSession:
      return "get_session";
    case Route::kRegister:
      return "register";
    case Route::kLogin:
      return "login";
    case Route::kLogout:
      return "logout";
    case Route::kChangePassword:
      return "change_password";
    case Route::kDeleteAccount:
      return "delete_account";
    case Route::kCreateGame:
      return "create_game";
    case Route::kGetGame:
      return "get_game";
    case Route::kGamePdn:
      return "game_pdn";
    case Route::kGameArchive:
      return "game_archive";
    case Route::kGameReplay:
      return "game_replay";
    case Route::kLeaderboard:
      return "leaderboard";
    case Route::kPlayer:
      return "player";
    case Route::kPdnReplay:
      return "pdn_replay";
    case Route::kMalformedGameId:
      return "malformed_game_id";
    case Route::kGameSocket:
      return "game_socket";
    case Route::kTableSocket:
      return "table_socket";
    case Route::kListTables:
      return "list_tables";
    case Route::kCreateTable:
      return "create_table";
    case Route::kGetTable:
      return "get_table";
    case Route::kJoinTable:
      return "join_table";
    case Route::kLeaveTable:
      return "leave_table";
    case Route::kFillSeats:
      return "fill_seats";
    case Route::kStartTable:
      return "start_table";
    case Route::kTableInvite:
      return "table_invite";
    case Route::kJoinByInvite:
      return "join_by_invite";
    case Route::kPairingStatus:
      return "pairing_status";
    case Route::kQuickPair:
      return "quick_pair";
    case Route::kPlayComputer:
      return "play_computer";
    case Route::kInvitePage:
      return "invite_page";
    case Route::kStaticFile:
      return "static";
  }
  return "unknown";
}

}  // namespace draughts::gateway
