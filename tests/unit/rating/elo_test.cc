// The Elo arithmetic and the bookkeeping of a batch of games: expected
// scores, K factors by games and rating, a draw counting half, months in
// UTC, and which games change Elo.
#include "rating/elo.h"

#include <gtest/gtest.h>

#include <cmath>

#include "rating/rating_book.h"
#include "rating/result_rules.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

const absl::Time kJanuary = absl::FromUnixSeconds(1767268800);  // 2026-01-01 12:00 UTC

TEST(EloTest, ExpectedScoresAreSymmetricAndFollowTheLogisticCurve) {
  EXPECT_DOUBLE_EQ(ExpectedScore(1500, 1500), 0.5);
  EXPECT_NEAR(ExpectedScore(1700, 1500), 1.0 / (1.0 + std::pow(10.0, -0.5)), 1e-12);
  EXPECT_NEAR(ExpectedScore(1700, 1500), 0.7597, 1e-4);
  EXPECT_NEAR(ExpectedScore(1500, 1900), 1.0 / 11.0, 1e-12);
  for (int diff : {0, 50, 200, 800}) {
    EXPECT_NEAR(ExpectedScore(1500 + diff, 1500) + ExpectedScore(1500, 1500 + diff), 1.0, 1e-12);
  }
}

TEST(EloTest, KFallsAfterTheNewcomerGamesAndAgainAtTheTop) {
  EXPECT_EQ(KFactor(0, 1500), 40);
  EXPECT_EQ(KFactor(kNewcomerGames - 1, 2600), 40) << "newcomers move fast whatever the rating";
  EXPECT_EQ(KFactor(kNewcomerGames, 1500), 20);
  EXPECT_EQ(KFactor(kNewcomerGames, kTopRating - 1), 20);
  EXPECT_EQ(KFactor(kNewcomerGames, kTopRating), 10);
  EXPECT_EQ(KFactor(500, 2800), 10);
}

TEST(EloTest, AWinBetweenEqualsMovesHalfOfK) {
  const Standing fresh{1500, 0, 0, 0, 0};
  const Standing won = AfterGame(fresh, 1500, 1.0);
  EXPECT_EQ(won.elo, 1520);  // 40 * (1 - 0.5)
  EXPECT_EQ(won.games, 1);
  EXPECT_EQ(won.wins, 1);
  const Standing lost = AfterGame(fresh, 1500, 0.0);
  EXPECT_EQ(lost.elo, 1480);
  EXPECT_EQ(lost.losses, 1);
}

TEST(EloTest, ADrawCountsHalfBetweenAWinAndALoss) {
  const Standing strong{1700, 12, 10, 0, 2};
  const Standing weak{1500, 12, 2, 0, 10};
  const Standing strong_drew = AfterGame(strong, weak.elo, 0.5);
  const Standing weak_drew = AfterGame(weak, strong.elo, 0.5);
  // K 20 after the newcomer games: 20 * (0.5 - 0.7597) = -5.19 -> -5.
  EXPECT_EQ(strong_drew.elo, 1695);
  EXPECT_EQ(weak_drew.elo, 1505);
  EXPECT_EQ(strong_drew.draws, 1);
  EXPECT_EQ(strong_drew.games, 13);
  EXPECT_LT(AfterGame(strong, weak.elo, 0.0).elo, strong_drew.elo);
  EXPECT_GT(AfterGame(strong, weak.elo, 1.0).elo, strong_drew.elo);
  EXPECT_DOUBLE_EQ(Score(v1::GAME_RESULT_DRAW, v1::COLOR_WHITE), 0.5);
  EXPECT_DOUBLE_EQ(Score(v1::GAME_RESULT_WHITE_WINS, v1::COLOR_BLACK), 0.0);
  EXPECT_DOUBLE_EQ(Score(v1::GAME_RESULT_BLACK_WINS, v1::COLOR_BLACK), 1.0);
}

TEST(EloTest, MonthsAreUtcCalendarMonths) {
  EXPECT_EQ(MonthOf(absl::ToUnixMicros(absl::FromUnixSeconds(1769903999))), "2026-01");
  EXPECT_EQ(MonthOf(absl::ToUnixMicros(absl::FromUnixSeconds(1769904000))), "2026-02");
  EXPECT_TRUE(IsValidMonth("2026-12"));
  for (const char* bad : {"", "2026-13", "2026-00", "2026-1", "26-01", "2026/01", "0000-01",
                          "2026-01-01", "abcd-ef"}) {
    EXPECT_FALSE(IsValidMonth(bad)) << bad;
  }
}

TEST(EloTest, OnlyRatedGamesBetweenTwoDifferentPeopleChangeElo) {
  const v1::ResultRecord rated =
      RatedRecord("g", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  EXPECT_TRUE(ChangesElo(rated));
  v1::ResultRecord unrated = rated;
  unrated.set_rated(false);
  v1::ResultRecord guest = rated;
  guest.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  v1::ResultRecord bot = rated;
  bot.mutable_white()->set_kind(v1::SEAT_KIND_BOT);
  bot.mutable_white()->clear_player_id();
  v1::ResultRecord self = rated;
  self.mutable_black()->set_player_id("ann");
  for (const auto* record : {&unrated, &guest, &bot, &self}) EXPECT_FALSE(ChangesElo(*record));
}

TEST(EloTest, ACompleteRecordNeedsSeatKindsAPersonsIdAndAnEndTime) {
  const v1::ResultRecord good =
      RatedRecord("g", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  EXPECT_TRUE(CheckCompleteRecord(good).ok());
  v1::ResultRecord no_kind = good;
  no_kind.mutable_black()->clear_kind();
  v1::ResultRecord no_id = good;
  no_id.mutable_white()->clear_player_id();
  v1::ResultRecord no_end = good;
  no_end.clear_finished_at();
  v1::ResultRecord ongoing = good;
  ongoing.set_result(v1::GAME_RESULT_ONGOING);
  for (const auto* record : {&no_kind, &no_id, &no_end, &ongoing}) {
    EXPECT_EQ(CheckCompleteRecord(*record).code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_NE(CheckCompleteRecord(no_end).message().find("finished_at"), std::string::npos);
}

TEST(RatingBookTest, GamesApplyInOrderPerMonthAndLeaveHistoryForPeopleOnly) {
  const v1::ResultRecord first =
      RatedRecord("g1", "ann", "bob", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  const v1::ResultRecord second =
      RatedRecord("g2", "bob", "ann", v1::GAME_RESULT_DRAW, kJanuary + absl::Hours(1));
  // February: both start afresh.
  const v1::ResultRecord third =
      RatedRecord("g3", "ann", "bob", v1::GAME_RESULT_BLACK_WINS, kJanuary + absl::Hours(24 * 31));
  v1::ResultRecord against_guest =
      RatedRecord("g4", "ann", "g_guest", v1::GAME_RESULT_WHITE_WINS, kJanuary);
  against_guest.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  const std::vector<const v1::ResultRecord*> games = {&first, &second, &third, &against_guest};
  EXPECT_EQ(KeysTouched(games).size(), 4u) << "ann and bob, in January and February";

  std::map<RatingKey, BookEntry> book;
  std::vector<HistoryRow> history;
  const auto changes = ApplyGames(games, EloSettings{1500}, book, history);
  ASSERT_EQ(changes.size(), 4u);
  ASSERT_EQ(changes[0].size(), 2u);
  EXPECT_EQ(changes[0][0].elo_before(), 1500);
  EXPECT_EQ(changes[0][0].elo_after(), 1520);
  EXPECT_EQ(changes[0][1].elo_after(), 1480);
  EXPECT_EQ(changes[0][0].month(), "2026-01");
  // Bob (1480, White) draws Ann (1520): each moves towards the other.
  EXPECT_EQ(changes[1][0].player_id(), "bob");
  EXPECT_EQ(changes[1][0].elo_before(), 1480);
  EXPECT_EQ(changes[1][0].elo_after(), 1480 + std::lround(40 * (0.5 - ExpectedScore(1480, 1520))));
  EXPECT_EQ(changes[2][0].elo_before(), 1500) << "a new month starts at the initial rating";
  EXPECT_EQ(changes[2][0].month(), "2026-02");
  EXPECT_TRUE(changes[3].empty()) << "a guest never changes Elo";

  const BookEntry& ann_january = book.at({"international", "2026-01", "ann"});
  EXPECT_EQ(ann_january.standing.games, 2) << "the guest game is not counted";
  EXPECT_EQ(ann_january.standing.wins, 1);
  EXPECT_EQ(ann_january.standing.draws, 1);
  EXPECT_EQ(ann_january.display_name, "ann name");
  // Two people per rated game, Ann alone against the guest.
  ASSERT_EQ(history.size(), 7u);
  EXPECT_EQ(history.back().player_id, "ann");
  EXPECT_FALSE(history.back().entry.elo_changed());
  EXPECT_EQ(history.back().entry.outcome(), v1::OUTCOME_WIN);
  EXPECT_EQ(history.back().entry.opponent().kind(), v1::SEAT_KIND_GUEST);
  EXPECT_EQ(history[3].entry.outcome(), v1::OUTCOME_DRAW);
}

}  // namespace
}  // namespace draughts::rating::testing
