// tools/loadgen's grpc mode for a few seconds against the real game_state
// binary: games played to the end, every answered move's event received
// once, no error.
#include <unistd.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "loadgen/grpc_load.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::loadgen {
namespace {

class GrpcSmokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(redis.ok()) << redis.status();
    auto started = platform::testing::ServerProcess::Start(
        GAME_STATE_BINARY,
        {absl::StrCat("--redis=", *redis),
         absl::StrCat("--key-prefix=loadgen-", getpid(), "-", absl::ToUnixMicros(absl::Now()), ":"),
         "--metrics-port=-1", "--token-secret=loadgen-smoke-shared-secret", "--drain=0s",
         "--log-level=warn"});
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
  }

  std::unique_ptr<platform::testing::ServerProcess> server_;
};

TEST_F(GrpcSmokeTest, EveryAnsweredMoveComesBackOnceWithoutErrors) {
  LoadOptions options;
  options.targets = {server_->address()};
  options.games = 6;
  // 8x8 games with random moves end within seconds: whole games, their
  // GameEnded and the next game's creation are covered too.
  options.variant = "tutorial-8x8";
  options.warmup = absl::Milliseconds(500);
  options.duration = absl::Seconds(4);
  absl::StatusOr<LoadSummary> summary = RunGrpcLoad(options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  PrintSummary(*summary, stdout);
  EXPECT_GT(summary->measured_moves, 50);
  EXPECT_GT(summary->games_finished, 0);
  EXPECT_GT(summary->games_created, summary->games_finished);
  EXPECT_EQ(summary->lost_events, 0);
  EXPECT_EQ(summary->duplicated_events, 0);
  EXPECT_EQ(summary->unexpected_events, 0);
  EXPECT_EQ(summary->total_errors(), 0);
  EXPECT_GT(summary->p50_ms, 0);
  EXPECT_LE(summary->p50_ms, summary->p99_ms);
}

TEST_F(GrpcSmokeTest, TargetRateBoundsTheMoves) {
  LoadOptions options;
  options.targets = {server_->address()};
  options.games = 4;
  options.variant = "tutorial-8x8";
  options.warmup = absl::Milliseconds(300);
  options.duration = absl::Seconds(2);
  options.target_rate = 40;
  absl::StatusOr<LoadSummary> summary = RunGrpcLoad(options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  // 40 moves/s for 2 s: about 80, and never much more.
  EXPECT_GT(summary->measured_moves, 20);
  EXPECT_LE(summary->measured_moves, 100);
  EXPECT_EQ(summary->lost_events, 0);
  EXPECT_EQ(summary->total_errors(), 0);
}

}  // namespace
}  // namespace draughts::loadgen
