// tools/loadgen's gateway mode for a few seconds against the real binaries
// (redis-server, game_state, matchmaking, clock, chat, gateway): tables set
// up as the web client does, games played to their end over the table
// sockets and rematched, spectators watching, chat; every move's event
// received once on every socket of its table, no error.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "loadgen/gateway_load.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::loadgen {
namespace {

using platform::testing::ServerProcess;

class GatewaySmokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis_binary =
        platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
    ASSERT_TRUE(redis_binary.ok()) << redis_binary.status();
    auto redis = platform::testing::RedisServerProcess::Start(*redis_binary);
    ASSERT_TRUE(redis.ok()) << redis.status();
    redis_ = *std::move(redis);
    const std::string r = absl::StrCat("--redis=", redis_->address());
    const std::vector<std::string> quiet = {"--metrics-port=-1", "--log-level=warn"};
    auto start = [&](const char* binary, std::vector<std::string> flags,
                     std::unique_ptr<ServerProcess>& into) {
      flags.insert(flags.end(), quiet.begin(), quiet.end());
      auto started = ServerProcess::Start(binary, flags);
      ASSERT_TRUE(started.ok()) << binary << ": " << started.status();
      into = *std::move(started);
    };
    start(GAME_STATE_BINARY, {r, "--token-secret=loadgen-gateway-smoke-0123456789"}, game_state_);
    const std::string gs = absl::StrCat("--game-state=", game_state_->address());
    start(MATCHMAKING_BINARY, {r, gs, "--token-secret=loadgen-gateway-smoke-mm-0123456789"},
          matchmaking_);
    const std::string mm = absl::StrCat("--matchmaking=", matchmaking_->address());
    start(CLOCK_BINARY, {r, gs}, clock_);
    start(CHAT_BINARY, {r, gs, mm}, chat_);
    start(GATEWAY_BINARY,
          {r, gs, mm, absl::StrCat("--clock=", clock_->address()),
           absl::StrCat("--chat=", chat_->address()), "--web-root=/nonexistent"},
          gateway_);
  }

  std::unique_ptr<platform::testing::RedisServerProcess> redis_;
  std::unique_ptr<ServerProcess> game_state_, matchmaking_, clock_, chat_, gateway_;
};

TEST_F(GatewaySmokeTest, GamesPlayedThroughTheGatewayComeBackOnceOnEverySocket) {
  ASSERT_NE(gateway_, nullptr);
  LoadOptions options;
  options.targets = {gateway_->address()};
  options.games = 3;
  options.spectators = 2;
  // Short games: whole games, their end and the rematch are covered too.
  options.move_limit = 12;
  // The chat service allows 5 lines per 10 s per player.
  options.chat_every_moves = 8;
  options.warmup = absl::Milliseconds(500);
  options.duration = absl::Seconds(5);
  options.ramp_timeout = absl::Seconds(30);
  absl::StatusOr<LoadSummary> summary = RunGatewayLoad(options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  PrintSummary(*summary, stdout);
  EXPECT_EQ(summary->counts["player_sockets"], 6);
  EXPECT_EQ(summary->counts["spectator_sockets"], 2);
  EXPECT_GT(summary->measured_moves, 20);
  EXPECT_GT(summary->games_finished, 0);
  // A finished game's table started the next one (both voted a rematch).
  EXPECT_GT(summary->games_created, options.games);
  EXPECT_GT(summary->counts["voteRematch_ok"], 0);
  EXPECT_GT(summary->counts["postChat_ok"], 0);
  EXPECT_GT(summary->counts["chat_messages_received"], 0);
  EXPECT_EQ(summary->counts["automatic_moves"], 0);
  EXPECT_EQ(summary->lost_events, 0);
  EXPECT_EQ(summary->duplicated_events, 0);
  EXPECT_EQ(summary->unexpected_events, 0);
  EXPECT_EQ(summary->total_errors(), 0);
  EXPECT_GT(summary->p50_ms, 0);
  EXPECT_LE(summary->p50_ms, summary->p99_ms);
}

}  // namespace
}  // namespace draughts::loadgen
