// What the matchmaking integration tests share: the Redis of scripts/test,
// a game_state binary and matchmaking replicas started with a key prefix
// and results stream of their own, and small RPC helpers.
#ifndef DRAUGHTS_TESTS_INTEGRATION_MATCHMAKING_MATCHMAKING_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_MATCHMAKING_MATCHMAKING_ENV_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"

namespace draughts::matchmaking::testing {

class Cluster {
 public:
  // game_state plus `replicas` matchmaking processes with `extra_args`.
  static absl::StatusOr<std::unique_ptr<Cluster>> Start(
      int replicas, const std::vector<std::string>& extra_args = {});

  v1::MatchmakingService::Stub& mm(int replica = 0) { return *mm_[replica]; }
  v1::GameService::Stub& game() { return *game_; }
  platform::RedisClient& redis() { return *redis_; }
  const std::string& prefix() const { return prefix_; }
  // SIGTERM to a matchmaking replica; its exit code.
  absl::StatusOr<int> Terminate(int replica) { return replicas_[replica]->Terminate(); }

 private:
  std::string prefix_;
  std::unique_ptr<platform::testing::ServerProcess> game_state_;
  std::vector<std::unique_ptr<platform::testing::ServerProcess>> replicas_;
  std::unique_ptr<v1::GameService::Stub> game_;
  std::vector<std::unique_ptr<v1::MatchmakingService::Stub>> mm_;
  std::unique_ptr<platform::RedisClient> redis_;
};

v1::Seat Person(const std::string& id);
v1::Seat Guest(const std::string& id);
// A fresh idempotency key.
std::string Key();
std::string Text(const grpc::Status& status);

// Polls `get` (GetTable of `table_id` as `viewer`) until `done` holds, at
// most `timeout`; returns the last table seen (or the last error).
absl::StatusOr<v1::GetTableResponse> WaitForTable(
    v1::MatchmakingService::Stub& stub, const std::string& table_id, const v1::Seat& viewer,
    const std::function<bool(const v1::GetTableResponse&)>& done,
    absl::Duration timeout = absl::Seconds(20));
// Polls until GetTable answers NOT_FOUND (closed); false on timeout.
bool WaitForClosed(v1::MatchmakingService::Stub& stub, const std::string& table_id,
                   absl::Duration timeout = absl::Seconds(20));

grpc::Status CreateTable(v1::MatchmakingService::Stub& stub, v1::CreateTableRequest request,
                         v1::Table* table);
grpc::Status Join(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                  const std::string& table_id, const std::string& password, v1::Table* table);
grpc::Status Start(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                   const std::string& table_id, v1::StartGameResponse* response);
grpc::Status Vote(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                  const std::string& table_id, v1::VoteRematchResponse* response);
grpc::Status Leave(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                   const std::string& table_id, v1::Table* table = nullptr);
// Resigns the game with `token` (ends it, so game_state writes its result).
grpc::Status Resign(v1::GameService::Stub& stub, const std::string& game_id,
                    const std::string& token);
// Every event of the table until the stream ends (or `timeout`).
std::vector<v1::TableEvent> WatchAll(v1::MatchmakingService::Stub& stub,
                                     const std::string& table_id,
                                     absl::Duration timeout = absl::Seconds(20),
                                     grpc::Status* end = nullptr);

}  // namespace draughts::matchmaking::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_MATCHMAKING_MATCHMAKING_ENV_H_
