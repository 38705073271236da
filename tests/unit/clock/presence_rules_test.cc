// The presence rule's pure functions at their boundaries.
#include "clock/presence_rules.h"

#include <gtest/gtest.h>

namespace draughts::clock::testing {
namespace {

const absl::Time kT = absl::FromUnixSeconds(1800000000);

GameClock TwoSeats() {
  GameClock game;
  game.game_id = "g";
  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    SeatPresenceState seat;
    seat.color = color;
    seat.away_since = kT;
    game.seats.push_back(seat);
  }
  return game;
}

TEST(PresenceRulesTest, ASeatIsConnectedWhileABeatIsYoungerThanThreeIntervals) {
  PresenceSettings settings;  // 10 s interval
  GameClock game = TwoSeats();
  game.connections.push_back({v1::COLOR_WHITE, "old", kT - absl::Seconds(50)});
  game.connections.push_back({v1::COLOR_WHITE, "new", kT});
  EXPECT_TRUE(SeatConnected(game, v1::COLOR_WHITE, kT + absl::Seconds(29), settings));
  EXPECT_FALSE(SeatConnected(game, v1::COLOR_WHITE, kT + absl::Seconds(30), settings));
  EXPECT_FALSE(SeatConnected(game, v1::COLOR_BLACK, kT, settings)) << "no connection of its own";
  EXPECT_EQ(LastBeat(game, v1::COLOR_WHITE), kT);
}

TEST(PresenceRulesTest, TheNextCheckIsTheEarliestExpiryChangeOrLimit) {
  PresenceSettings settings;
  GameClock game = TwoSeats();
  // Neither ever connected: both limits count from the first arming.
  EXPECT_EQ(NextPresenceCheck(game, kT, settings), kT + absl::Minutes(2));
  // White connects: its change is due now.
  game.connections.push_back({v1::COLOR_WHITE, "c", kT + absl::Seconds(5)});
  EXPECT_EQ(NextPresenceCheck(game, kT + absl::Seconds(5), settings), kT + absl::Seconds(5));
  // Reported: now its expiry, which comes before Black's limit.
  game.seats[0].reported = true;
  EXPECT_EQ(NextPresenceCheck(game, kT + absl::Seconds(5), settings), kT + absl::Seconds(35));
  // Black declared abandoned: only White's expiry is left.
  game.seats[1].abandoned = true;
  game.connections.back().last_beat = kT + absl::Minutes(5);
  EXPECT_EQ(NextPresenceCheck(game, kT + absl::Minutes(5), settings),
            kT + absl::Minutes(5) + absl::Seconds(30));
}

TEST(PresenceRulesTest, TheAbandonDeadlineOfAGoneSeatNotYetReported) {
  PresenceSettings settings;
  GameClock game = TwoSeats();
  game.seats[0].reported = true;
  game.seats[0].last_seen = kT;
  // Its connection expired at kT + 30 s: the limit counts from there.
  EXPECT_EQ(AbandonDeadline(game, game.seats[0], kT + absl::Seconds(40), settings),
            kT + absl::Seconds(30) + absl::Minutes(2));
  game.seats[0].abandoned = true;
  EXPECT_EQ(AbandonDeadline(game, game.seats[0], kT + absl::Seconds(40), settings), std::nullopt);
}

}  // namespace
}  // namespace draughts::clock::testing
