// Bot jobs, undo against a bot, automatic moves (the clock), presence and
// abandonment.
#include <gtest/gtest.h>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using ::grpc::StatusCode;

class BotAndClockTest : public GameServiceTest {
 protected:
  grpc::Status Undo(const std::string& id, const std::string& token, int ply,
                    v1::UndoMoveResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::UndoMoveRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::UndoMoveResponse ignored;
    return stub_->UndoMove(&context, request, out != nullptr ? out : &ignored);
  }
  grpc::Status Automatic(const std::string& id, int ply, v1::Color color,
                         v1::PlayAutomaticMoveResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::PlayAutomaticMoveRequest request;
    request.set_game_id(id);
    request.set_expected_ply(ply);
    request.set_color(color);
    v1::PlayAutomaticMoveResponse ignored;
    return stub_->PlayAutomaticMove(&context, request, out != nullptr ? out : &ignored);
  }
  grpc::Status Presence(const std::string& id, v1::Color color, bool connected,
                        const std::string& key, v1::RecordPresenceResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::RecordPresenceRequest request;
    request.set_game_id(id);
    request.set_color(color);
    request.set_connected(connected);
    request.set_idempotency_key(key);
    v1::RecordPresenceResponse ignored;
    return stub_->RecordPresence(&context, request, out != nullptr ? out : &ignored);
  }
  grpc::Status Abandon(const std::string& id, v1::Color color, int ply,
                       v1::DeclareAbandonedResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::DeclareAbandonedRequest request;
    request.set_game_id(id);
    request.set_color(color);
    request.set_expected_ply(ply);
    v1::DeclareAbandonedResponse ignored;
    return stub_->DeclareAbandoned(&context, request, out != nullptr ? out : &ignored);
  }
};

TEST_F(BotAndClockTest, BotTurnsAreQueuedAsJobs) {
  v1::CreateGameRequest request = BotGame("english", v1::COLOR_BLACK);  // the bot moves first
  request.mutable_time_per_move()->set_seconds(30);
  const v1::CreateGameResponse created = Create(request);
  std::vector<v1::BotJob> jobs = store_.BotJobs();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].game_id(), created.game_id());
  EXPECT_EQ(jobs[0].ply(), 0);
  EXPECT_EQ(jobs[0].color(), v1::COLOR_BLACK);
  EXPECT_EQ(jobs[0].level(), v1::BOT_LEVEL_EASY);
  EXPECT_EQ(jobs[0].fen(), "B:W21-32:B1-12");
  EXPECT_EQ(jobs[0].deadline().seconds(), created.game().move_deadline().seconds());
  // The job carries the bot seat's token, which the bot uses to move.
  EXPECT_EQ(jobs[0].player_token(), created.black_player_token());
  ASSERT_TRUE(Move(created.game_id(), jobs[0].player_token(), "11-15", 0).ok());
  EXPECT_EQ(store_.BotJobs().size(), 1u);  // the person is to move: no job
  Play(created, "22-18");
  jobs = store_.BotJobs();
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[1].ply(), 2);
  ASSERT_EQ(jobs[1].moves_size(), 2);
  EXPECT_EQ(jobs[1].moves(1), "22-18");
  EXPECT_EQ(jobs[1].initial_fen(), "B:W21-32:B1-12");
}

TEST_F(BotAndClockTest, UndoTakesBackYourMoveAndTheBotsReply) {
  const v1::CreateGameResponse created = Create(BotGame("english", v1::COLOR_WHITE));
  const std::string& id = created.game_id();
  Play(created, "11-15");                              // the person (Black)
  Move(id, created.white_player_token(), "22-18", 1);  // the bot's reply
  v1::UndoMoveResponse undone;
  ASSERT_TRUE(Undo(id, created.black_player_token(), 2, &undone).ok());
  ASSERT_EQ(undone.undone_moves_size(), 2);
  EXPECT_EQ(undone.undone_moves(0), "22-18");  // most recent first
  EXPECT_EQ(undone.undone_moves(1), "11-15");
  EXPECT_EQ(undone.game().ply(), 0);
  EXPECT_EQ(undone.game().fen(), "B:W21-32:B1-12");
  EXPECT_EQ(undone.game().side_to_move(), v1::COLOR_BLACK);
  EXPECT_FALSE(undone.game().has_last_move());
  const v1::GameEvent event = store_.Events(id).back();
  ASSERT_TRUE(event.has_move_undone());
  EXPECT_EQ(event.move_undone().requested_by(), v1::COLOR_BLACK);
  EXPECT_EQ(event.move_undone().fen_after(), undone.game().fen());
  // A retry while nothing else happened gets the first answer again.
  const std::size_t events = store_.Events(id).size();
  v1::UndoMoveResponse retried;
  ASSERT_TRUE(Undo(id, created.black_player_token(), 2, &retried).ok());
  EXPECT_EQ(retried.game().version(), undone.game().version());
  EXPECT_EQ(retried.game().fen(), undone.game().fen());
  ASSERT_EQ(retried.undone_moves_size(), 2);
  EXPECT_EQ(retried.undone_moves(0), "22-18");
  EXPECT_EQ(retried.undone_moves(1), "11-15");
  EXPECT_EQ(store_.Events(id).size(), events);  // nothing written
  // Not a retry: the other seat, or another ply.
  EXPECT_EQ(Undo(id, created.white_player_token(), 2).error_code(), StatusCode::PERMISSION_DENIED);
  const v1::GameState start = Get(id);
  ExpectRefused(Undo(id, created.black_player_token(), 0), StatusCode::FAILED_PRECONDITION,
                "no move", id, start);
  // Once the game moved on, the retry is stale.
  Play(created, "11-15");
  EXPECT_EQ(Undo(id, created.black_player_token(), 2).error_code(), StatusCode::ABORTED);
}

TEST_F(BotAndClockTest, UndoBeforeTheBotRepliedTakesBackOneMove) {
  const v1::CreateGameResponse created = Create(BotGame("english", v1::COLOR_WHITE));
  const std::string& id = created.game_id();
  Play(created, "11-15");
  const std::string stale_job_token = store_.BotJobs().back().player_token();
  v1::UndoMoveResponse undone;
  ASSERT_TRUE(Undo(id, created.black_player_token(), 1, &undone).ok());
  ASSERT_EQ(undone.undone_moves_size(), 1);
  EXPECT_EQ(undone.game().ply(), 0);
  // The bot's job for ply 1 is stale: its move is refused.
  EXPECT_EQ(Move(id, stale_job_token, "22-18", 1).error_code(), StatusCode::ABORTED);
  // The undo retried: the same answer.
  v1::UndoMoveResponse retried;
  ASSERT_TRUE(Undo(id, created.black_player_token(), 1, &retried).ok());
  EXPECT_EQ(retried.game().version(), undone.game().version());
  ASSERT_EQ(retried.undone_moves_size(), 1);
  EXPECT_EQ(retried.undone_moves(0), "11-15");
  // A presence report changes the game's version: the retry is stale then.
  grpc::ClientContext context;
  v1::RecordPresenceRequest presence;
  presence.set_game_id(id);
  presence.set_color(v1::COLOR_BLACK);
  presence.set_connected(true);
  presence.set_idempotency_key("here");
  v1::RecordPresenceResponse reported;
  ASSERT_TRUE(stub_->RecordPresence(&context, presence, &reported).ok());
  EXPECT_EQ(Undo(id, created.black_player_token(), 1).error_code(), StatusCode::ABORTED);
}

TEST_F(BotAndClockTest, UndoRefusals) {
  const v1::CreateGameResponse people = Create(PeopleGame("english"));
  Play(people, "11-15");
  const v1::GameState before = Get(people.game_id());
  ExpectRefused(Undo(people.game_id(), people.black_player_token(), 1),
                StatusCode::FAILED_PRECONDITION, "against a bot", people.game_id(), before);
  ExpectRefused(Undo(people.game_id(), "", 1), StatusCode::INVALID_ARGUMENT, "player_token",
                people.game_id(), before);

  const v1::CreateGameResponse bot = Create(BotGame("english", v1::COLOR_WHITE));
  Play(bot, "11-15");
  const v1::GameState bot_before = Get(bot.game_id());
  ExpectRefused(Undo(bot.game_id(), bot.white_player_token(), 1), StatusCode::PERMISSION_DENIED,
                "bot seat", bot.game_id(), bot_before);
}

TEST_F(BotAndClockTest, AutomaticMoveIsRandomLegalAndIdempotent) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  next_random_ = 4;
  v1::PlayAutomaticMoveResponse response;
  ASSERT_TRUE(Automatic(id, 0, v1::COLOR_WHITE, &response).ok());
  EXPECT_TRUE(response.played());
  EXPECT_TRUE(response.move().automatic());
  EXPECT_EQ(response.move().consecutive_automatic_moves(), 1);
  EXPECT_EQ(response.game().ply(), 1);
  EXPECT_EQ(response.game().white().consecutive_automatic_moves(), 1);
  // The clock calling again for the same ply changes nothing.
  v1::PlayAutomaticMoveResponse again;
  ASSERT_TRUE(Automatic(id, 0, v1::COLOR_WHITE, &again).ok());
  EXPECT_FALSE(again.played());
  EXPECT_EQ(again.game().version(), response.game().version());
  // Wrong side, bad requests.
  const v1::GameState now = Get(id);
  ExpectRefused(Automatic(id, 1, v1::COLOR_WHITE), StatusCode::FAILED_PRECONDITION, "to move", id,
                now);
  ExpectRefused(Automatic(id, 1, v1::COLOR_UNSPECIFIED), StatusCode::INVALID_ARGUMENT, "color", id,
                now);
  EXPECT_EQ(Automatic("nosuchgame", 0, v1::COLOR_WHITE).error_code(), StatusCode::NOT_FOUND);
}

TEST_F(BotAndClockTest, AutomaticMoveWaitsForTheDeadline) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_time_per_move()->set_seconds(30);
  const v1::CreateGameResponse created = Create(request);
  v1::PlayAutomaticMoveResponse early;
  ASSERT_TRUE(Automatic(created.game_id(), 0, v1::COLOR_WHITE, &early).ok());
  EXPECT_FALSE(early.played());
  now_ += absl::Seconds(30);
  v1::PlayAutomaticMoveResponse due;
  ASSERT_TRUE(Automatic(created.game_id(), 0, v1::COLOR_WHITE, &due).ok());
  EXPECT_TRUE(due.played());
}

TEST_F(BotAndClockTest, ThreeAutomaticMovesInARowLose) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  auto automatic_white = [&] {
    const v1::GameState game = Get(id);
    v1::PlayAutomaticMoveResponse response;
    EXPECT_TRUE(Automatic(id, game.ply(), v1::COLOR_WHITE, &response).ok());
    return response;
  };
  auto black_moves = [&] {
    grpc::ClientContext context;
    v1::ListLegalMovesRequest list;
    list.set_game_id(id);
    v1::ListLegalMovesResponse moves;
    ASSERT_TRUE(stub_->ListLegalMoves(&context, list, &moves).ok());
    Play(created, moves.moves(0).notation());
  };
  automatic_white();
  black_moves();
  automatic_white();
  black_moves();
  // White moves by itself: the count starts again.
  {
    grpc::ClientContext context;
    v1::ListLegalMovesRequest list;
    list.set_game_id(id);
    v1::ListLegalMovesResponse moves;
    ASSERT_TRUE(stub_->ListLegalMoves(&context, list, &moves).ok());
    const v1::SubmitMoveResponse own = Play(created, moves.moves(0).notation());
    EXPECT_EQ(own.game().white().consecutive_automatic_moves(), 0);
  }
  for (int i = 0; i < 2; ++i) {
    black_moves();
    EXPECT_EQ(automatic_white().game().result(), v1::GAME_RESULT_ONGOING);
  }
  black_moves();
  const v1::PlayAutomaticMoveResponse third = automatic_white();
  EXPECT_EQ(third.move().consecutive_automatic_moves(), 3);
  EXPECT_EQ(third.game().result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(third.game().reason(), v1::RESULT_REASON_TIMEOUTS);
  EXPECT_FALSE(third.move().has_next_move_deadline());
  EXPECT_EQ(store_.Events(id).back().game_ended().by(), v1::COLOR_WHITE);
  // The clock's retry after the end is a no-op.
  v1::PlayAutomaticMoveResponse retry;
  ASSERT_TRUE(Automatic(id, third.game().ply() - 1, v1::COLOR_WHITE, &retry).ok());
  EXPECT_FALSE(retry.played());
}

TEST_F(BotAndClockTest, PresenceIsPublishedOncePerChange) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  v1::RecordPresenceResponse response;
  // Nobody has connected yet: a disconnect changes nothing.
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, false, "k0", &response).ok());
  EXPECT_FALSE(response.changed());
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, true, "hello", &response).ok());
  EXPECT_TRUE(response.changed());
  EXPECT_TRUE(store_.Events(id).back().has_seat_connected());
  EXPECT_TRUE(Get(id).black().connected());
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, false, "k1", &response).ok());
  EXPECT_TRUE(response.changed());
  const v1::GameEvent gone = store_.Events(id).back();
  ASSERT_TRUE(gone.has_seat_disconnected());
  EXPECT_EQ(gone.seat_disconnected().abandon_deadline().seconds(), absl::ToUnixSeconds(now_) + 120);
  EXPECT_FALSE(Get(id).black().connected());
  // Already disconnected: nothing changes. The same key answers as before.
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, false, "k2", &response).ok());
  EXPECT_FALSE(response.changed());
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, true, "k3", &response).ok());
  EXPECT_TRUE(response.changed());
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, false, "k1", &response).ok());
  EXPECT_TRUE(response.changed());
  EXPECT_TRUE(Get(id).black().connected());  // the replayed key changed nothing
  EXPECT_EQ(Presence(id, v1::COLOR_BLACK, false, "", &response).error_code(),
            StatusCode::INVALID_ARGUMENT);
  // A key already used with another request is refused and changes nothing.
  const int64_t version = Get(id).version();
  EXPECT_EQ(Presence(id, v1::COLOR_BLACK, true, "k1").error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Presence(id, v1::COLOR_WHITE, false, "k1").error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Get(id).version(), version);
  // A bot seat is always present.
  const v1::CreateGameResponse bot = Create(BotGame("english", v1::COLOR_WHITE));
  EXPECT_EQ(Presence(bot.game_id(), v1::COLOR_WHITE, false, "k4").error_code(),
            StatusCode::FAILED_PRECONDITION);
}

TEST_F(BotAndClockTest, AbandoningLoses) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  v1::DeclareAbandonedResponse response;
  ASSERT_TRUE(Abandon(id, v1::COLOR_WHITE, 0, &response).ok());
  EXPECT_EQ(response.game().result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(response.game().reason(), v1::RESULT_REASON_ABANDONED);
  EXPECT_TRUE(Abandon(id, v1::COLOR_WHITE, 0).ok());  // retry
  EXPECT_EQ(Abandon(id, v1::COLOR_BLACK, 0).error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(store_.Results().size(), 1u);
}

TEST_F(BotAndClockTest, TheComputerPlaysForAnAbsentPlayerWhenAsked) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.mutable_options()->set_computer_plays_for_absent(true);
  const v1::CreateGameResponse created = Create(request);
  const std::string& id = created.game_id();
  // Black (to move) leaves: the computer takes the seat and gets a job.
  v1::DeclareAbandonedResponse response;
  ASSERT_TRUE(Abandon(id, v1::COLOR_BLACK, 0, &response).ok());
  EXPECT_EQ(response.game().result(), v1::GAME_RESULT_ONGOING);
  EXPECT_TRUE(response.game().black().computer_playing());
  ASSERT_EQ(store_.BotJobs().size(), 1u);
  const v1::BotJob job = store_.BotJobs()[0];
  EXPECT_EQ(job.color(), v1::COLOR_BLACK);
  EXPECT_NE(job.player_token(), created.black_player_token());  // a stand-in token
  ASSERT_TRUE(Move(id, job.player_token(), "11-15", 0).ok());
  // The player comes back: the stand-in token stops working.
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, false, "away", nullptr).ok());
  ASSERT_TRUE(Presence(id, v1::COLOR_BLACK, true, "back", nullptr).ok());
  EXPECT_FALSE(Get(id).black().computer_playing());
  Play(created, "22-18");
  EXPECT_EQ(Move(id, job.player_token(), "15x22", 2).error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(Move(id, created.black_player_token(), "15x22", 2).ok());
}

}  // namespace
}  // namespace draughts::game_state::testing
