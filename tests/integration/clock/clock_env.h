// What the clock integration tests share: the Redis of scripts/test
// (DRAUGHTS_TEST_REDIS), a key prefix unique to each test, a real
// game_state binary and clock replicas as child processes (short times
// allowed), and small helpers to create games, read them, beat and read
// the replicas' metrics.
#ifndef DRAUGHTS_TESTS_INTEGRATION_CLOCK_CLOCK_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_CLOCK_CLOCK_ENV_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "draughts/v1/clock.grpc.pb.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"

namespace draughts::clock::testing {

using platform::testing::ServerProcess;

struct ClockReplica {
  std::unique_ptr<ServerProcess> process;
  int metrics_port = 0;
  std::unique_ptr<v1::ClockService::Stub> stub;
};

class ClockIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A clock replica on the test's Redis, prefix and game_state; `extra`
  // flags come last (they win).
  ClockReplica StartClock(const std::vector<std::string>& extra = {});

  // A game between two people; `per_move` zero: untimed.
  v1::CreateGameResponse CreateGame(absl::Duration per_move,
                                    bool computer_plays_for_absent = false);
  v1::GameState GetGame(const std::string& game_id);
  // Every event of a finished game (WatchGame from the start).
  std::vector<v1::GameEvent> WatchAll(const std::string& game_id);

  grpc::Status Beat(v1::ClockService::Stub& clock, const std::string& game_id, v1::Color color,
                    const std::string& connection, bool closing = false);

  // Polls `condition` every 20 ms until it holds or `timeout` passes.
  static bool WaitFor(const std::function<bool()>& condition,
                      absl::Duration timeout = absl::Seconds(20));

  // A counter (sum over the series whose labels contain `labels`, e.g.
  // `outcome="played"`) read from a replica's /metrics.
  static double Counter(int metrics_port, const std::string& name, const std::string& labels = "");

  std::string redis_address_;
  std::string prefix_;
  std::unique_ptr<platform::RedisClient> redis_;
  std::unique_ptr<ServerProcess> game_state_;
  std::unique_ptr<v1::GameService::Stub> game_;
};

}  // namespace draughts::clock::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_CLOCK_CLOCK_ENV_H_
