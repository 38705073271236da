// What the game_state integration tests share: the Redis of scripts/test
// (DRAUGHTS_TEST_REDIS), a key prefix unique to each run so tests never see
// each other's games, replicas as child processes, and small RPC helpers.
#ifndef DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"

namespace draughts::game_state::testing {

// A game_state binary started by a test.
using ReplicaProcess = platform::testing::ServerProcess;

// host:port of the test Redis, or a clear failure naming the variable.
absl::StatusOr<std::string> TestRedisAddress();
// "it-<pid>-<random>:" — prepended to every key of this test run.
std::string UniquePrefix();

// Starts the game_state binary against `redis` with `prefix` (and
// `extra_args`, flags the defaults do not set).
absl::StatusOr<std::unique_ptr<ReplicaProcess>> StartReplica(
    const std::string& redis, const std::string& prefix,
    const std::vector<std::string>& extra_args = {});

std::unique_ptr<v1::GameService::Stub> StubFor(const std::string& address);

std::string StatusText(const grpc::Status& status);

v1::CreateGameRequest PeopleGameRequest(const std::string& variant, const std::string& fen = "");
grpc::Status CreateGame(v1::GameService::Stub& stub, const v1::CreateGameRequest& request,
                        v1::CreateGameResponse* response);
grpc::Status GetGame(v1::GameService::Stub& stub, const std::string& game_id, v1::GameState* game);
grpc::Status SubmitMove(v1::GameService::Stub& stub, const std::string& game_id,
                        const std::string& token, const std::string& move, int expected_ply,
                        v1::SubmitMoveResponse* response = nullptr);
grpc::Status ListMoves(v1::GameService::Stub& stub, const std::string& game_id,
                       v1::ListLegalMovesResponse* response);

// Waits (at most `timeout`) until the relay forwarded the game's outbox:
// the outbox is empty and the game is no longer marked pending. False on
// timeout.
bool WaitUntilForwarded(platform::RedisClient& redis, const std::string& prefix,
                        const std::string& game_id, absl::Duration timeout = absl::Seconds(5));

// Every entry's `data` of a Redis stream, parsed as T.
template <typename T>
std::vector<T> ReadStream(platform::RedisClient& redis, const std::string& key);

}  // namespace draughts::game_state::testing

#include "integration_env_inl.h"

#endif  // DRAUGHTS_TESTS_INTEGRATION_GAME_STATE_INTEGRATION_ENV_H_
