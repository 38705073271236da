// Two game_state processes on one Redis: racing replicas, a replica killed
// mid-game, WatchGame resumed on the other replica, CreateGame retried on
// the other replica, and SIGTERM.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <mutex>
#include <thread>

#include "integration_env.h"

namespace draughts::game_state::testing {
namespace {

class ReplicasTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = TestRedisAddress();
    ASSERT_TRUE(redis.ok()) << redis.status();
    redis_ = *redis;
    prefix_ = UniquePrefix();
    for (int i = 0; i < 2; ++i) {
      absl::StatusOr<std::unique_ptr<ReplicaProcess>> replica = StartReplica(redis_, prefix_);
      ASSERT_TRUE(replica.ok()) << replica.status();
      replicas_.push_back(*std::move(replica));
      stubs_.push_back(StubFor(replicas_.back()->address()));
    }
  }

  v1::CreateGameResponse NewGame(const std::string& variant = "international") {
    v1::CreateGameResponse created;
    grpc::Status status = CreateGame(*stubs_[0], PeopleGameRequest(variant), &created);
    EXPECT_TRUE(status.ok()) << StatusText(status);
    return created;
  }

  static const std::string& TokenFor(const v1::CreateGameResponse& created, v1::Color color) {
    return color == v1::COLOR_WHITE ? created.white_player_token() : created.black_player_token();
  }

  std::string redis_;
  std::string prefix_;
  std::vector<std::unique_ptr<ReplicaProcess>> replicas_;
  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
};

TEST_F(ReplicasTest, RacingReplicasAcceptExactlyOneMove) {
  const v1::CreateGameResponse created = NewGame();
  const std::string& id = created.game_id();
  for (int round = 0; round < 8; ++round) {
    v1::ListLegalMovesResponse legal;
    ASSERT_TRUE(ListMoves(*stubs_[round % 2], id, &legal).ok());
    if (legal.moves_size() < 2) break;
    const int contenders = std::min(legal.moves_size(), 6);
    const std::string& token = TokenFor(created, legal.side_to_move());
    std::latch start(contenders);
    std::vector<grpc::Status> results(static_cast<std::size_t>(contenders));
    std::vector<std::thread> threads;
    for (int i = 0; i < contenders; ++i) {
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        // Different moves, sent to both replicas at once.
        results[static_cast<std::size_t>(i)] =
            SubmitMove(*stubs_[static_cast<std::size_t>(i % 2)], id, token,
                       legal.moves(i).notation(), legal.ply());
      });
    }
    for (std::thread& thread : threads) thread.join();
    int accepted = -1;
    for (int i = 0; i < contenders; ++i) {
      const grpc::Status& status = results[static_cast<std::size_t>(i)];
      if (status.ok()) {
        EXPECT_EQ(accepted, -1) << "two moves accepted at ply " << legal.ply();
        accepted = i;
      } else {
        EXPECT_EQ(status.error_code(), grpc::StatusCode::ABORTED) << StatusText(status);
      }
    }
    ASSERT_NE(accepted, -1) << "no move accepted at ply " << legal.ply();
    v1::GameState game;
    ASSERT_TRUE(GetGame(*stubs_[1], id, &game).ok());
    EXPECT_EQ(game.ply(), legal.ply() + 1);
    ASSERT_EQ(game.moves_size(), legal.ply() + 1);
    EXPECT_EQ(game.moves(legal.ply()), legal.moves(accepted).notation());
  }
  // One event per accepted move, none for the losers.
  platform::RedisClient redis(*platform::ParseRedisAddress(redis_));
  v1::GameState game;
  ASSERT_TRUE(GetGame(*stubs_[0], id, &game).ok());
  const auto events =
      ReadStream<v1::GameEvent>(redis, absl::StrCat(prefix_, "game:{", id, "}:events"));
  EXPECT_EQ(static_cast<int>(events.size()), game.ply() + 1);
}

TEST_F(ReplicasTest, AReplicaKilledMidGameLosesNothingAcknowledged) {
  const v1::CreateGameResponse created = NewGame();
  const std::string id = created.game_id();
  std::mutex mu;
  std::vector<std::string> acknowledged;
  std::atomic<bool> stop{false};
  std::atomic<int> acks{0};
  // Plays on replica 0 as fast as it can until that replica dies.
  std::thread player([&] {
    while (!stop.load()) {
      v1::ListLegalMovesResponse legal;
      if (!ListMoves(*stubs_[0], id, &legal).ok() || legal.moves_size() == 0) return;
      const std::string move = legal.moves(legal.ply() % legal.moves_size()).notation();
      v1::SubmitMoveResponse response;
      if (!SubmitMove(*stubs_[0], id, TokenFor(created, legal.side_to_move()), move, legal.ply(),
                      &response)
               .ok()) {
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      acknowledged.push_back(response.move().notation());
      acks.fetch_add(1);
    }
  });
  while (acks.load() < 12) absl::SleepFor(absl::Milliseconds(5));
  replicas_[0]->Kill();  // mid-request, most likely
  stop.store(true);
  player.join();

  v1::GameState game;
  ASSERT_TRUE(GetGame(*stubs_[1], id, &game).ok());
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_GE(game.moves_size(), static_cast<int>(acknowledged.size()));
  // At most the one unacknowledged move in flight may have landed too.
  EXPECT_LE(game.moves_size(), static_cast<int>(acknowledged.size()) + 1);
  for (std::size_t i = 0; i < acknowledged.size(); ++i) {
    EXPECT_EQ(game.moves(static_cast<int>(i)), acknowledged[i]) << "move " << i;
  }
  // The game goes on on the surviving replica, to its end.
  for (int i = 0; i < 400 && game.result() == v1::GAME_RESULT_ONGOING; ++i) {
    v1::ListLegalMovesResponse legal;
    ASSERT_TRUE(ListMoves(*stubs_[1], id, &legal).ok());
    ASSERT_GT(legal.moves_size(), 0);
    v1::SubmitMoveResponse response;
    const grpc::Status status =
        SubmitMove(*stubs_[1], id, TokenFor(created, legal.side_to_move()),
                   legal.moves(i % legal.moves_size()).notation(), legal.ply(), &response);
    ASSERT_TRUE(status.ok()) << StatusText(status);
    game = response.game();
  }
  EXPECT_NE(game.result(), v1::GAME_RESULT_ONGOING);
}

TEST_F(ReplicasTest, WatchResumesOnTheOtherReplica) {
  const v1::CreateGameResponse created = NewGame();
  const std::string id = created.game_id();
  // First watcher on replica 0: GameCreated and two moves, then it drops.
  std::vector<v1::GameEvent> seen;
  {
    grpc::ClientContext context;
    v1::WatchGameRequest request;
    request.set_game_id(id);
    auto reader = stubs_[0]->WatchGame(&context, request);
    ASSERT_TRUE(SubmitMove(*stubs_[1], id, created.white_player_token(), "32-28", 0).ok());
    ASSERT_TRUE(SubmitMove(*stubs_[0], id, created.black_player_token(), "19-23", 1).ok());
    v1::GameEvent event;
    while (seen.size() < 3 && reader->Read(&event)) seen.push_back(event);
    context.TryCancel();
  }
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2].move_played().notation(), "19-23");
  // More happens while nobody watches.
  ASSERT_TRUE(SubmitMove(*stubs_[0], id, created.white_player_token(), "28x19", 2).ok());
  // Resume on replica 1 from the last event seen; the game then ends.
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  v1::WatchGameRequest request;
  request.set_game_id(id);
  request.set_from_event_id(seen.back().event_id());
  auto reader = stubs_[1]->WatchGame(&context, request);
  std::thread finisher([&] {
    absl::SleepFor(absl::Milliseconds(300));
    grpc::ClientContext resign_context;
    v1::ResignRequest resign;
    resign.set_game_id(id);
    resign.set_player_token(created.black_player_token());
    resign.set_expected_ply(3);
    v1::ResignResponse response;
    EXPECT_TRUE(stubs_[0]->Resign(&resign_context, resign, &response).ok());
  });
  std::vector<v1::GameEvent> rest;
  v1::GameEvent event;
  while (reader->Read(&event)) rest.push_back(event);
  const grpc::Status status = reader->Finish();
  finisher.join();
  EXPECT_TRUE(status.ok()) << StatusText(status);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].move_played().notation(), "28x19");
  EXPECT_TRUE(rest[1].has_game_ended());
  EXPECT_EQ(rest[0].version(), seen.back().version() + 1);
}

TEST_F(ReplicasTest, CreateGameRetriedOnTheOtherReplicaReturnsTheSameTokens) {
  const v1::CreateGameRequest request = PeopleGameRequest("english");
  v1::CreateGameResponse first;
  v1::CreateGameResponse retry;
  ASSERT_TRUE(CreateGame(*stubs_[0], request, &first).ok());
  ASSERT_TRUE(CreateGame(*stubs_[1], request, &retry).ok());
  EXPECT_EQ(retry.game_id(), first.game_id());
  EXPECT_EQ(retry.white_player_token(), first.white_player_token());
  EXPECT_EQ(retry.black_player_token(), first.black_player_token());
}

TEST_F(ReplicasTest, SigtermEndsWatchersAndExitsCleanly) {
  const v1::CreateGameResponse created = NewGame();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  v1::WatchGameRequest request;
  request.set_game_id(created.game_id());
  auto reader = stubs_[0]->WatchGame(&context, request);
  v1::GameEvent event;
  ASSERT_TRUE(reader->Read(&event));  // GameCreated: the stream is live
  absl::StatusOr<int> exit_code = replicas_[0]->Terminate();
  while (reader->Read(&event)) {
  }
  const grpc::Status status = reader->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE) << StatusText(status);
  ASSERT_TRUE(exit_code.ok()) << exit_code.status();
  EXPECT_EQ(*exit_code, 0);
}

}  // namespace
}  // namespace draughts::game_state::testing
