// The disconnect rule end to end with the real game_state, with the
// shortened test values (--abandon-after=1500ms, 100 ms heartbeats): a
// seat whose connection closes is reported gone and, still gone after the
// limit, loses the game; on a computer_plays_for_absent table the computer
// plays for them instead, and they get their seat back by reconnecting.
#include <atomic>
#include <thread>

#include "clock_env.h"
#include "platform/proto_time.h"
#include "platform/redis_streams.h"

namespace draughts::clock::testing {
namespace {

constexpr absl::Duration kAbandonAfter = absl::Milliseconds(1500);

class ClockPresenceTest : public ClockIntegrationTest {
 protected:
  ClockReplica StartPresenceClock() {
    return StartClock({"--heartbeat-interval=100ms",
                       absl::StrCat("--abandon-after=", absl::FormatDuration(kAbandonAfter))});
  }

  // Beats for `color` every 100 ms from another thread until destroyed.
  class KeepBeating {
   public:
    KeepBeating(ClockPresenceTest* test, v1::ClockService::Stub* clock, std::string game_id,
                v1::Color color)
        : thread_([=, this] {
            while (!stop_) {
              test->Beat(*clock, game_id, color, "kept").IgnoreError();
              absl::SleepFor(absl::Milliseconds(100));
            }
          }) {}
    ~KeepBeating() {
      stop_ = true;
      thread_.join();
    }

   private:
    std::atomic<bool> stop_{false};
    std::thread thread_;
  };

  bool ArmedOnClock(v1::ClockService::Stub& clock, const std::string& id) {
    return WaitFor([&] {
      grpc::ClientContext context;
      v1::GetClockRequest request;
      request.set_game_id(id);
      v1::GetClockResponse response;
      return clock.GetClock(&context, request, &response).ok();
    });
  }
};

TEST_F(ClockPresenceTest, ASeatGoneLongerThanTheLimitLosesTheGame) {
  ClockReplica clock = StartPresenceClock();
  ASSERT_NE(clock.process, nullptr);
  const std::string id = CreateGame(absl::ZeroDuration()).game().game_id();
  ASSERT_TRUE(ArmedOnClock(*clock.stub, id));
  KeepBeating black(this, clock.stub.get(), id, v1::COLOR_BLACK);
  ASSERT_TRUE(Beat(*clock.stub, id, v1::COLOR_WHITE, "tab-1").ok());
  ASSERT_TRUE(WaitFor([&] {
    const v1::GameState game = GetGame(id);
    return game.white().connected() && game.black().connected();
  }));
  {
    // Connected seats have no abandon deadline.
    grpc::ClientContext context;
    v1::GetClockRequest request;
    request.set_game_id(id);
    v1::GetClockResponse view;
    ASSERT_TRUE(clock.stub->GetClock(&context, request, &view).ok());
    ASSERT_EQ(view.presence_size(), 2);
    for (const v1::SeatPresence& seat : view.presence()) {
      EXPECT_TRUE(seat.connected()) << v1::Color_Name(seat.color());
      EXPECT_FALSE(seat.has_abandon_deadline());
      EXPECT_TRUE(seat.has_last_seen_at());
    }
  }
  ASSERT_TRUE(Beat(*clock.stub, id, v1::COLOR_WHITE, "tab-1", /*closing=*/true).ok());

  v1::GameState game;
  ASSERT_TRUE(WaitFor([&] {
    game = GetGame(id);
    return game.result() != v1::GAME_RESULT_ONGOING;
  }));
  EXPECT_EQ(game.result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(game.reason(), v1::RESULT_REASON_ABANDONED);

  // Reported gone at once, abandoned after the limit (not before).
  absl::Time gone = absl::InfinitePast();
  absl::Time ended = absl::InfinitePast();
  for (const v1::GameEvent& event : WatchAll(id)) {
    if (event.has_seat_disconnected() && event.seat_disconnected().color() == v1::COLOR_WHITE) {
      gone = platform::FromProtoTime(event.timestamp());
      EXPECT_FALSE(event.seat_disconnected().computer_playing());
    }
    if (event.has_game_ended()) {
      ended = platform::FromProtoTime(event.timestamp());
      EXPECT_EQ(event.game_ended().by(), v1::COLOR_WHITE);
    }
  }
  ASSERT_NE(gone, absl::InfinitePast()) << "no SeatDisconnected for White";
  EXPECT_GE(ended - gone, kAbandonAfter - absl::Milliseconds(50));
  EXPECT_LT(ended - gone, kAbandonAfter + absl::Seconds(1));
  // Counted once game_state's answer is back, which may follow the events.
  EXPECT_TRUE(WaitFor(
      [&] { return Counter(clock.metrics_port, "draughts_clock_abandons_declared_total") == 1; }));
}

TEST_F(ClockPresenceTest, TheComputerStandsInForAnAbsentPlayerUntilTheyReturn) {
  ClockReplica clock = StartPresenceClock();
  ASSERT_NE(clock.process, nullptr);
  const std::string id =
      CreateGame(absl::ZeroDuration(), /*computer_plays_for_absent=*/true).game().game_id();
  ASSERT_TRUE(ArmedOnClock(*clock.stub, id));
  KeepBeating black(this, clock.stub.get(), id, v1::COLOR_BLACK);
  ASSERT_TRUE(Beat(*clock.stub, id, v1::COLOR_WHITE, "phone").ok());
  ASSERT_TRUE(WaitFor([&] { return GetGame(id).white().connected(); }));
  ASSERT_TRUE(Beat(*clock.stub, id, v1::COLOR_WHITE, "phone", /*closing=*/true).ok());

  // The computer takes White's seat (White is to move: a bot job is queued).
  ASSERT_TRUE(WaitFor([&] { return GetGame(id).white().computer_playing(); }));
  ASSERT_TRUE(WaitFor([&] {
    auto jobs = platform::StreamRange(*redis_, prefix_ + "draughts:bot-jobs");
    if (!jobs.ok()) return false;
    for (const platform::StreamEntry& entry : *jobs) {
      const std::string* game = entry.Find("game_id");
      if (game != nullptr && *game == id) return true;
    }
    return false;
  }));
  // Past the limit the clock declares the absence, and the game goes on.
  ASSERT_TRUE(WaitFor(
      [&] { return Counter(clock.metrics_port, "draughts_clock_abandons_declared_total") == 1; }));
  v1::GameState game = GetGame(id);
  EXPECT_EQ(game.result(), v1::GAME_RESULT_ONGOING);
  EXPECT_TRUE(game.white().computer_playing());

  // White comes back: their seat is theirs again.
  ASSERT_TRUE(Beat(*clock.stub, id, v1::COLOR_WHITE, "phone-again").ok());
  ASSERT_TRUE(WaitFor([&] {
    game = GetGame(id);
    return game.white().connected() && !game.white().computer_playing();
  }));
  EXPECT_EQ(game.result(), v1::GAME_RESULT_ONGOING);
}

}  // namespace
}  // namespace draughts::clock::testing
