// The firing logic with a manual time source: what each answer of
// game-state leads to for a move deadline, and the presence rule step by
// step (a connection expires, the absence is reported, the limit passes,
// the player comes back).
#include "clock/deadline_firer.h"

#include <gtest/gtest.h>

#include "fake_clock_store.h"
#include "fake_game_calls.h"
#include "metrics_test_util.h"
#include "platform/proto_time.h"

namespace draughts::clock::testing {
namespace {

using platform::testing::CounterValue;

const absl::Time kStart = absl::FromUnixSeconds(1800000000);

class DeadlineFirerTest : public ::testing::Test {
 protected:
  DeadlineFirerTest()
      : registry_(std::make_shared<prometheus::Registry>()),
        metrics_(*registry_),
        firer_(&store_, &game_, &metrics_, Options(), [this] { return now_; }) {}

  static FirerOptions Options() {
    FirerOptions options;
    options.presence.heartbeat_interval = absl::Seconds(10);
    options.presence.abandon_after = absl::Minutes(2);
    options.retry_delay = absl::Seconds(1);
    return options;
  }

  void ArmGame(bool untimed = false) {
    ArmCommand arm{.game_id = "g1",
                   .game_version = 3,
                   .expected_ply = 4,
                   .color = v1::COLOR_BLACK,
                   .deadline = untimed ? std::nullopt : std::optional<absl::Time>(now_),
                   .human_seats = {v1::COLOR_WHITE, v1::COLOR_BLACK}};
    ASSERT_TRUE(store_.Arm(arm, now_).ok());
  }

  DueTimer MoveTimer() {
    return {.kind = DueTimer::Kind::kMove,
            .game_id = "g1",
            .due = kStart,
            .lease_until = now_ + absl::Seconds(10),
            .game_version = 3,
            .expected_ply = 4,
            .color = v1::COLOR_BLACK};
  }
  DueTimer PresenceTimer() {
    return {.kind = DueTimer::Kind::kPresence,
            .game_id = "g1",
            .due = now_,
            .lease_until = now_ + absl::Seconds(10)};
  }

  void BeatBoth(const std::string& white_connection = "w") {
    for (auto [color, id] : {std::pair{v1::COLOR_WHITE, white_connection},
                             std::pair{v1::COLOR_BLACK, std::string("b")}}) {
      ASSERT_TRUE(store_
                      .Beat({.game_id = "g1",
                             .color = color,
                             .connection_id = id,
                             .closing = false,
                             .now = now_,
                             .live_window = Options().presence.LiveWindow()})
                      .ok());
    }
  }
  const SeatPresenceState& Seat(v1::Color color) {
    for (const SeatPresenceState& seat : store_.games["g1"].seats) {
      if (seat.color == color) return seat;
    }
    static SeatPresenceState none;
    return none;
  }

  absl::Time now_ = kStart;
  FakeClockStore store_;
  FakeGameCalls game_;
  std::shared_ptr<prometheus::Registry> registry_;
  ClockMetrics metrics_;
  DeadlineFirer firer_;
};

TEST_F(DeadlineFirerTest, ADueMoveAsksForAnAutomaticMoveAtTheArmedPly) {
  ArmGame();
  v1::PlayAutomaticMoveResponse played;
  played.set_played(true);
  game_.automatic_answers.push_back(played);
  now_ += absl::Milliseconds(120);
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  ASSERT_EQ(game_.automatic_moves.size(), 1u);
  EXPECT_EQ(game_.automatic_moves[0].game_id(), "g1");
  EXPECT_EQ(game_.automatic_moves[0].expected_ply(), 4);
  EXPECT_EQ(game_.automatic_moves[0].color(), v1::COLOR_BLACK);
  ASSERT_EQ(store_.finished_moves.size(), 1u);
  EXPECT_EQ(store_.finished_moves[0].second, std::nullopt) << "a played move removes the timer";
  EXPECT_EQ(
      CounterValue(*registry_, "draughts_clock_automatic_moves_total", {{"outcome", "played"}}), 1);
  EXPECT_EQ(platform::testing::HistogramCount(*registry_, "draughts_clock_fire_lateness_seconds",
                                              {{"kind", "move"}}),
            1u);
}

TEST_F(DeadlineFirerTest, AnUnavailableGameStateMeansTryAgainSoon) {
  ArmGame();
  game_.automatic_answers.push_back(absl::UnavailableError("draining"));
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  ASSERT_EQ(store_.finished_moves.size(), 1u);
  EXPECT_EQ(store_.finished_moves[0].second, now_ + absl::Seconds(1));
}

TEST_F(DeadlineFirerTest, ADeadlineStillAheadForGameStateFiresAgainThen) {
  ArmGame();
  v1::PlayAutomaticMoveResponse waiting;
  waiting.set_played(false);
  waiting.mutable_game()->set_ply(4);
  waiting.mutable_game()->set_side_to_move(v1::COLOR_BLACK);
  *waiting.mutable_game()->mutable_move_deadline() =
      platform::ToProtoTime(now_ + absl::Seconds(20));
  game_.automatic_answers.push_back(waiting);
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  ASSERT_EQ(store_.finished_moves.size(), 1u);
  EXPECT_EQ(store_.finished_moves[0].second, now_ + absl::Seconds(20));
}

TEST_F(DeadlineFirerTest, AGameThatMovedOnOrEndedDropsTheTimerAndAnUnknownOneIsForgotten) {
  ArmGame();
  v1::PlayAutomaticMoveResponse moved_on;
  moved_on.set_played(false);
  moved_on.mutable_game()->set_ply(5);
  game_.automatic_answers.push_back(moved_on);
  game_.automatic_answers.push_back(absl::FailedPreconditionError("the game is over"));
  game_.automatic_answers.push_back(absl::NotFoundError("unknown game"));
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  ASSERT_EQ(store_.finished_moves.size(), 2u);
  EXPECT_EQ(store_.finished_moves[0].second, std::nullopt);
  EXPECT_EQ(store_.finished_moves[1].second, std::nullopt);
  ASSERT_TRUE(firer_.Fire(MoveTimer()).ok());
  EXPECT_EQ(store_.forgotten, std::vector<std::string>{"g1"});
}

TEST_F(DeadlineFirerTest, ASeatGoneIsReportedThenAbandonedAfterTheLimit) {
  ArmGame(/*untimed=*/true);
  BeatBoth();
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  ASSERT_EQ(game_.presence.size(), 2u) << "both seats connected";
  EXPECT_TRUE(game_.presence[0].connected());
  EXPECT_TRUE(Seat(v1::COLOR_WHITE).reported.value_or(false));
  // The next check is when the connections would expire (3 intervals).
  ASSERT_EQ(store_.saved.size(), 1u);
  EXPECT_EQ(store_.saved.back().next_check, now_ + absl::Seconds(30));

  // Black keeps beating, White stops: 30 s later White is gone.
  const absl::Time white_last = now_;
  now_ += absl::Seconds(20);
  ASSERT_TRUE(store_
                  .Beat({.game_id = "g1",
                         .color = v1::COLOR_BLACK,
                         .connection_id = "b",
                         .now = now_,
                         .live_window = absl::Seconds(30)})
                  .ok());
  now_ += absl::Seconds(10);
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  ASSERT_EQ(game_.presence.size(), 3u);
  EXPECT_EQ(game_.presence[2].color(), v1::COLOR_WHITE);
  EXPECT_FALSE(game_.presence[2].connected());
  EXPECT_TRUE(game_.abandons.empty()) << "not before the limit";
  EXPECT_EQ(Seat(v1::COLOR_WHITE).away_since, white_last + absl::Seconds(30));
  EXPECT_EQ(store_.saved.back().next_check, now_ + absl::Seconds(20))
      << "Black's connection expires before White's limit";

  // The limit passes (Black still beating).
  now_ = white_last + absl::Seconds(30) + absl::Minutes(2) - absl::Seconds(1);
  ASSERT_TRUE(store_
                  .Beat({.game_id = "g1",
                         .color = v1::COLOR_BLACK,
                         .connection_id = "b",
                         .now = now_,
                         .live_window = absl::Seconds(30)})
                  .ok());
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_TRUE(game_.abandons.empty()) << "one second early";
  now_ += absl::Seconds(1);
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  ASSERT_EQ(game_.abandons.size(), 1u);
  EXPECT_EQ(game_.abandons[0].color(), v1::COLOR_WHITE);
  EXPECT_EQ(game_.abandons[0].expected_ply(), 4);
  EXPECT_TRUE(Seat(v1::COLOR_WHITE).abandoned);
  EXPECT_EQ(CounterValue(*registry_, "draughts_clock_abandons_declared_total", {}), 1);

  // Declared once: later checks do not repeat it.
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_EQ(game_.abandons.size(), 1u);
}

TEST_F(DeadlineFirerTest, AStaleAbandonIsRetriedAndAReturnClearsTheAbsence) {
  ArmGame(/*untimed=*/true);
  // Nobody ever connects: the limit counts from the first arming.
  now_ += absl::Minutes(2);
  game_.abandon_answers.push_back(absl::AbortedError("expected_ply is stale"));
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_TRUE(game_.presence.empty()) << "game-state already sees them as not connected";
  ASSERT_EQ(game_.abandons.size(), 2u) << "both seats are past the limit";
  EXPECT_FALSE(Seat(v1::COLOR_WHITE).abandoned);
  EXPECT_TRUE(Seat(v1::COLOR_BLACK).abandoned);
  EXPECT_EQ(store_.saved.back().next_check, now_ + absl::Seconds(1));

  // White comes back before the retry: reported, nothing declared.
  ASSERT_TRUE(store_
                  .Beat({.game_id = "g1",
                         .color = v1::COLOR_WHITE,
                         .connection_id = "w",
                         .now = now_,
                         .live_window = absl::Seconds(30)})
                  .ok());
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_EQ(game_.abandons.size(), 2u);
  ASSERT_EQ(game_.presence.size(), 1u);
  EXPECT_TRUE(game_.presence[0].connected());
  EXPECT_EQ(game_.presence[0].idempotency_key(),
            absl::StrCat("clock:1:1:", absl::ToUnixMillis(now_)));
  EXPECT_TRUE(Seat(v1::COLOR_WHITE).reported.value_or(false));
}

TEST_F(DeadlineFirerTest, APresenceCallThatFailsIsRetriedWithoutChangingTheSeat) {
  ArmGame(/*untimed=*/true);
  BeatBoth();
  game_.presence_answers.push_back(absl::UnavailableError("down"));
  ASSERT_TRUE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_FALSE(Seat(v1::COLOR_WHITE).reported.has_value());
  EXPECT_TRUE(Seat(v1::COLOR_BLACK).reported.value_or(false));
  EXPECT_EQ(store_.saved.back().next_check, now_ + absl::Seconds(1));
}

TEST_F(DeadlineFirerTest, AStoreFailureLeavesTheTimerToItsLease) {
  ArmGame(/*untimed=*/true);
  store_.failure = absl::UnavailableError("redis down");
  EXPECT_FALSE(firer_.Fire(PresenceTimer()).ok());
  EXPECT_TRUE(game_.presence.empty());
  EXPECT_EQ(CounterValue(*registry_, "draughts_clock_errors_total", {{"stage", "fire"}}), 1);
}

}  // namespace
}  // namespace draughts::clock::testing
