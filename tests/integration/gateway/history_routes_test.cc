// The ratings and history routes end to end, on real servers: the gateway
// and GameService (in-process, over the test Redis), accounts in the test
// PostgreSQL, and the rating binary as a child process, rating and
// archiving from the games' results stream into a schema of its own
// (DRAUGHTS_TEST_PG). Rated games are made as matchmaking makes them: a
// GameService.CreateGame with two PERSON seats, then moves and a
// resignation.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/proto_json.h"
#include "gateway/session_store.h"
#include "gateway_env.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"
#include "rules/fen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

std::string UniqueName(const std::string& stem) {
  std::string random = NewSessionId().substr(0, 10);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  return absl::StrCat(stem, random).substr(0, 20);
}

struct Account {
  std::string cookie;
  std::string player_id;
  std::string name;
};

const Value* List(const Struct& object, const std::string& path) {
  const Value* value = Field(object, path);
  return value != nullptr && value->has_list_value() ? value : nullptr;
}

int ListSize(const Struct& object, const std::string& path) {
  const Value* value = List(object, path);
  return value == nullptr ? 0 : value->list_value().values_size();
}

const Struct& Item(const Struct& object, const std::string& path, int index) {
  return List(object, path)->list_value().values(index).struct_value();
}

class HistoryRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> pg = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG");
    ASSERT_TRUE(pg.ok()) << pg.status().message();
    absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(redis.ok()) << redis.status().message();
    admin_conninfo_ = *pg;
    std::random_device random;
    schema_ = absl::StrCat("gw_history_", getpid(), "_", random() % 1000000);
    ASSERT_TRUE(Admin(absl::StrCat("CREATE SCHEMA ", schema_)));

    absl::StatusOr<int> rating_port = platform::testing::PickFreePort();
    ASSERT_TRUE(rating_port.ok()) << rating_port.status();
    const std::string rating_address = absl::StrCat("127.0.0.1:", *rating_port);
    env_.set_rating_address(rating_address);
    env_.EnableAccounts({100, 1000, absl::Minutes(10)});
    const absl::Status started = env_.Start();
    ASSERT_TRUE(started.ok()) << started;
    absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> rating =
        platform::testing::ServerProcess::Start(
            RATING_BINARY,
            {
                "--listen=" + rating_address,
                "--metrics-port=-1",
                "--drain=0s",
                "--redis=" + *redis,
                absl::StrCat("--pg=", admin_conninfo_, " options='-c search_path=", schema_, "'"),
                "--results-stream=" + env_.results_stream(),
                "--consumer-name=gateway-history-test",
            });
    ASSERT_TRUE(rating.ok()) << rating.status();
    rating_ = *std::move(rating);
    games_ = v1::GameService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", env_.game_state_port()), grpc::InsecureChannelCredentials()));
  }

  void TearDown() override {
    if (rating_ != nullptr) {
      absl::StatusOr<int> code = rating_->Terminate();
      EXPECT_TRUE(code.ok() && *code == 0) << "rating did not stop cleanly";
    }
    if (!schema_.empty()) Admin(absl::StrCat("DROP SCHEMA IF EXISTS ", schema_, " CASCADE"));
  }

  bool Admin(const std::string& sql) {
    try {
      pqxx::connection connection(admin_conninfo_);
      pqxx::nontransaction tx(connection);
      tx.exec(sql);
      return true;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "admin SQL failed: " << sql << ": " << e.what();
      return false;
    }
  }

  HttpReply Call(const std::string& method, const std::string& target, const std::string& body = "",
                 const std::string& cookie = "") {
    absl::StatusOr<HttpReply> reply = HttpCall(env_.port(), method, target, body, cookie);
    EXPECT_TRUE(reply.ok()) << reply.status();
    return reply.ok() ? *reply : HttpReply{};
  }

  Struct GetJson(const std::string& target, const std::string& cookie = "") {
    HttpReply reply = Call("GET", target, "", cookie);
    EXPECT_EQ(reply.status, 200) << target << ": " << reply.body;
    absl::StatusOr<Struct> body = ParseJsonObject(reply.body);
    return body.ok() ? *body : Struct();
  }

  Account Register(const std::string& stem) {
    Account account;
    account.name = UniqueName(stem);
    HttpReply reply =
        Call("POST", "/api/accounts",
             absl::StrCat(R"({"name":")", account.name, R"(","password":"a long password"})"));
    EXPECT_EQ(reply.status, 200) << reply.body;
    account.cookie = reply.set_cookie.substr(0, reply.set_cookie.find(';'));
    account.player_id = StringAt(ParseJsonObject(reply.body).value(), "playerId");
    return account;
  }

  // A game between two seats, `plies` moves (the first legal move each
  // time), then the side to move resigns. Returns the game id and the moves.
  std::string PlayAndResign(const v1::Seat& white, const v1::Seat& black, bool rated, int plies,
                            std::vector<std::string>* played) {
    v1::CreateGameRequest create;
    create.set_idempotency_key(absl::StrCat("history-test-", NewSessionId()));
    create.set_variant("international");
    *create.mutable_white() = white;
    *create.mutable_black() = black;
    create.set_rated(rated);
    v1::CreateGameResponse created;
    {
      grpc::ClientContext context;
      const grpc::Status status = games_->CreateGame(&context, create, &created);
      EXPECT_TRUE(status.ok()) << status.error_message();
    }
    for (int ply = 0; ply < plies; ++ply) {
      v1::ListLegalMovesRequest list;
      list.set_game_id(created.game_id());
      v1::ListLegalMovesResponse moves;
      grpc::ClientContext list_context;
      EXPECT_TRUE(games_->ListLegalMoves(&list_context, list, &moves).ok());
      if (moves.moves_size() == 0) break;
      v1::SubmitMoveRequest move;
      move.set_game_id(created.game_id());
      move.set_player_token(ply % 2 == 0 ? created.white_player_token()
                                         : created.black_player_token());
      move.set_move(moves.moves(0).notation());
      move.set_expected_ply(ply);
      v1::SubmitMoveResponse moved;
      grpc::ClientContext move_context;
      const grpc::Status status = games_->SubmitMove(&move_context, move, &moved);
      EXPECT_TRUE(status.ok()) << status.error_message();
      played->push_back(moves.moves(0).notation());
    }
    v1::ResignRequest resign;
    resign.set_game_id(created.game_id());
    resign.set_player_token(plies % 2 == 0 ? created.white_player_token()
                                           : created.black_player_token());
    resign.set_expected_ply(plies);
    v1::ResignResponse resigned;
    grpc::ClientContext context;
    const grpc::Status status = games_->Resign(&context, resign, &resigned);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return created.game_id();
  }

  // The game's replay once the rating service has archived it.
  Struct WaitForReplay(const std::string& game_id) {
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    HttpReply reply;
    do {
      reply = Call("GET", absl::StrCat("/api/games/", game_id, "/replay"));
      if (reply.status != 404) break;
      absl::SleepFor(absl::Milliseconds(100));
    } while (absl::Now() < deadline);
    EXPECT_EQ(reply.status, 200) << reply.body;
    absl::StatusOr<Struct> body = ParseJsonObject(reply.body);
    return body.ok() ? *body : Struct();
  }

  GatewayEnv env_;
  std::string admin_conninfo_;
  std::string schema_;
  std::unique_ptr<platform::testing::ServerProcess> rating_;
  std::unique_ptr<v1::GameService::Stub> games_;
};

v1::Seat PersonSeat(const Account& account) {
  v1::Seat seat;
  seat.set_kind(v1::SEAT_KIND_PERSON);
  seat.set_player_id(account.player_id);
  seat.set_display_name(account.name);
  return seat;
}

TEST_F(HistoryRoutesTest, RatedGameShowsOnLeaderboardPlayerPageAndReplay) {
  const Account winner = Register("Win");
  const Account loser = Register("Lose");
  ASSERT_FALSE(winner.player_id.empty());
  ASSERT_FALSE(loser.player_id.empty());
  std::vector<std::string> played;
  // White (the winner) plays, Black resigns at ply 5.
  const std::string game_id =
      PlayAndResign(PersonSeat(winner), PersonSeat(loser), /*rated=*/true, 5, &played);
  ASSERT_EQ(played.size(), 5u);

  const Struct replay = WaitForReplay(game_id);
  EXPECT_EQ(StringAt(replay, "gameId"), game_id);
  EXPECT_EQ(StringAt(replay, "result"), "GAME_RESULT_WHITE_WINS");
  EXPECT_EQ(StringAt(replay, "reason"), "RESULT_REASON_RESIGNATION");
  EXPECT_EQ(StringAt(replay, "white.displayName"), winner.name);
  EXPECT_EQ(StringAt(replay, "pdnUrl"), absl::StrCat("/api/games/", game_id, "/pdn"));
  ASSERT_EQ(ListSize(replay, "replay.plies"), 5);
  // International notation: the moves as played, their paths in standard
  // numbers, and positions that chain to the archived final position.
  for (int i = 0; i < 5; ++i) {
    const Struct& ply = Item(replay, "replay.plies", i);
    EXPECT_EQ(StringAt(ply, "notation"), played[i]) << i;
    EXPECT_GE(ListSize(ply, "path"), 2) << i;
    EXPECT_FALSE(StringAt(ply, "fen").empty());
  }
  const Struct archive = GetJson(absl::StrCat("/api/games/", game_id, "/archive"));
  const rules::Variant international = *rules::FindVariant("international");
  EXPECT_EQ(
      rules::FormatFen(
          *rules::ParseFen(international, StringAt(Item(replay, "replay.plies", 4), "fen"))),
      rules::FormatFen(*rules::ParseFen(international, StringAt(archive, "record.finalFen"))));

  // Each player's change: the winner up, the loser down by as much.
  ASSERT_EQ(ListSize(replay, "changes"), 2) << "no rating change in the replay";
  const Struct& white_change = Item(replay, "changes", 0);
  const Struct& black_change = Item(replay, "changes", 1);
  EXPECT_EQ(StringAt(white_change, "playerId"), winner.player_id);
  EXPECT_EQ(NumberAt(white_change, "eloBefore"), 1500);
  const double gain = NumberAt(white_change, "eloAfter") - NumberAt(white_change, "eloBefore");
  const double loss = NumberAt(black_change, "eloAfter") - NumberAt(black_change, "eloBefore");
  EXPECT_GT(gain, 0);
  EXPECT_EQ(gain, -loss);

  // The leaderboard: the winner first, the loser's own line highlighted.
  const Struct board = GetJson("/api/leaderboard?variant=international", loser.cookie);
  ASSERT_EQ(ListSize(board, "entries"), 2) << "leaderboard";
  EXPECT_EQ(StringAt(Item(board, "entries", 0), "rating.playerId"), winner.player_id);
  EXPECT_EQ(NumberAt(Item(board, "entries", 0), "rating.elo"), NumberAt(white_change, "eloAfter"));
  EXPECT_EQ(StringAt(board, "ownPlayerId"), loser.player_id);
  EXPECT_TRUE(Field(board, "ownIsAccount")->bool_value());
  EXPECT_EQ(NumberAt(board, "own.rank"), 2);
  EXPECT_EQ(NumberAt(board, "own.rating.elo"), NumberAt(black_change, "eloAfter"));
  EXPECT_FALSE(Field(board, "final")->bool_value());
  EXPECT_EQ(StringAt(board, "month"), StringAt(board, "currentMonth"));
  // Without a session: the same table, no own line.
  const Struct anonymous = GetJson("/api/leaderboard?variant=international");
  EXPECT_EQ(ListSize(anonymous, "entries"), 2);
  EXPECT_EQ(Field(anonymous, "own"), nullptr);
  // Last month's final table: this game is not in it.
  const Struct last_month = GetJson(absl::StrCat("/api/leaderboard?variant=international&month=",
                                                 StringAt(board, "previousMonth")));
  EXPECT_EQ(ListSize(last_month, "entries"), 0);
  EXPECT_TRUE(Field(last_month, "final")->bool_value());
  // Another rule set is another table.
  EXPECT_EQ(ListSize(GetJson("/api/leaderboard?variant=russian"), "entries"), 0);

  // The winner's page: the rating, the chart's point, the game.
  const Struct player = GetJson(absl::StrCat("/api/players/", winner.player_id));
  EXPECT_EQ(StringAt(player, "displayName"), winner.name);
  ASSERT_EQ(ListSize(player, "ratings"), 1);
  EXPECT_EQ(StringAt(Item(player, "ratings", 0), "variant"), "international");
  EXPECT_EQ(NumberAt(Item(player, "ratings", 0), "rating.elo"), NumberAt(white_change, "eloAfter"));
  EXPECT_EQ(NumberAt(Item(player, "ratings", 0), "rank"), 1);
  ASSERT_EQ(ListSize(player, "history"), 1);
  EXPECT_EQ(StringAt(Item(player, "history", 0), "gameId"), game_id);
  EXPECT_EQ(NumberAt(Item(player, "history", 0), "eloAfter"), NumberAt(white_change, "eloAfter"));
  ASSERT_EQ(ListSize(player, "recentGames"), 1);
  EXPECT_EQ(StringAt(Item(player, "recentGames", 0), "outcome"), "OUTCOME_WIN");

  // A game against a guest: archived and replayable, no Elo change.
  v1::Seat guest;
  guest.set_kind(v1::SEAT_KIND_GUEST);
  guest.set_player_id("g_historytestguest0000000");
  guest.set_display_name("Guest-1234");
  std::vector<std::string> guest_moves;
  const std::string guest_game =
      PlayAndResign(guest, PersonSeat(winner), /*rated=*/false, 2, &guest_moves);
  const Struct guest_replay = WaitForReplay(guest_game);
  EXPECT_EQ(ListSize(guest_replay, "changes"), 0);
  EXPECT_EQ(ListSize(guest_replay, "replay.plies"), 2);
  // Wait until the winner's history shows it, then check nothing moved.
  Struct after;
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  do {
    after = GetJson(absl::StrCat("/api/players/", winner.player_id));
    if (ListSize(after, "recentGames") == 2) break;
    absl::SleepFor(absl::Milliseconds(100));
  } while (absl::Now() < deadline);
  ASSERT_EQ(ListSize(after, "recentGames"), 2);
  EXPECT_EQ(StringAt(Item(after, "recentGames", 0), "gameId"), guest_game);
  EXPECT_FALSE(Field(Item(after, "recentGames", 0), "eloChanged")->bool_value());
  EXPECT_EQ(NumberAt(Item(after, "ratings", 0), "rating.elo"), NumberAt(white_change, "eloAfter"));
  EXPECT_EQ(ListSize(after, "history"), 1);
}

TEST_F(HistoryRoutesTest, BadQueriesAreRefused) {
  EXPECT_EQ(Call("GET", "/api/leaderboard").status, 400);
  EXPECT_EQ(Call("GET", "/api/leaderboard?variant=chess").status, 400);
  EXPECT_EQ(Call("GET", "/api/leaderboard?variant=international&month=2026-13x").status, 400);
  EXPECT_EQ(Call("GET", "/api/leaderboard?variant=international&pageToken=%%%").status, 400);
  EXPECT_EQ(Call("GET", "/api/players/a.b").status, 404);
  EXPECT_EQ(Call("GET", "/api/games/bad.id/replay").status, 400);
  EXPECT_EQ(Call("GET", "/api/games/g-never-played/replay").status, 404);
  EXPECT_EQ(Call("POST", "/api/leaderboard").status, 405);
  EXPECT_EQ(Call("GET", "/api/pdn/replay").status, 405);
  EXPECT_EQ(Call("POST", "/api/pdn/replay", "").status, 400);
  // A player with no game has an empty page, not an error.
  const Struct nobody = GetJson("/api/players/p_nobody");
  EXPECT_EQ(ListSize(nobody, "ratings"), 0);
  EXPECT_EQ(ListSize(nobody, "recentGames"), 0);
}

TEST_F(HistoryRoutesTest, UploadedPdnGamesReplayAndBadOnesAreReported) {
  // Game 1: Russian in algebraic notation; game 2: an illegal move; game 3:
  // no moves readable; game 4: international numbers. A comment pads the
  // file past the 16 KiB other routes allow.
  const std::string padding(20 * 1024, 'x');
  const std::string pdn = absl::StrCat(
      "[Event \"Russian test\"]\n[White \"Ivanov\"]\n[Black \"Petrov\"]\n[GameType \"25\"]\n"
      "[Result \"2-0\"]\n\n{",
      padding,
      "}\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 2-0\n\n"
      "[Event \"Broken\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. 32-27 50-45 2-0\n\n"
      "[Event \"Garbage\"]\n[White \"C\"]\n\n1. @@@ ### 0-2\n\n"
      "[Event \"International\"]\n[White \"D\"]\n[Black \"E\"]\n\n1. 32-28 19-23 2. 28x19 14x23 "
      "*\n");
  HttpReply reply = Call("POST", "/api/pdn/replay", pdn);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const Struct result = ParseJsonObject(reply.body).value();
  ASSERT_GE(ListSize(result, "games"), 3) << reply.body;

  const Struct& russian = Item(result, "games", 0);
  EXPECT_EQ(NumberAt(russian, "number"), 1);
  EXPECT_EQ(StringAt(russian, "white"), "Ivanov");
  EXPECT_EQ(StringAt(russian, "replay.variant"), "russian");
  ASSERT_EQ(ListSize(russian, "replay.plies"), 4);
  EXPECT_EQ(StringAt(Item(russian, "replay.plies", 0), "notation"), "c3-d4");
  EXPECT_EQ(StringAt(Item(russian, "replay.plies", 2), "notation"), "d4:f6");
  // c3-d4 is standard square 22 to 18; d4:f6 takes e5 (15).
  EXPECT_EQ(
      Item(russian, "replay.plies", 0).fields().at("path").list_value().values(0).number_value(),
      22);
  EXPECT_EQ(Item(russian, "replay.plies", 2)
                .fields()
                .at("captured")
                .list_value()
                .values(0)
                .number_value(),
            15);
  // The last position is the one the rules library reaches on the same file.
  const rules::PdnReadReport read = rules::ReadPdnGames(pdn);
  rules::Result<rules::PdnReplay> expected =
      rules::ReplayPdn(read.games.front(), *rules::FindVariant("international"));
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(StringAt(Item(russian, "replay.plies", 3), "fen"),
            rules::FormatFen(expected->record.position()));

  // The illegal game is reported with why; the good ones around it replay.
  bool broken_reported = false;
  bool international_replayed = false;
  for (int i = 0; i < ListSize(result, "games"); ++i) {
    const Struct& game = Item(result, "games", i);
    if (StringAt(game, "white") == "A") {
      broken_reported = !StringAt(game, "error").empty() && Field(game, "replay") == nullptr;
    }
    if (StringAt(game, "white") == "D") {
      international_replayed = ListSize(game, "replay.plies") == 4 &&
                               StringAt(game, "replay.variant") == "international";
    }
  }
  EXPECT_TRUE(broken_reported) << reply.body;
  EXPECT_TRUE(international_replayed) << reply.body;
  // The garbage game is a read failure or a game that does not replay.
  EXPECT_TRUE(ListSize(result, "failures") >= 1 || ListSize(result, "games") == 4) << reply.body;

  // Over the upload limit: 413, nothing read.
  HttpReply huge = Call("POST", "/api/pdn/replay", std::string(600 * 1024, ' '));
  EXPECT_EQ(huge.status, 413) << huge.body;
  // Other routes keep their 16 KiB limit.
  EXPECT_EQ(Call("POST", "/api/session", std::string(20 * 1024, ' ')).status, 413);
}

TEST_F(HistoryRoutesTest, VariantsCarryEachFederationsSquareNames) {
  const Struct variants = GetJson("/api/variants");
  std::map<std::string, const Struct*> by_id;
  for (int i = 0; i < ListSize(variants, "variants"); ++i) {
    const Struct& variant = Item(variants, "variants", i);
    by_id[StringAt(variant, "id")] = &variant;
  }
  ASSERT_TRUE(by_id.count("russian") && by_id.count("international") && by_id.count("italian"));
  const Struct& russian = *by_id["russian"];
  EXPECT_EQ(StringAt(russian, "notation.style"), "coordinates");
  ASSERT_EQ(ListSize(russian, "notation.squareNames"), 32);
  // Square 1 is top left as White sees it (b8), square 32 bottom right (g1).
  EXPECT_EQ(List(russian, "notation.squareNames")->list_value().values(0).string_value(), "b8");
  EXPECT_EQ(List(russian, "notation.squareNames")->list_value().values(31).string_value(), "g1");
  const Struct& international = *by_id["international"];
  EXPECT_EQ(StringAt(international, "notation.style"), "numbers");
  EXPECT_EQ(List(international, "notation.squareNames")->list_value().values(0).string_value(),
            "1");
  // Italian numbers its mirrored board its own way: not our numbering.
  const Struct& italian = *by_id["italian"];
  EXPECT_EQ(StringAt(italian, "notation.style"), "numbers");
  bool differs = false;
  for (int i = 0; i < ListSize(italian, "notation.squareNames"); ++i) {
    if (List(italian, "notation.squareNames")->list_value().values(i).string_value() !=
        std::to_string(i + 1)) {
      differs = true;
    }
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace draughts::gateway::testing
