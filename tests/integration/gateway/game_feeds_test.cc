// SharedFeeds (services/gateway/shared_feeds.h) for games on a real GameService (the
// game_state library over the test Redis, GatewayEnv): the sockets of one
// game share one WatchGame stream and each gets every event once, in order;
// a socket whose resume point the feed no longer holds gets a stream of its
// own with the same events; the last socket leaving stops the stream.
#include "gateway/game_feeds.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/session_store.h"
#include "gateway_env.h"

namespace draughts::gateway::testing {
namespace {

// What one socket got: event ids and frames in order, and the end.
class Recorder {
 public:
  GameFeeds::EventHandler OnEvent() {
    return [this](std::shared_ptr<const FeedEvent> fed) {
      absl::MutexLock lock(&mu_);
      ids_.push_back(fed->event.event_id());
      frames_.push_back(fed->frame);
    };
  }
  GameFeeds::DoneHandler OnDone() {
    return [this](const grpc::Status& status) {
      absl::MutexLock lock(&mu_);
      done_ = true;
      done_code_ = status.error_code();
    };
  }
  // Waits up to 20 s for `count` events; returns the ids seen.
  std::vector<std::string> WaitFor(std::size_t count) {
    absl::MutexLock lock(&mu_);
    auto enough = [&] { return ids_.size() >= count; };
    mu_.AwaitWithTimeout(absl::Condition(&enough), absl::Seconds(20));
    return ids_;
  }
  bool WaitDone() {
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(absl::Condition(&done_), absl::Seconds(20));
    return done_;
  }
  std::vector<std::shared_ptr<const std::string>> frames() {
    absl::MutexLock lock(&mu_);
    return frames_;
  }
  std::size_t size() {
    absl::MutexLock lock(&mu_);
    return ids_.size();
  }
  grpc::StatusCode done_code() {
    absl::MutexLock lock(&mu_);
    return done_code_;
  }

 private:
  absl::Mutex mu_;
  std::vector<std::string> ids_ ABSL_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<const std::string>> frames_ ABSL_GUARDED_BY(mu_);
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  grpc::StatusCode done_code_ ABSL_GUARDED_BY(mu_) = grpc::StatusCode::OK;
};

class GameFeedsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const absl::Status started = env_.Start();
    ASSERT_TRUE(started.ok()) << started;
    stub_ = v1::GameService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", env_.game_state_port()), grpc::InsecureChannelCredentials()));
    feeds_ = std::make_unique<GameFeeds>(
        [this](const v1::WatchGameRequest& request, grpc::ClientContext* context,
               grpc::ClientReadReactor<v1::GameEvent>* reactor) {
          stub_->async()->WatchGame(context, &request, reactor);
        },
        GameFeedKind());
    v1::CreateGameRequest create;
    create.set_idempotency_key(absl::StrCat("feeds-test-", NewSessionId()));
    create.set_variant("international");
    create.mutable_white()->set_kind(v1::SEAT_KIND_GUEST);
    create.mutable_white()->set_player_id("white-player");
    create.mutable_white()->set_display_name("White");
    create.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
    create.mutable_black()->set_player_id("black-player");
    create.mutable_black()->set_display_name("Black");
    grpc::ClientContext context;
    const grpc::Status status = stub_->CreateGame(&context, create, &game_);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  void TearDown() override { feeds_.reset(); }

  // Plays the first legal move at the game's ply.
  void PlayOne() {
    v1::ListLegalMovesRequest list;
    list.set_game_id(game_.game_id());
    v1::ListLegalMovesResponse moves;
    grpc::ClientContext list_context;
    ASSERT_TRUE(stub_->ListLegalMoves(&list_context, list, &moves).ok());
    ASSERT_GT(moves.moves_size(), 0);
    v1::SubmitMoveRequest move;
    move.set_game_id(game_.game_id());
    move.set_player_token(ply_ % 2 == 0 ? game_.white_player_token() : game_.black_player_token());
    move.set_move(moves.moves(0).notation());
    move.set_expected_ply(ply_);
    v1::SubmitMoveResponse moved;
    grpc::ClientContext move_context;
    const grpc::Status status = stub_->SubmitMove(&move_context, move, &moved);
    ASSERT_TRUE(status.ok()) << status.error_message();
    ++ply_;
  }

  void Resign() {
    v1::ResignRequest resign;
    resign.set_game_id(game_.game_id());
    resign.set_player_token(ply_ % 2 == 0 ? game_.white_player_token()
                                          : game_.black_player_token());
    resign.set_expected_ply(ply_);
    v1::ResignResponse resigned;
    grpc::ClientContext context;
    const grpc::Status status = stub_->Resign(&context, resign, &resigned);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }

  GatewayEnv env_;
  std::unique_ptr<v1::GameService::Stub> stub_;
  std::unique_ptr<GameFeeds> feeds_;
  v1::CreateGameResponse game_;
  int ply_ = 0;
};

TEST_F(GameFeedsTest, SocketsOfAGameShareOneStreamAndGetEveryEventOnceInOrder) {
  Recorder first;
  Recorder second;
  auto first_watch = feeds_->Watch(game_.game_id(), "", first.OnEvent(), first.OnDone());
  // GameCreated (and whatever else the game starts with) before any move.
  const std::size_t opening = first.WaitFor(1).size();
  ASSERT_GE(opening, 1u);
  auto second_watch = feeds_->Watch(game_.game_id(), "", second.OnEvent(), second.OnDone());
  for (int i = 0; i < 6; ++i) ASSERT_NO_FATAL_FAILURE(PlayOne());
  const std::vector<std::string> seen = first.WaitFor(opening + 6);
  ASSERT_GE(seen.size(), opening + 6);
  EXPECT_EQ(second.WaitFor(seen.size()), seen);
  EXPECT_EQ(feeds_->streams_started(), 1);
  EXPECT_EQ(feeds_->shared_feeds(), 1u);
  // Printed once: both sockets queue the same frame object.
  const auto first_frames = first.frames();
  const auto second_frames = second.frames();
  ASSERT_EQ(first_frames.size(), second_frames.size());
  for (std::size_t i = 0; i < first_frames.size(); ++i) {
    EXPECT_EQ(first_frames[i].get(), second_frames[i].get()) << i;
    EXPECT_NE(first_frames[i]->find(seen[i]), std::string::npos) << *first_frames[i];
  }

  // A reconnect resuming after the third event joins the feed and gets the
  // rest once.
  Recorder resumed;
  auto resumed_watch = feeds_->Watch(game_.game_id(), seen[2], resumed.OnEvent(), resumed.OnDone());
  EXPECT_EQ(resumed.WaitFor(seen.size() - 3),
            std::vector<std::string>(seen.begin() + 3, seen.end()));
  EXPECT_EQ(feeds_->streams_started(), 1);

  // The game ends: every socket gets the last event, then the end.
  ASSERT_NO_FATAL_FAILURE(Resign());
  EXPECT_TRUE(first.WaitDone());
  EXPECT_TRUE(second.WaitDone());
  EXPECT_TRUE(resumed.WaitDone());
  EXPECT_EQ(first.done_code(), grpc::StatusCode::OK);
  EXPECT_EQ(second.size(), first.size());
  EXPECT_EQ(resumed.size(), first.size() - 3);
  EXPECT_EQ(feeds_->shared_feeds(), 0u);
}

TEST_F(GameFeedsTest, ASocketTheFeedCannotReplayGetsAStreamOfItsOwn) {
  Recorder early;
  auto early_watch = feeds_->Watch(game_.game_id(), "", early.OnEvent(), early.OnDone());
  const int moves = static_cast<int>(GameFeeds::kKeptEvents) + 4;
  for (int i = 0; i < moves; ++i) ASSERT_NO_FATAL_FAILURE(PlayOne());
  const std::vector<std::string> seen = early.WaitFor(moves + 1);
  ASSERT_GE(seen.size(), static_cast<std::size_t>(moves + 1));
  // The whole game from its first event: no longer kept by the feed.
  Recorder late;
  auto late_watch = feeds_->Watch(game_.game_id(), "", late.OnEvent(), late.OnDone());
  EXPECT_EQ(late.WaitFor(seen.size()), seen);
  EXPECT_EQ(feeds_->streams_started(), 2);
  EXPECT_EQ(feeds_->shared_feeds(), 1u);
  ASSERT_NO_FATAL_FAILURE(PlayOne());
  EXPECT_EQ(late.WaitFor(seen.size() + 1), early.WaitFor(seen.size() + 1));
}

TEST_F(GameFeedsTest, TheLastSocketLeavingStopsTheStream) {
  Recorder first;
  Recorder second;
  auto first_watch = feeds_->Watch(game_.game_id(), "", first.OnEvent(), first.OnDone());
  auto second_watch = feeds_->Watch(game_.game_id(), "", second.OnEvent(), second.OnDone());
  ASSERT_GE(first.WaitFor(1).size(), 1u);
  first_watch->Cancel();
  EXPECT_EQ(feeds_->shared_feeds(), 1u);
  ASSERT_NO_FATAL_FAILURE(PlayOne());
  const std::size_t got = second.WaitFor(2).size();
  ASSERT_GE(got, 2u);
  EXPECT_LT(first.size(), got);  // nothing handed to a socket that left
  second_watch->Cancel();
  EXPECT_EQ(feeds_->shared_feeds(), 0u);
  // Cancelled sockets get no end (they asked for it), and a new socket
  // starts a new stream from where it asks.
  Recorder third;
  const std::vector<std::string> seen = second.WaitFor(got);
  auto third_watch = feeds_->Watch(game_.game_id(), seen.back(), third.OnEvent(), third.OnDone());
  EXPECT_EQ(feeds_->streams_started(), 2);
  ASSERT_NO_FATAL_FAILURE(PlayOne());
  ASSERT_EQ(third.WaitFor(1).size(), 1u);
  EXPECT_EQ(second.size(), got);
}

TEST_F(GameFeedsTest, AnUnknownGameEndsEachSocketWithNotFound) {
  Recorder first;
  auto watch = feeds_->Watch("no-such-game", "", first.OnEvent(), first.OnDone());
  ASSERT_TRUE(first.WaitDone());
  EXPECT_EQ(first.done_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(first.size(), 0u);
  EXPECT_EQ(feeds_->shared_feeds(), 0u);
}

}  // namespace
}  // namespace draughts::gateway::testing
