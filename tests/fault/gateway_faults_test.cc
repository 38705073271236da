// A gateway replica killed with SIGKILL while games are watched through it:
// each client reconnects to the other gateway with ?after=<last event id>,
// gets every event of its game exactly once, in order, and acts through the
// new socket.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "../integration/game_state/integration_env.h"
#include "../integration/gateway/test_client.h"
#include "absl/strings/str_cat.h"
#include "fault_env.h"
#include "gateway/proto_json.h"
#include "platform/redis_streams.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::fault {
namespace {

using game_state::testing::ReplicaProcess;
using game_state::testing::StartReplica;
using game_state::testing::UniquePrefix;
using gateway::testing::Field;
using gateway::testing::HttpCall;
using gateway::testing::NumberAt;
using gateway::testing::StringAt;
using gateway::testing::WsClient;
using platform::testing::ServerProcess;

struct HotseatGame {
  std::string id, white, black;
};

// One watcher: what it received, over however many sockets.
struct Watcher {
  HotseatGame game;
  std::vector<std::string> event_ids;
  int reconnects = 0;
  std::string failure;
};

class GatewayFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(redis.ok()) << redis.status();
    redis_ = *redis;
    prefix_ = UniquePrefix();
    auto game_state = StartReplica(redis_, prefix_);
    ASSERT_TRUE(game_state.ok()) << game_state.status();
    game_state_ = *std::move(game_state);
    web_root_ = std::filesystem::temp_directory_path() / absl::StrCat("fault-web-", getpid());
    std::filesystem::create_directories(web_root_);
    std::ofstream(web_root_ / "index.html") << "<!doctype html><title>draughts</title>";
    for (int i = 0; i < 2; ++i) {
      auto gateway = ServerProcess::Start(
          GATEWAY_BINARY, {"--redis=" + redis_, "--game-state=" + game_state_->address(),
                           "--session-key-prefix=" + prefix_, "--web-root=" + web_root_.string(),
                           "--metrics-port=-1", "--log-level=error"});
      ASSERT_TRUE(gateway.ok()) << gateway.status();
      gateways_.push_back(*std::move(gateway));
    }
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(web_root_, ignored);
  }

  std::string redis_, prefix_;
  std::filesystem::path web_root_;
  std::unique_ptr<ReplicaProcess> game_state_;
  std::vector<std::unique_ptr<ServerProcess>> gateways_;
};

// Reads frames until `done` says so (true = stop), reconnecting to
// `fallback_port` with ?after= when the socket dies. Empty on success.
std::string ReadEvents(Watcher& watcher, std::unique_ptr<WsClient>& ws, int fallback_port,
                       const std::string& cookie,
                       const std::function<bool(const google::protobuf::Struct&)>& done) {
  const absl::Time deadline = absl::Now() + absl::Seconds(40);
  while (absl::Now() < deadline) {
    absl::StatusOr<google::protobuf::Struct> frame = ws->ReadJson(absl::Seconds(2));
    if (absl::IsDeadlineExceeded(frame.status())) continue;
    if (!frame.ok()) {
      // The gateway went away: the other one, from the last event seen.
      ++watcher.reconnects;
      ws = std::make_unique<WsClient>();
      const std::string target =
          absl::StrCat("/ws/games/", watcher.game.id,
                       watcher.event_ids.empty() ? "" : "?after=" + watcher.event_ids.back());
      if (absl::Status connected = ws->Connect(fallback_port, target, cookie); !connected.ok()) {
        return connected.ToString();
      }
      continue;
    }
    if (StringAt(*frame, "type") == "event") {
      watcher.event_ids.push_back(StringAt(*frame, "event.eventId"));
    }
    if (done(*frame)) return "";
  }
  return "timed out";
}

TEST_F(GatewayFaults, ClientsOfAKilledGatewayResumeOnTheOtherWithEveryEventOnce) {
  const int games = EnvInt("DRAUGHTS_FAULT_GAMES", 4);
  const int plies = EnvInt("DRAUGHTS_FAULT_GATEWAY_PLIES", 30);
  const int doomed = gateways_[0]->port();
  const int survivor = gateways_[1]->port();
  absl::StatusOr<gateway::testing::HttpReply> session = HttpCall(doomed, "POST", "/api/session");
  ASSERT_TRUE(session.ok() && session->status == 200) << session.status();
  const std::string cookie = session->set_cookie.substr(0, session->set_cookie.find(';'));

  std::vector<Watcher> watchers(static_cast<std::size_t>(games));
  for (Watcher& watcher : watchers) {
    absl::StatusOr<gateway::testing::HttpReply> created = HttpCall(
        doomed, "POST", "/api/games", R"({"variant":"international","mode":"hotseat"})", cookie);
    ASSERT_TRUE(created.ok()) << created.status();
    ASSERT_EQ(created->status, 200) << created->body;
    absl::StatusOr<google::protobuf::Struct> body = gateway::ParseJsonObject(created->body);
    ASSERT_TRUE(body.ok());
    watcher.game = {StringAt(*body, "gameId"), StringAt(*body, "seats.white"),
                    StringAt(*body, "seats.black")};
  }

  // Moves go straight to game_state, so they go on while sockets are down.
  std::atomic<bool> killed{false};
  std::atomic<int> played{0};
  std::thread mover([&] {
    RetryingGameClient client({game_state_->address()}, absl::Seconds(20));
    for (int ply = 0; ply < plies; ++ply) {
      if (ply == plies / 3) {
        gateways_[0]->Kill();
        killed.store(true);
      }
      for (const Watcher& watcher : watchers) {
        v1::ListLegalMovesResponse legal;
        if (!client.ListLegalMoves(watcher.game.id, &legal).ok() || legal.moves_size() == 0) {
          continue;
        }
        v1::SubmitMoveRequest move;
        move.set_game_id(watcher.game.id);
        move.set_player_token(legal.side_to_move() == v1::COLOR_WHITE ? watcher.game.white
                                                                      : watcher.game.black);
        move.set_move(legal.moves(ply % legal.moves_size()).notation());
        move.set_expected_ply(legal.ply());
        v1::SubmitMoveResponse response;
        if (client.SubmitMove(move, &response).ok()) played.fetch_add(1);
      }
    }
  });

  std::vector<std::thread> clients;
  for (Watcher& watcher : watchers) {
    clients.emplace_back([&, survivor, doomed] {
      auto ws = std::make_unique<WsClient>();
      if (absl::Status connected = ws->Connect(doomed, "/ws/games/" + watcher.game.id, cookie);
          !connected.ok()) {
        watcher.failure = connected.ToString();
        return;
      }
      // Until the last move is seen (the game may also end earlier).
      int ply = 0;
      bool over = false;
      watcher.failure = ReadEvents(watcher, ws, survivor, cookie, [&](const auto& frame) {
        if (StringAt(frame, "type") != "snapshot") return false;
        ply = static_cast<int>(NumberAt(frame, "game.ply"));
        over = StringAt(frame, "game.result") != "GAME_RESULT_ONGOING";
        return killed.load() && (ply >= plies || over);
      });
      if (!watcher.failure.empty() || over) return;
      // Carries on through the new socket: resigns, and sees the end.
      ws->Send(absl::StrCat(R"({"requestId":"bye","action":"resign","token":")", watcher.game.white,
                            R"(","expectedPly":)", ply, "}"))
          .IgnoreError();
      bool acked = false, ended = false;
      watcher.failure = ReadEvents(watcher, ws, survivor, cookie, [&](const auto& frame) {
        acked =
            acked || (StringAt(frame, "type") == "ack" && StringAt(frame, "requestId") == "bye");
        ended = ended || Field(frame, "event.gameEnded") != nullptr;
        return acked && ended;
      });
    });
  }
  mover.join();
  for (std::thread& client : clients) client.join();

  EXPECT_EQ(played.load(), games * plies);
  platform::RedisClient redis(*platform::ParseRedisAddress(redis_));
  for (const Watcher& watcher : watchers) {
    EXPECT_EQ(watcher.failure, "") << watcher.game.id;
    EXPECT_GE(watcher.reconnects, 1) << "the socket outlived its gateway?";
    // An event's id is its stream entry's.
    std::vector<std::string> stream;
    auto entries =
        platform::StreamRange(redis, absl::StrCat(prefix_, "game:{", watcher.game.id, "}:events"));
    ASSERT_TRUE(entries.ok()) << entries.status();
    for (const platform::StreamEntry& entry : *entries) stream.push_back(entry.id);
    EXPECT_EQ(watcher.event_ids, stream) << watcher.game.id;
  }
}

}  // namespace
}  // namespace draughts::fault
