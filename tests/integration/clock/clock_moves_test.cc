// Deadlines end to end with the real game_state: a game created with a
// 1-second time per move reaches the clock through the deadlines stream, a
// timed-out move is played for the side to move, and the third automatic
// move in a row by one player forfeits the game.
#include "clock_env.h"
#include "platform/proto_time.h"

namespace draughts::clock::testing {
namespace {

class ClockMovesTest : public ClockIntegrationTest {};

TEST_F(ClockMovesTest, ATimedOutMoveIsPlayedAndTheThirdInARowForfeits) {
  ClockReplica clock = StartClock();
  ASSERT_NE(clock.process, nullptr);
  const v1::CreateGameResponse created = CreateGame(absl::Seconds(1));
  const std::string id = created.game().game_id();

  // Nobody moves: White, Black, White, Black, White time out; White's third
  // automatic move in a row loses the game.
  v1::GameState game;
  ASSERT_TRUE(WaitFor([&] {
    game = GetGame(id);
    return game.result() != v1::GAME_RESULT_ONGOING;
  }));
  EXPECT_EQ(game.result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(game.reason(), v1::RESULT_REASON_TIMEOUTS);
  EXPECT_EQ(game.ply(), 5);
  EXPECT_EQ(game.white().consecutive_automatic_moves(), 3);
  EXPECT_EQ(game.black().consecutive_automatic_moves(), 2);
  EXPECT_TRUE(game.last_move().automatic());
  EXPECT_EQ(game.last_move().consecutive_automatic_moves(), 3);

  // Each automatic move came within 1 s after the deadline it was for.
  std::vector<v1::GameEvent> events = WatchAll(id);
  absl::Time deadline = absl::InfinitePast();
  int automatic = 0;
  for (const v1::GameEvent& event : events) {
    if (event.has_game_created())
      deadline = platform::FromProtoTime(event.game_created().move_deadline());
    if (!event.has_move_played()) continue;
    const absl::Time played = platform::FromProtoTime(event.timestamp());
    EXPECT_TRUE(event.move_played().automatic());
    EXPECT_GE(played, deadline) << "ply " << event.ply() << " played before its deadline";
    EXPECT_LT(played - deadline, absl::Seconds(1)) << "ply " << event.ply() << " played late";
    ++automatic;
    if (event.move_played().has_next_move_deadline()) {
      deadline = platform::FromProtoTime(event.move_played().next_move_deadline());
    }
  }
  EXPECT_EQ(automatic, 5);

  // The game's end reached the clock too: it no longer tracks the game.
  ASSERT_TRUE(WaitFor([&] {
    grpc::ClientContext context;
    v1::GetClockRequest request;
    request.set_game_id(id);
    v1::GetClockResponse response;
    return clock.stub->GetClock(&context, request, &response).error_code() ==
           grpc::StatusCode::NOT_FOUND;
  }));
  // Counted once game_state's answer is back, which may follow the events.
  EXPECT_TRUE(WaitFor([&] {
    return Counter(clock.metrics_port, "draughts_clock_automatic_moves_total",
                   "outcome=\"played\"") == 5;
  }));
}

TEST_F(ClockMovesTest, AMoveInTimeIsNotReplacedAndGetClockCountsDown) {
  ClockReplica clock = StartClock();
  ASSERT_NE(clock.process, nullptr);
  const v1::CreateGameResponse created = CreateGame(absl::Seconds(2));
  const std::string id = created.game().game_id();
  v1::GetClockResponse view;
  ASSERT_TRUE(WaitFor([&] {
    grpc::ClientContext context;
    v1::GetClockRequest request;
    request.set_game_id(id);
    return clock.stub->GetClock(&context, request, &view).ok();
  }));
  EXPECT_TRUE(view.armed());
  EXPECT_EQ(view.expected_ply(), 0);
  EXPECT_EQ(view.color(), v1::COLOR_WHITE);
  // The clock keeps deadlines to the millisecond.
  EXPECT_LT(absl::AbsDuration(platform::FromProtoTime(view.deadline()) -
                              platform::FromProtoTime(created.game().move_deadline())),
            absl::Milliseconds(1));
  EXPECT_LE(platform::FromProtoDuration(view.remaining()), absl::Seconds(2));
  ASSERT_EQ(view.presence_size(), 2);
  EXPECT_FALSE(view.presence(0).connected());
  EXPECT_TRUE(view.presence(0).has_abandon_deadline());

  // White moves in time; Black's deadline is armed from the move.
  v1::SubmitMoveRequest move;
  move.set_game_id(id);
  move.set_player_token(created.white_player_token());
  move.set_move("32-28");
  move.set_expected_ply(0);
  v1::SubmitMoveResponse moved;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(game_->SubmitMove(&context, move, &moved).ok());
  }
  ASSERT_TRUE(WaitFor([&] {
    grpc::ClientContext context;
    v1::GetClockRequest request;
    request.set_game_id(id);
    return clock.stub->GetClock(&context, request, &view).ok() && view.expected_ply() == 1;
  }));
  EXPECT_EQ(view.color(), v1::COLOR_BLACK);
  // Black then times out: one automatic move, White's own move stays.
  v1::GameState game;
  ASSERT_TRUE(WaitFor([&] {
    game = GetGame(id);
    return game.ply() >= 2;
  }));
  ASSERT_GE(game.moves_size(), 2);
  EXPECT_EQ(game.moves(0), "32-28");
  EXPECT_EQ(game.white().consecutive_automatic_moves(), 0);
  EXPECT_EQ(game.black().consecutive_automatic_moves(), 1);
}

}  // namespace
}  // namespace draughts::clock::testing
