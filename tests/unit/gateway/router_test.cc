#include "gateway/router.h"

#include <gtest/gtest.h>

namespace draughts::gateway {
namespace {

TEST(RouterTest, ApiRoutesWithTheirMethods) {
  EXPECT_EQ(MatchRoute("GET", "/healthz").route, Route::kHealth);
  EXPECT_EQ(MatchRoute("GET", "/api/variants").route, Route::kVariants);
  EXPECT_EQ(MatchRoute("POST", "/api/session").route, Route::kCreateSession);
  EXPECT_EQ(MatchRoute("POST", "/api/games").route, Route::kCreateGame);
}

TEST(RouterTest, GameIdsAreCaptured) {
  RouteMatch get = MatchRoute("GET", "/api/games/g-12_ab");
  EXPECT_EQ(get.route, Route::kGetGame);
  EXPECT_EQ(get.game_id, "g-12_ab");
  RouteMatch socket = MatchRoute("GET", "/ws/games/xyz");
  EXPECT_EQ(socket.route, Route::kGameSocket);
  RouteMatch table_socket = MatchRoute("GET", "/ws/tables/T1-x_y");
  EXPECT_EQ(table_socket.route, Route::kTableSocket);
  EXPECT_EQ(table_socket.table_id, "T1-x_y");
  EXPECT_EQ(MatchRoute("GET", "/ws/tables/a.b").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("POST", "/ws/tables/t1").route, Route::kMethodNotAllowed);
  EXPECT_EQ(socket.game_id, "xyz");
}

TEST(RouterTest, WrongMethodIs405WithAllow) {
  RouteMatch match = MatchRoute("PUT", "/api/session");
  EXPECT_EQ(match.route, Route::kMethodNotAllowed);
  EXPECT_EQ(match.allow, "GET, POST");
  EXPECT_EQ(MatchRoute("GET", "/api/login").allow, "POST");
  EXPECT_EQ(MatchRoute("POST", "/api/account").allow, "DELETE");
  EXPECT_EQ(MatchRoute("DELETE", "/api/games/abc").allow, "GET");
  EXPECT_EQ(MatchRoute("POST", "/api/variants").route, Route::kMethodNotAllowed);
  EXPECT_EQ(MatchRoute("POST", "/index.html").route, Route::kMethodNotAllowed);
}

TEST(RouterTest, SessionAndAccountRoutes) {
  EXPECT_EQ(MatchRoute("GET", "/api/session").route, Route::kGetSession);
  EXPECT_EQ(MatchRoute("POST", "/api/accounts").route, Route::kRegister);
  EXPECT_EQ(MatchRoute("POST", "/api/login").route, Route::kLogin);
  EXPECT_EQ(MatchRoute("POST", "/api/logout").route, Route::kLogout);
  EXPECT_EQ(MatchRoute("POST", "/api/account/password").route, Route::kChangePassword);
  EXPECT_EQ(MatchRoute("DELETE", "/api/account").route, Route::kDeleteAccount);
  EXPECT_EQ(RouteLabel(Route::kLogin), "login");
}

TEST(RouterTest, UnknownApiPathsAre404NotFiles) {
  EXPECT_EQ(MatchRoute("GET", "/api/nothing").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/api").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/ws/other/1").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/api/games/").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/api/games/a/b").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/ws/games/../../x").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "relative").route, Route::kNotFound);
}

TEST(RouterTest, EverythingElseIsAStaticFile) {
  EXPECT_EQ(MatchRoute("GET", "/").route, Route::kStaticFile);
  EXPECT_EQ(MatchRoute("GET", "/js/app.js").route, Route::kStaticFile);
}

TEST(RouterTest, GameIdShape) {
  EXPECT_TRUE(LooksLikeGameId("AbC-09_z"));
  EXPECT_FALSE(LooksLikeGameId(""));
  EXPECT_FALSE(LooksLikeGameId("a b"));
  EXPECT_FALSE(LooksLikeGameId("a%2F"));
  EXPECT_FALSE(LooksLikeGameId(std::string(65, 'a')));
}

TEST(RouterTest, LabelsAreFixed) {
  EXPECT_EQ(RouteLabel(Route::kCreateGame), "create_game");
  EXPECT_EQ(RouteLabel(Route::kStaticFile), "static");
  EXPECT_EQ(RouteLabel(MatchRoute("GET", "/api/whatever/you/like").route), "not_found");
}

TEST(RouterTest, ArchivedGameRoutes) {
  RouteMatch pdn = MatchRoute("GET", "/api/games/g-12_ab/pdn");
  EXPECT_EQ(pdn.route, Route::kGamePdn);
  EXPECT_EQ(pdn.game_id, "g-12_ab");
  RouteMatch archive = MatchRoute("GET", "/api/games/xyz/archive");
  EXPECT_EQ(archive.route, Route::kGameArchive);
  EXPECT_EQ(archive.game_id, "xyz");
  EXPECT_EQ(MatchRoute("POST", "/api/games/xyz/pdn").route, Route::kMethodNotAllowed);
  EXPECT_EQ(MatchRoute("POST", "/api/games/xyz/pdn").allow, "GET");
  // Other suffixes are no route at all.
  EXPECT_EQ(MatchRoute("GET", "/api/games/xyz/moves").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/api/games/xyz/pdn/").route, Route::kNotFound);
}

TEST(RouterTest, MalformedIdsOfArchivedGameRoutesAreTheirOwnRoute) {
  for (const char* path : {"/api/games//pdn", "/api/games/a.b/pdn", "/api/games/a%2Fb/archive",
                           "/api/games/a/b/pdn", "/api/games/../pdn"}) {
    RouteMatch match = MatchRoute("GET", path);
    EXPECT_EQ(match.route, Route::kMalformedGameId) << path;
    EXPECT_TRUE(match.game_id.empty()) << path;
  }
  const std::string long_id(65, 'a');
  EXPECT_EQ(MatchRoute("GET", "/api/games/" + long_id + "/pdn").route, Route::kMalformedGameId);
  EXPECT_EQ(MatchRoute("GET", "/api/games/" + long_id.substr(1) + "/pdn").route, Route::kGamePdn);
  EXPECT_EQ(RouteLabel(Route::kMalformedGameId), "malformed_game_id");
}

TEST(RouterTest, LobbyRoutes) {
  EXPECT_EQ(MatchRoute("GET", "/api/tables").route, Route::kListTables);
  EXPECT_EQ(MatchRoute("POST", "/api/tables").route, Route::kCreateTable);
  EXPECT_EQ(MatchRoute("PUT", "/api/tables").allow, "GET, POST");
  RouteMatch get = MatchRoute("GET", "/api/tables/t_ab-1");
  EXPECT_EQ(get.route, Route::kGetTable);
  EXPECT_EQ(get.table_id, "t_ab-1");
  EXPECT_EQ(MatchRoute("POST", "/api/tables/t1/join").route, Route::kJoinTable);
  EXPECT_EQ(MatchRoute("POST", "/api/tables/t1/leave").route, Route::kLeaveTable);
  EXPECT_EQ(MatchRoute("POST", "/api/tables/t1/bots").route, Route::kFillSeats);
  EXPECT_EQ(MatchRoute("POST", "/api/tables/t1/start").route, Route::kStartTable);
  EXPECT_EQ(MatchRoute("GET", "/api/tables/t1/invite").route, Route::kTableInvite);
  EXPECT_EQ(MatchRoute("GET", "/api/tables/t1/pairing").route, Route::kPairingStatus);
  EXPECT_EQ(MatchRoute("GET", "/api/tables/t1/join").allow, "POST");
  RouteMatch invite = MatchRoute("POST", "/api/invites/K3J5Q2WX7M/join");
  EXPECT_EQ(invite.route, Route::kJoinByInvite);
  EXPECT_EQ(invite.table_id, "K3J5Q2WX7M");
  EXPECT_EQ(MatchRoute("POST", "/api/quick-pair").route, Route::kQuickPair);
  EXPECT_EQ(MatchRoute("POST", "/api/play-computer").route, Route::kPlayComputer);
  RouteMatch page = MatchRoute("GET", "/join/K3J5Q2WX7M");
  EXPECT_EQ(page.route, Route::kInvitePage);
  EXPECT_EQ(page.table_id, "K3J5Q2WX7M");
  // Malformed ids and unknown actions never reach matchmaking.
  EXPECT_EQ(MatchRoute("GET", "/api/tables/a$b").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("POST", "/api/tables/t1/explode").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("POST", "/api/invites/a%20b/join").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/join/../etc").route, Route::kNotFound);
  EXPECT_EQ(RouteLabel(Route::kPlayComputer), "play_computer");
}

}  // namespace
}  // namespace draughts::gateway
