// What the chat integration tests share: a game_state replica and two chat
// replicas started as child processes on the Redis of scripts/test, under
// a key prefix of their own; a MatchmakingService stand-in answering
// GetTable for the tables a test declares; helpers to create games and to
// call the chat.
#ifndef DRAUGHTS_TESTS_INTEGRATION_CHAT_CHAT_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_CHAT_CHAT_ENV_H_

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "draughts/v1/chat.grpc.pb.h"
#include "draughts/v1/game.grpc.pb.h"
#include "draughts/v1/matchmaking.grpc.pb.h"
#include "platform/redis_client.h"
#include "platform/testing/server_process.h"

namespace draughts::chat::testing {

// GetTable for the tables a test adds; NOT_FOUND for the others.
class TablesStandIn final : public v1::MatchmakingService::Service {
 public:
  void AddTable(const std::string& table_id, bool spectators_muted);
  grpc::Status GetTable(grpc::ServerContext*, const v1::GetTableRequest* request,
                        v1::GetTableResponse* response) override;

 private:
  std::mutex mu_;
  std::map<std::string, v1::Table> tables_;
};

class ChatIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts chat replicas with these extra flags (SetUp starts two with none);
  // with `metrics`, replica 0 serves /metrics on metrics_port_.
  void RestartChat(const std::vector<std::string>& extra_flags, bool metrics = false);
  // Replica 0's /metrics text.
  std::string ScrapeMetrics() const;

  // A game between two people (Ann, White, player id "ann"; Ben, Black,
  // "ben"); `table_id` and `spectators_muted` as given.
  v1::CreateGameResponse NewGame(const std::string& table_id = "", bool spectators_muted = false);

  static v1::ChatRoom GameRoom(const std::string& game_id);
  static v1::ChatRoom TableRoom(const std::string& table_id);
  // A post by a seat's player / by a spectator, with a fresh idempotency key.
  static v1::PostMessageRequest PlayerPost(const v1::ChatRoom& room, const std::string& game_id,
                                           const std::string& token, const std::string& text);
  static v1::PostMessageRequest SpectatorPost(const v1::ChatRoom& room, const std::string& session,
                                              const std::string& text,
                                              const std::string& name = "Watcher");

  grpc::Status Post(int replica, const v1::PostMessageRequest& request,
                    v1::ChatMessage* message = nullptr);
  // Every message of the room, oldest first, through ListMessages pages.
  std::vector<v1::ChatMessage> ListAll(int replica, const v1::ChatRoom& room);
  // Polls `condition` every 50 ms until it holds or `timeout` passes.
  static bool WaitFor(const std::function<bool()>& condition,
                      absl::Duration timeout = absl::Seconds(20));

  std::string prefix_;
  std::unique_ptr<platform::RedisClient> redis_;
  TablesStandIn tables_;
  std::unique_ptr<grpc::Server> tables_server_;
  int tables_port_ = 0;
  int metrics_port_ = -1;
  std::unique_ptr<platform::testing::ServerProcess> game_state_;
  std::unique_ptr<v1::GameService::Stub> games_;
  std::vector<std::unique_ptr<platform::testing::ServerProcess>> chats_;
  std::vector<std::unique_ptr<v1::ChatService::Stub>> chat_;
};

std::string StatusText(const grpc::Status& status);

}  // namespace draughts::chat::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_CHAT_CHAT_ENV_H_
