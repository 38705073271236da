// Whole games played through two replicas (calls alternate between them)
// to every kind of result, checking the final event, the result record the
// relay forwards to the results stream, and bot jobs on the jobs stream.
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "integration_env.h"

namespace draughts::game_state::testing {
namespace {

class GameResultsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::string> redis = TestRedisAddress();
    if (!redis.ok()) {
      setup_error_ = new std::string(redis.status().ToString());
      return;
    }
    redis_ = new std::string(*redis);
    prefix_ = new std::string(UniquePrefix());
    replicas_ = new std::vector<std::unique_ptr<ReplicaProcess>>();
    for (int i = 0; i < 2; ++i) {
      absl::StatusOr<std::unique_ptr<ReplicaProcess>> replica = StartReplica(*redis_, *prefix_);
      if (!replica.ok()) {
        setup_error_ = new std::string(replica.status().ToString());
        return;
      }
      replicas_->push_back(*std::move(replica));
    }
  }
  static void TearDownTestSuite() {
    delete replicas_;
    delete redis_;
    delete prefix_;
    delete setup_error_;
    replicas_ = nullptr;
  }

  void SetUp() override {
    ASSERT_EQ(setup_error_, nullptr) << *setup_error_;
    for (const auto& replica : *replicas_) stubs_.push_back(StubFor(replica->address()));
    redis_client_ = std::make_unique<platform::RedisClient>(*platform::ParseRedisAddress(*redis_));
  }

  // The replica for the next call: they take turns.
  v1::GameService::Stub& Next() { return *stubs_[static_cast<std::size_t>(calls_++ % 2)]; }

  v1::CreateGameResponse Start(const v1::CreateGameRequest& request) {
    v1::CreateGameResponse created;
    grpc::Status status = CreateGame(Next(), request, &created);
    EXPECT_TRUE(status.ok()) << StatusText(status);
    created_ = created;
    return created;
  }

  // Plays `move` for the side to move.
  v1::GameState Play(const std::string& move) {
    v1::GameState game;
    EXPECT_TRUE(GetGame(Next(), created_.game_id(), &game).ok());
    const std::string& token = game.side_to_move() == v1::COLOR_WHITE
                                   ? created_.white_player_token()
                                   : created_.black_player_token();
    v1::SubmitMoveResponse response;
    grpc::Status status =
        SubmitMove(Next(), created_.game_id(), token, move, game.ply(), &response);
    EXPECT_TRUE(status.ok()) << move << ": " << StatusText(status);
    return response.game();
  }

  // The game's last event is GameEnded with this result, and the results
  // stream holds exactly one record of it.
  void ExpectEnded(v1::GameResult result, v1::ResultReason reason) {
    v1::GameState game;
    ASSERT_TRUE(GetGame(Next(), created_.game_id(), &game).ok());
    EXPECT_EQ(game.result(), result);
    EXPECT_EQ(game.reason(), reason);
    // The relay forwards after the call has returned.
    ASSERT_TRUE(WaitUntilForwarded(*redis_client_, *prefix_, created_.game_id()));
    const auto events = ReadStream<v1::GameEvent>(
        *redis_client_, absl::StrCat(*prefix_, "game:{", created_.game_id(), "}:events"));
    ASSERT_FALSE(events.empty());
    EXPECT_TRUE(events.back().has_game_ended());
    EXPECT_EQ(events.back().game_ended().reason(), reason);
    int records = 0;
    for (const v1::ResultRecord& record :
         ReadStream<v1::ResultRecord>(*redis_client_, absl::StrCat(*prefix_, "draughts:results"))) {
      if (record.game_id() != created_.game_id()) continue;
      ++records;
      EXPECT_EQ(record.result(), result);
      EXPECT_EQ(record.reason(), reason);
      EXPECT_EQ(record.ply(), game.ply());
      EXPECT_EQ(record.initial_fen(), game.initial_fen());
      EXPECT_EQ(record.final_fen(), game.fen());
      EXPECT_EQ(record.moves_size(), game.moves_size());
      EXPECT_EQ(record.ended_by(), events.back().game_ended().by());
    }
    EXPECT_EQ(records, 1);
    // The clock heard of every change that moved the game on, the end last.
    std::vector<v1::ClockUpdate> updates;
    for (const v1::ClockUpdate& update : ReadStream<v1::ClockUpdate>(
             *redis_client_, absl::StrCat(*prefix_, "draughts:deadlines"))) {
      if (update.game_id() == created_.game_id()) updates.push_back(update);
    }
    ASSERT_GE(updates.size(), 2u);  // creation and the end at least
    EXPECT_EQ(updates.front().game_version(), 1);
    EXPECT_TRUE(updates.back().game_over());
    EXPECT_EQ(updates.back().game_version(), game.version());
  }

  static std::string* redis_;
  static std::string* prefix_;
  static std::string* setup_error_;
  static std::vector<std::unique_ptr<ReplicaProcess>>* replicas_;
  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
  std::unique_ptr<platform::RedisClient> redis_client_;
  v1::CreateGameResponse created_;
  int calls_ = 0;
};

std::string* GameResultsTest::redis_ = nullptr;
std::string* GameResultsTest::prefix_ = nullptr;
std::string* GameResultsTest::setup_error_ = nullptr;
std::vector<std::unique_ptr<ReplicaProcess>>* GameResultsTest::replicas_ = nullptr;

TEST_F(GameResultsTest, NoPiecesLeft) {
  Start(PeopleGameRequest("english", "B:W10:B6"));
  Play("6x15");
  ExpectEnded(v1::GAME_RESULT_BLACK_WINS, v1::RESULT_REASON_NO_PIECES);
}

TEST_F(GameResultsTest, NoMovesLeft) {
  Start(PeopleGameRequest("english", "B:W32:B23,24,28"));
  Play("24-27");
  ExpectEnded(v1::GAME_RESULT_BLACK_WINS, v1::RESULT_REASON_NO_MOVES);
}

TEST_F(GameResultsTest, Resignation) {
  const v1::CreateGameResponse created = Start(PeopleGameRequest("international"));
  Play("32-28");
  Play("19-23");
  grpc::ClientContext context;
  v1::ResignRequest request;
  request.set_game_id(created.game_id());
  request.set_player_token(created.white_player_token());
  request.set_expected_ply(2);
  v1::ResignResponse response;
  ASSERT_TRUE(Next().Resign(&context, request, &response).ok());
  ExpectEnded(v1::GAME_RESULT_BLACK_WINS, v1::RESULT_REASON_RESIGNATION);
}

TEST_F(GameResultsTest, DrawAgreed) {
  const v1::CreateGameResponse created = Start(PeopleGameRequest("international"));
  Play("33-29");
  {
    grpc::ClientContext context;
    v1::OfferDrawRequest request;
    request.set_game_id(created.game_id());
    request.set_player_token(created.black_player_token());
    request.set_expected_ply(1);
    v1::OfferDrawResponse response;
    ASSERT_TRUE(Next().OfferDraw(&context, request, &response).ok());
    EXPECT_FALSE(response.declined());
  }
  grpc::ClientContext context;
  v1::RespondDrawRequest request;
  request.set_game_id(created.game_id());
  request.set_player_token(created.white_player_token());
  request.set_expected_ply(1);
  request.set_accept(true);
  v1::RespondDrawResponse response;
  ASSERT_TRUE(Next().RespondDraw(&context, request, &response).ok());
  ExpectEnded(v1::GAME_RESULT_DRAW, v1::RESULT_REASON_DRAW_AGREED);
}

TEST_F(GameResultsTest, ThreefoldRepetition) {
  Start(PeopleGameRequest("english", "W:WK29:BK4"));
  for (int round = 0; round < 2; ++round) {
    for (const char* move : {"29-25", "4-8", "25-29", "8-4"}) Play(move);
  }
  ExpectEnded(v1::GAME_RESULT_DRAW, v1::RESULT_REASON_THREEFOLD_REPETITION);
}

TEST_F(GameResultsTest, FortyMoveRuleCountedInTotal) {
  v1::CreateGameRequest request = PeopleGameRequest("english", "W:WK25:BK3");
  request.mutable_options()->set_forty_move_rule_in_total(true);
  Start(request);
  // The kings walk a 4-cycle and a 6-cycle: no position comes back a
  // third time before the 40th ply without a capture or a man move.
  const std::vector<std::string> white = {"25-22", "22-26", "26-30", "30-25"};
  const std::vector<std::string> black = {"3-8", "8-12", "12-16", "16-11", "11-7", "7-3"};
  v1::GameState game;
  for (int ply = 0; ply < 40; ++ply) {
    ASSERT_EQ(game.result() == v1::GAME_RESULT_ONGOING || ply == 0, true) << "ended at " << ply;
    game = Play(ply % 2 == 0 ? white[static_cast<std::size_t>(ply / 2) % 4]
                             : black[static_cast<std::size_t>(ply / 2) % 6]);
  }
  EXPECT_EQ(game.ply(), 40);
  ExpectEnded(v1::GAME_RESULT_DRAW, v1::RESULT_REASON_FORTY_MOVE_RULE);
}

TEST_F(GameResultsTest, ThreeAutomaticMovesInARow) {
  const v1::CreateGameResponse created = Start(PeopleGameRequest("international"));
  for (int i = 0; i < 3; ++i) {
    v1::GameState game;
    ASSERT_TRUE(GetGame(Next(), created.game_id(), &game).ok());
    grpc::ClientContext context;
    v1::PlayAutomaticMoveRequest request;
    request.set_game_id(created.game_id());
    request.set_expected_ply(game.ply());
    request.set_color(v1::COLOR_WHITE);
    v1::PlayAutomaticMoveResponse response;
    ASSERT_TRUE(Next().PlayAutomaticMove(&context, request, &response).ok());
    EXPECT_TRUE(response.played());
    // The clock's retry on the other replica plays nothing more.
    grpc::ClientContext retry_context;
    v1::PlayAutomaticMoveResponse retry;
    ASSERT_TRUE(Next().PlayAutomaticMove(&retry_context, request, &retry).ok());
    EXPECT_FALSE(retry.played());
    if (i == 2) break;
    v1::ListLegalMovesResponse legal;
    ASSERT_TRUE(ListMoves(Next(), created.game_id(), &legal).ok());
    Play(legal.moves(0).notation());
  }
  ExpectEnded(v1::GAME_RESULT_BLACK_WINS, v1::RESULT_REASON_TIMEOUTS);
}

TEST_F(GameResultsTest, BotJobsReachTheJobsStream) {
  v1::CreateGameRequest request = PeopleGameRequest("english");
  request.mutable_white()->Clear();
  request.mutable_white()->set_kind(v1::SEAT_KIND_BOT);
  request.mutable_white()->set_bot_level(v1::BOT_LEVEL_HARD);
  request.mutable_white()->set_display_name("Computer (Hard)");
  const v1::CreateGameResponse created = Start(request);
  Play("11-15");  // Black, the person, moves first; then it is the bot's turn
  ASSERT_TRUE(WaitUntilForwarded(*redis_client_, *prefix_, created.game_id()));
  std::vector<v1::BotJob> jobs;
  for (const v1::BotJob& job :
       ReadStream<v1::BotJob>(*redis_client_, absl::StrCat(*prefix_, "draughts:bot-jobs"))) {
    if (job.game_id() == created.game_id()) jobs.push_back(job);
  }
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].ply(), 1);
  EXPECT_EQ(jobs[0].color(), v1::COLOR_WHITE);
  EXPECT_EQ(jobs[0].level(), v1::BOT_LEVEL_HARD);
  // The worker answers with the job's token.
  EXPECT_TRUE(SubmitMove(Next(), created.game_id(), jobs[0].player_token(), "22-18", 1).ok());
}

}  // namespace
}  // namespace draughts::game_state::testing
