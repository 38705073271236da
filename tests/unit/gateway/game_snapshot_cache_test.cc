#include "gateway/game_snapshot_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace draughts::gateway {
namespace {

// A reader whose reads the test answers by hand, in any order.
class HandReader {
 public:
  GameSnapshotCache::Reader reader() {
    return [this](const std::string& game_id, int64_t min_version, GameSnapshotCache::Done done) {
      pending_.push_back({game_id, std::move(done)});
      min_versions_.push_back(min_version);
    };
  }
  int pending() const { return static_cast<int>(pending_.size()); }
  // The min_version each read was started with, in order.
  const std::vector<int64_t>& min_versions() const { return min_versions_; }
  const std::string& pending_game(int i) const {
    return pending_[static_cast<std::size_t>(i)].first;
  }

  // Answers the oldest pending read with the game at `version`.
  void Answer(int64_t version, v1::GameResult result = v1::GAME_RESULT_ONGOING) {
    auto snapshot = std::make_shared<GameSnapshot>();
    GameView view;
    view.game.set_game_id(pending_.front().first);
    view.game.set_version(version);
    view.game.set_result(result);
    snapshot->view = std::move(view);
    v1::GetClockResponse clock;
    clock.set_expected_ply(static_cast<int32_t>(version));
    snapshot->clock = clock;
    Finish(std::move(snapshot));
  }
  void Fail(absl::Status status) {
    auto snapshot = std::make_shared<GameSnapshot>();
    snapshot->view = std::move(status);
    Finish(std::move(snapshot));
  }

 private:
  void Finish(std::shared_ptr<const GameSnapshot> snapshot) {
    auto [game_id, done] = std::move(pending_.front());
    pending_.erase(pending_.begin());
    done(std::move(snapshot));
  }
  std::vector<std::pair<std::string, GameSnapshotCache::Done>> pending_;
  std::vector<int64_t> min_versions_;
};

// What each caller got: the version, or -1 for an error; -2 while waiting.
struct Answers {
  std::vector<int64_t> got;
  GameSnapshotCache::Done Slot() {
    got.push_back(-2);
    const std::size_t i = got.size() - 1;
    return [this, i](std::shared_ptr<const GameSnapshot> snapshot) {
      ASSERT_EQ(got[i], -2) << "answered twice";
      got[i] = snapshot->view.ok() ? snapshot->view->game.version() : -1;
    };
  }
};

TEST(GameSnapshotCacheTest, SocketsOfOneGameShareOneRead) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  for (int socket = 0; socket < 5; ++socket) cache.Get("g1", 7, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(7);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{7, 7, 7, 7, 7}));
  // A socket whose event for that version comes later gets it at once.
  cache.Get("g1", 7, answers.Slot());
  EXPECT_EQ(answers.got.back(), 7);
  EXPECT_EQ(hand.pending(), 0);
  EXPECT_EQ(cache.reads(), 1);
}

TEST(GameSnapshotCacheTest, ANewerVersionIsReadAgain) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 3, answers.Slot());
  hand.Answer(3);
  cache.Get("g1", 4, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(4);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(cache.reads(), 2);
}

TEST(GameSnapshotCacheTest, GamesAreReadApart) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 1, answers.Slot());
  cache.Get("g2", 1, answers.Slot());
  ASSERT_EQ(hand.pending(), 2);
  EXPECT_EQ(hand.pending_game(0), "g1");
  EXPECT_EQ(hand.pending_game(1), "g2");
  hand.Answer(1);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{1, -2}));
  hand.Answer(5);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{1, 5}));
}

TEST(GameSnapshotCacheTest, AReadOlderThanTheVersionAskedIsDoneAgain) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 2, answers.Slot());  // read 1 starts
  cache.Get("g1", 3, answers.Slot());  // joins read 1, which may predate move 3
  hand.Answer(2);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{2, -2}));
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(3);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{2, 3}));
}

TEST(GameSnapshotCacheTest, GivesUpWaitingForAVersionAfterAFewReads) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 9, answers.Slot());
  for (int read = 0; read < GameSnapshotCache::kReadsPerWait; ++read) {
    ASSERT_EQ(hand.pending(), 1) << read;
    EXPECT_EQ(answers.got[0], -2);
    hand.Answer(4 + read);
  }
  EXPECT_EQ(hand.pending(), 0);
  EXPECT_EQ(answers.got[0], 4 + GameSnapshotCache::kReadsPerWait - 1);
}

TEST(GameSnapshotCacheTest, AFreshReadNeverTakesOneStartedBefore) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 1, answers.Slot());
  hand.Answer(1);
  // A socket opening on the game wants the game now, not the cached read.
  cache.Get("g1", -1, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  cache.Get("g1", 1, answers.Slot());  // already read: at once
  EXPECT_EQ(answers.got, (std::vector<int64_t>{1, -2, 1}));
  hand.Answer(1);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{1, 1, 1}));
  // A fresh read asked while one is under way waits for the next.
  cache.Get("g1", 2, answers.Slot());
  cache.Get("g1", -1, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(2);
  EXPECT_EQ(answers.got[3], 2);
  EXPECT_EQ(answers.got[4], -2);
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(3);
  EXPECT_EQ(answers.got[4], 3);
}

TEST(GameSnapshotCacheTest, ReadsAskForTheVersionTheirWaitersNeedOrAFreshOne) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 4, answers.Slot());
  hand.Answer(4);
  cache.Get("g1", -1, answers.Slot());  // a socket opening: as stored now
  hand.Answer(4);
  cache.Get("g1", 6, answers.Slot());
  cache.Get("g1", 5, answers.Slot());  // joins the read for 6
  hand.Answer(6);
  cache.Get("g1", 8, answers.Slot());
  cache.Get("g1", -1, answers.Slot());  // waits for the next read
  hand.Answer(8);
  hand.Answer(8);
  EXPECT_EQ(hand.min_versions(), (std::vector<int64_t>{4, 0, 6, 8, 0}));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{4, 4, 6, 6, 8, 8}));
}

TEST(GameSnapshotCacheTest, ErrorsArePassedOnAndNotKept) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  Answers answers;
  cache.Get("g1", 1, answers.Slot());
  cache.Get("g1", 1, answers.Slot());
  hand.Fail(absl::UnavailableError("game_state away"));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{-1, -1}));
  cache.Get("g1", 1, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(1);
  EXPECT_EQ(answers.got[2], 1);
}

TEST(GameSnapshotCacheTest, ForgetsIdleGamesPastItsSizeFinishedOnesFirst) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader(), /*max_games=*/2);
  Answers answers;
  cache.Get("live", 1, answers.Slot());
  hand.Answer(1);
  cache.Get("over", 1, answers.Slot());
  hand.Answer(1, v1::GAME_RESULT_WHITE_WINS);
  cache.Get("third", 1, answers.Slot());  // the finished game makes room
  hand.Answer(1);
  EXPECT_EQ(cache.reads(), 3);
  cache.Get("live", 1, answers.Slot());
  EXPECT_EQ(cache.reads(), 3) << "the live game was kept";
  cache.Get("over", 1, answers.Slot());
  EXPECT_EQ(cache.reads(), 4) << "the finished game was forgotten";
  hand.Answer(1, v1::GAME_RESULT_WHITE_WINS);
  for (int64_t got : answers.got) EXPECT_EQ(got, 1);
}

// The game as a move's answer shows it, both seats connected unless said.
GameView MoveAnswer(const std::string& game_id, int64_t version, bool white_connected = true) {
  GameView view;
  view.game.set_game_id(game_id);
  view.game.set_version(version);
  view.game.set_result(v1::GAME_RESULT_ONGOING);
  view.game.mutable_white()->set_connected(white_connected);
  view.game.mutable_black()->set_connected(true);
  view.moves.set_ply(static_cast<int32_t>(version));
  return view;
}

// A cache and its hand-answered reader, for the moves' answers.
class MoveAnswerTest : public ::testing::Test {
 protected:
  HandReader hand;
  GameSnapshotCache cache{hand.reader()};
  Answers answers;
};

TEST_F(MoveAnswerTest, TheSocketsAMoveWakesTakeItsAnswerWithoutARead) {
  cache.MoveSubmitted("g1");
  // The move's event overtook its answer.
  for (int socket = 0; socket < 3; ++socket) cache.Get("g1", 5, answers.Slot());
  EXPECT_EQ(hand.pending(), 0) << "no read while the move's answer is coming";
  cache.MoveAnswered("g1", MoveAnswer("g1", 5));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5, 5, 5}));
  // The answer first, then the event.
  cache.MoveSubmitted("g1");
  cache.MoveAnswered("g1", MoveAnswer("g1", 6));
  cache.Get("g1", 6, answers.Slot());
  EXPECT_EQ(answers.got.back(), 6);
  EXPECT_EQ(cache.reads(), 0);
  EXPECT_EQ(hand.pending(), 0);
}

TEST(GameSnapshotCacheTest, TheAnswerKeepsItsLegalMoves) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader());
  cache.MoveSubmitted("g1");
  GameView view = MoveAnswer("g1", 5);
  view.moves.add_moves()->set_notation("28x19");
  view.moves.set_must_capture(true);
  cache.MoveAnswered("g1", view);
  std::shared_ptr<const GameSnapshot> got;
  cache.Get("g1", 5, [&](std::shared_ptr<const GameSnapshot> snapshot) { got = snapshot; });
  ASSERT_NE(got, nullptr);
  ASSERT_TRUE(got->view.ok());
  EXPECT_EQ(got->view->moves.moves(0).notation(), "28x19");
  EXPECT_TRUE(got->view->moves.must_capture());
  EXPECT_FALSE(got->clock.has_value());
}

TEST_F(MoveAnswerTest, AFailedMoveLetsItsWaitersRead) {
  cache.MoveSubmitted("g1");
  cache.Get("g1", 5, answers.Slot());
  EXPECT_EQ(hand.pending(), 0);
  cache.MoveAnswered("g1", std::nullopt);
  ASSERT_EQ(hand.pending(), 1);
  EXPECT_EQ(hand.min_versions().back(), 5);
  hand.Answer(5);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5}));
}

TEST_F(MoveAnswerTest, AnAnswerOlderThanTheVersionAskedLetsItsWaitersRead) {
  cache.MoveSubmitted("g1");
  cache.Get("g1", 5, answers.Slot());
  cache.Get("g1", 7, answers.Slot());  // e.g. the opponent's move, played elsewhere
  cache.MoveAnswered("g1", MoveAnswer("g1", 5));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5, -2}));
  ASSERT_EQ(hand.pending(), 1);
  EXPECT_EQ(hand.min_versions().back(), 7);
  hand.Answer(7);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5, 7}));
}

TEST_F(MoveAnswerTest, WaitsForEveryMoveUnderWay) {
  cache.MoveSubmitted("g1");  // hotseat: both seats' moves from one gateway
  cache.MoveSubmitted("g1");
  cache.Get("g1", 6, answers.Slot());
  cache.MoveAnswered("g1", MoveAnswer("g1", 5));
  EXPECT_EQ(hand.pending(), 0) << "the second move's answer may show it";
  cache.MoveAnswered("g1", MoveAnswer("g1", 6));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{6}));
  EXPECT_EQ(cache.reads(), 0);
}

TEST_F(MoveAnswerTest, AFreshReadDoesNotWaitForAMove) {
  cache.MoveSubmitted("g1");
  cache.Get("g1", -1, answers.Slot());
  ASSERT_EQ(hand.pending(), 1);
  // Nor is it answered by the move: the answer may be older than the ask.
  cache.MoveAnswered("g1", MoveAnswer("g1", 5));
  EXPECT_EQ(answers.got, (std::vector<int64_t>{-2}));
  hand.Answer(5);
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5}));
}

TEST_F(MoveAnswerTest, AnAnswerWithASeatAwayIsLeftToTheReaderForItsClock) {
  cache.MoveSubmitted("g1");
  cache.Get("g1", 5, answers.Slot());
  cache.MoveAnswered("g1", MoveAnswer("g1", 5, /*white_connected=*/false));
  ASSERT_EQ(hand.pending(), 1);
  hand.Answer(5);  // the reader's snapshot carries the clock
  EXPECT_EQ(answers.got, (std::vector<int64_t>{5}));
}

TEST_F(MoveAnswerTest, AnAnswerOlderThanTheLastReadDoesNotReplaceIt) {
  cache.Get("g1", 7, answers.Slot());
  hand.Answer(7);
  cache.MoveSubmitted("g1");
  cache.MoveAnswered("g1", MoveAnswer("g1", 6));
  cache.Get("g1", 0, answers.Slot());
  EXPECT_EQ(answers.got, (std::vector<int64_t>{7, 7}));
  EXPECT_EQ(cache.reads(), 1);
}

TEST(GameSnapshotCacheTest, AGameWithAMoveUnderWayIsNotForgotten) {
  HandReader hand;
  GameSnapshotCache cache(hand.reader(), /*max_games=*/1);
  Answers answers;
  cache.MoveSubmitted("g1");
  cache.Get("g2", 1, answers.Slot());
  hand.Answer(1);
  cache.Get("g3", 1, answers.Slot());  // makes room by forgetting g2, not g1
  hand.Answer(1);
  cache.MoveAnswered("g1", MoveAnswer("g1", 4));
  cache.Get("g1", 4, answers.Slot());
  EXPECT_EQ(answers.got, (std::vector<int64_t>{1, 1, 4}));
  EXPECT_EQ(cache.reads(), 2);
}

TEST(NeedsClockReadTest, OnlyAnOngoingGameWithASeatAway) {
  v1::GameState game;
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.mutable_white()->set_connected(true);
  game.mutable_black()->set_connected(true);
  EXPECT_FALSE(NeedsClockRead(game));
  game.mutable_black()->set_connected(false);
  EXPECT_TRUE(NeedsClockRead(game));
  game.mutable_black()->set_connected(true);
  game.mutable_white()->set_connected(false);
  EXPECT_TRUE(NeedsClockRead(game));
  game.set_result(v1::GAME_RESULT_WHITE_WINS);
  EXPECT_FALSE(NeedsClockRead(game));
}

}  // namespace
}  // namespace draughts::gateway
