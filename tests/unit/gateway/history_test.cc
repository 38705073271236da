// The ratings and history routes' pure parts: their routing and body limit,
// months, square names in /api/variants, and games turned into replays
// (from an archived record and from an uploaded PDN file).
#include <gtest/gtest.h>

#include "absl/time/civil_time.h"
#include "gateway/history_handlers.h"
#include "gateway/history_replay.h"
#include "gateway/proto_json.h"
#include "gateway/router.h"
#include "gateway/variants_json.h"
#include "rules/fen.h"

namespace draughts::gateway {
namespace {

TEST(HistoryRoutesTest, Routes) {
  EXPECT_EQ(MatchRoute("GET", "/api/leaderboard").route, Route::kLeaderboard);
  EXPECT_EQ(MatchRoute("POST", "/api/leaderboard").route, Route::kMethodNotAllowed);
  RouteMatch player = MatchRoute("GET", "/api/players/p_abc-DEF");
  EXPECT_EQ(player.route, Route::kPlayer);
  EXPECT_EQ(player.player_id, "p_abc-DEF");
  EXPECT_EQ(MatchRoute("GET", "/api/players/a.b").route, Route::kNotFound);
  EXPECT_EQ(MatchRoute("GET", "/api/players/").route, Route::kNotFound);
  RouteMatch replay = MatchRoute("GET", "/api/games/g-1/replay");
  EXPECT_EQ(replay.route, Route::kGameReplay);
  EXPECT_EQ(replay.game_id, "g-1");
  EXPECT_EQ(MatchRoute("GET", "/api/games/a.b/replay").route, Route::kMalformedGameId);
  EXPECT_EQ(MatchRoute("POST", "/api/pdn/replay").route, Route::kPdnReplay);
  EXPECT_EQ(MatchRoute("GET", "/api/pdn/replay").route, Route::kMethodNotAllowed);
  EXPECT_EQ(RouteLabel(Route::kPdnReplay), "pdn_replay");
}

TEST(HistoryRoutesTest, OnlyTheUploadTakesLargeBodies) {
  EXPECT_EQ(BodyLimit(Route::kPdnReplay), kMaxPdnUploadBytes);
  EXPECT_GT(kMaxPdnUploadBytes, kMaxMessageBytes);
  for (Route route :
       {Route::kCreateGame, Route::kRegister, Route::kNotFound, Route::kLeaderboard}) {
    EXPECT_EQ(BodyLimit(route), kMaxMessageBytes);
  }
}

TEST(HistoryRoutesTest, Months) {
  EXPECT_EQ(
      MonthOf(absl::FromCivil(absl::CivilSecond(2026, 12, 31, 23, 59, 59), absl::UTCTimeZone())),
      "2026-12");
  EXPECT_EQ(MonthBefore("2026-12"), "2026-11");
  EXPECT_EQ(MonthBefore("2027-01"), "2026-12");
  EXPECT_EQ(MonthBefore("2026-1"), "");
  EXPECT_EQ(MonthBefore("abcd-ef"), "");
}

TEST(HistoryRoutesTest, VariantsNameSquaresAsTheirFederation) {
  const google::protobuf::Struct all = ParseJsonObject(AllVariantsJson()).value();
  for (const auto& value : all.fields().at("variants").list_value().values()) {
    const auto& variant = value.struct_value().fields();
    const auto& notation = variant.at("notation").struct_value().fields();
    EXPECT_EQ(notation.at("squareNames").list_value().values_size(),
              variant.at("squares").number_value())
        << variant.at("id").string_value();
    if (variant.at("id").string_value() == "russian") {
      EXPECT_EQ(notation.at("style").string_value(), "coordinates");
      EXPECT_EQ(notation.at("squareNames").list_value().values(21).string_value(), "c3");
    }
    if (variant.at("id").string_value() == "international") {
      EXPECT_EQ(notation.at("style").string_value(), "numbers");
      EXPECT_EQ(notation.at("squareNames").list_value().values(49).string_value(), "50");
    }
  }
}

TEST(HistoryReplayTest, ArchivedRecordReplaysWithEveryPosition) {
  v1::ResultRecord record;
  record.set_variant("russian");
  for (const char* move : {"22-18", "11-15", "18x11", "7x16"}) record.add_moves(move);
  absl::StatusOr<rules::GameRecord> game = ReplayRecord(record);
  ASSERT_TRUE(game.ok()) << game.status();
  const v1::Replay replay = ReplayOf(*game);
  EXPECT_EQ(replay.variant(), "russian");
  ASSERT_EQ(replay.plies_size(), 4);
  EXPECT_EQ(replay.plies(0).notation(), "c3-d4");
  EXPECT_EQ(replay.plies(2).notation(), "d4:f6");
  EXPECT_EQ(replay.plies(2).captured(0), 15);
  EXPECT_EQ(replay.plies(0).path(0), 22);
  EXPECT_EQ(replay.plies(0).path(1), 18);
  EXPECT_EQ(replay.plies(3).fen(), rules::FormatFen(game->position()));

  record.add_moves("1-2");
  EXPECT_EQ(ReplayRecord(record).status().code(), absl::StatusCode::kInvalidArgument);
  record.set_variant("chess");
  EXPECT_EQ(ReplayRecord(record).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(HistoryReplayTest, UploadReadsGoodGamesAndReportsBadOnes) {
  const v1::PdnUploadResult result = ReadUploadedPdn(
      "[White \"W\"]\n[Black \"B\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
      "[White \"X\"]\n\n1. 32-28 32-28 2-0\n\n"
      "[White \"Y\"]\n[GameType \"25\"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 2-0\n");
  ASSERT_EQ(result.games_size(), 3);
  EXPECT_EQ(result.games(0).white(), "W");
  EXPECT_EQ(result.games(0).replay().plies_size(), 4);
  EXPECT_EQ(result.games(0).result(), "*");
  EXPECT_TRUE(result.games(0).error().empty());
  EXPECT_FALSE(result.games(1).error().empty());
  EXPECT_FALSE(result.games(1).has_replay());
  EXPECT_EQ(result.games(2).replay().variant(), "russian");
  EXPECT_EQ(result.games(2).result(), "2-0");
}

}  // namespace
}  // namespace draughts::gateway
