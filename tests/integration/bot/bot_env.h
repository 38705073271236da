// What the bot integration tests share: the Redis of scripts/test
// (DRAUGHTS_TEST_REDIS), a key prefix per test (game_state's keys and the
// bot jobs stream), the game_state and bot binaries as child processes, and
// a player that plays a game against the bots to its end.
#ifndef DRAUGHTS_TESTS_INTEGRATION_BOT_BOT_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_BOT_BOT_ENV_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"

namespace draughts::bot::testing {

using platform::testing::ServerProcess;

// A bot process with the metrics port it was given.
struct BotProcess {
  std::unique_ptr<ServerProcess> process;
  int metrics_port = 0;
};

// How a game against the bots went, seen from the player's side.
struct PlayedGame {
  v1::GameState final_state;
  int bot_moves = 0;
  // From the player's SubmitMove answer to the bot's reply being visible.
  std::vector<absl::Duration> reply_times;
};

class BotIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts game_state on the test's prefix.
  void StartGameState();
  // A bot process named `consumer` with the test defaults (overridable by
  // `extra_args`); waits until the consumer group exists, so no job written
  // after this returns is missed.
  BotProcess StartBot(const std::string& consumer, const std::vector<std::string>& extra_args = {});

  std::string JobsStream() const { return prefix_ + "draughts:bot-jobs"; }

  // An unrated English game from `fen` (Black moves first) with the bot in
  // the Black seat and a person in White, capped at `move_limit` plies.
  v1::CreateGameResponse CreateGameAgainst(const v1::Seat& bot, const std::string& fen,
                                           int move_limit);
  // Plays White's first legal move whenever it is White's turn until the
  // game ends or `timeout` passes.
  PlayedGame PlayToTheEnd(const v1::CreateGameResponse& game,
                          absl::Duration timeout = absl::Seconds(90));
  v1::GameState GetGame(const std::string& game_id);

  // Entries of the bot group pending (all consumers) / for one consumer.
  int64_t PendingJobs(const std::string& consumer = "");
  // A counter or gauge of a bot's /metrics (sum over series whose labels
  // contain `label`, e.g. engine="hub"); -1 when unreadable.
  static double ScrapeMetric(int metrics_port, const std::string& name,
                             const std::string& label = "");

  static bool WaitFor(const std::function<bool()>& condition,
                      absl::Duration timeout = absl::Seconds(30));

  std::string redis_address_;
  std::string prefix_;
  std::unique_ptr<platform::RedisClient> redis_;
  std::unique_ptr<ServerProcess> game_state_;
  std::unique_ptr<v1::GameService::Stub> game_;
};

v1::Seat BotSeat(v1::BotLevel level, const std::string& engine_id = "");

}  // namespace draughts::bot::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_BOT_BOT_ENV_H_
