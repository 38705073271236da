// game_state on a real Redis Cluster (three masters, three replicas): games
// spread over every master, and a master killed mid-game fails over to its
// replica with no acknowledged move lost, the games going on and WatchGame
// delivering throughout.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "integration_env.h"
#include "platform/redis_cluster.h"
#include "platform/redis_cluster_slots.h"
#include "platform/redis_script.h"
#include "test_cluster.h"

namespace draughts::game_state::testing {
namespace {

using draughts::testing::TestRedisCluster;

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> server = draughts::testing::RedisServerBinary();
    ASSERT_TRUE(server.ok()) << server.status();
    absl::StatusOr<std::string> cli = draughts::testing::RedisCliBinary();
    ASSERT_TRUE(cli.ok()) << cli.status();
    auto cluster = TestRedisCluster::Start(*server, *cli);
    ASSERT_TRUE(cluster.ok()) << cluster.status();
    cluster_ = *std::move(cluster);
    prefix_ = UniquePrefix();
    for (int i = 0; i < 2; ++i) {
      auto replica = StartReplica(cluster_->Address(), prefix_);
      ASSERT_TRUE(replica.ok()) << replica.status();
      replicas_.push_back(*std::move(replica));
      stubs_.push_back(StubFor(replicas_.back()->address()));
    }
    auto options = platform::ParseRedisAddress(cluster_->Address());
    ASSERT_TRUE(options.ok()) << options.status();
    redis_ = std::make_unique<platform::RedisClient>(*options);
  }

  // The master serving game `id`'s keys, as the cluster client routes them.
  std::string MasterOf(const std::string& id) {
    absl::StatusOr<std::string> master = redis_->cluster()->MasterOf(platform::RedisKeySlot(id));
    EXPECT_TRUE(master.ok()) << master.status();
    return master.value_or("");
  }

  v1::CreateGameResponse NewGame(int replica) {
    v1::CreateGameResponse created;
    grpc::Status status = CreateGame(*stubs_[static_cast<size_t>(replica % 2)],
                                     PeopleGameRequest("international"), &created);
    EXPECT_TRUE(status.ok()) << StatusText(status);
    return created;
  }

  // Games until every master holds at least `per_master` of them.
  std::map<std::string, std::vector<v1::CreateGameResponse>> GamesOnEveryMaster(int per_master) {
    std::map<std::string, std::vector<v1::CreateGameResponse>> by_master;
    for (int i = 0; i < 300; ++i) {
      v1::CreateGameResponse created = NewGame(i);
      if (created.game_id().empty()) break;
      by_master[MasterOf(created.game_id())].push_back(created);
      bool enough = by_master.size() == 3;
      for (const auto& [master, games] : by_master)
        enough = enough && games.size() >= static_cast<size_t>(per_master);
      if (enough) break;
    }
    return by_master;
  }

  std::unique_ptr<TestRedisCluster> cluster_;
  std::string prefix_;
  std::vector<std::unique_ptr<ReplicaProcess>> replicas_;
  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
  std::unique_ptr<platform::RedisClient> redis_;
};

TEST_F(ClusterTest, GamesSpreadOverEveryMaster) {
  auto by_master = GamesOnEveryMaster(2);
  absl::StatusOr<std::vector<std::string>> masters = cluster_->Masters();
  ASSERT_TRUE(masters.ok()) << masters.status();
  ASSERT_EQ(masters->size(), 3u);
  ASSERT_EQ(by_master.size(), 3u) << "games did not reach every master";
  for (const auto& [master, games] : by_master) {
    EXPECT_NE(std::find(masters->begin(), masters->end(), master), masters->end()) << master;
    for (const v1::CreateGameResponse& game : games) {
      const std::string key = absl::StrCat(prefix_, "game:{", game.game_id(), "}:state");
      // The server agrees with our slot, and the game's keys are on that
      // master (state, events, outbox share the slot).
      platform::RedisOptions node = *platform::ParseRedisAddress(master);
      node.cluster_wait_replicas = 0;
      platform::RedisClient direct(node);
      absl::StatusOr<platform::RedisReply> slot = direct.Command({"CLUSTER", "KEYSLOT", key});
      ASSERT_TRUE(slot.ok()) << slot.status();
      EXPECT_EQ(slot->integer(), platform::RedisKeySlot(key));
      absl::StatusOr<platform::RedisReply> count =
          direct.Command({"CLUSTER", "COUNTKEYSINSLOT", absl::StrCat(slot->integer())});
      ASSERT_TRUE(count.ok()) << count.status();
      EXPECT_GE(count->integer(), 2) << "state and events of " << game.game_id();
      absl::StatusOr<platform::RedisReply> exists = direct.Command({"EXISTS", key});
      ASSERT_TRUE(exists.ok()) << exists.status();
      EXPECT_EQ(exists->integer(), 1) << key << " not on " << master;
    }
  }
}

TEST_F(ClusterTest, ClientSplitsPipelinesAndRefusesCrossSlotCalls) {
  // Writes and reads of keys on every master, interleaved in one pipeline:
  // the replies come back in the caller's order.
  std::vector<std::vector<std::string>> commands;
  std::set<std::string> masters;
  for (int i = 0; i < 60; ++i) {
    const std::string key = absl::StrCat(prefix_, "{k", i, "}");
    masters.insert(MasterOf(absl::StrCat("k", i)));
    commands.push_back({"SET", key, absl::StrCat("v", i)});
    commands.push_back({"GET", key});
  }
  EXPECT_EQ(masters.size(), 3u);
  absl::StatusOr<std::vector<platform::RedisReply>> replies = redis_->Pipeline(commands);
  ASSERT_TRUE(replies.ok()) << replies.status();
  ASSERT_EQ(replies->size(), commands.size());
  for (int i = 0; i < 60; ++i) {
    EXPECT_EQ((*replies)[static_cast<size_t>(2 * i)].text(), "OK");
    EXPECT_EQ((*replies)[static_cast<size_t>(2 * i + 1)].text(), absl::StrCat("v", i));
  }

  // Keys of two slots in one command or script: refused before sending.
  const std::string a = absl::StrCat(prefix_, "{k1}");
  const std::string b = absl::StrCat(prefix_, "{k2}");
  absl::StatusOr<platform::RedisReply> mget = redis_->Command({"MGET", a, b});
  EXPECT_EQ(mget.status().code(), absl::StatusCode::kInvalidArgument) << mget.status();
  platform::RedisScript script("return redis.call('GET', KEYS[1])");
  absl::StatusOr<platform::RedisReply> crossed = platform::EvalScript(*redis_, script, {a, b}, {});
  EXPECT_EQ(crossed.status().code(), absl::StatusCode::kInvalidArgument) << crossed.status();
  // One slot: fine, on whichever master holds it (the script was loaded
  // on every master).
  for (int i = 0; i < 6; ++i) {
    const std::string key = absl::StrCat(prefix_, "{k", i, "}");
    absl::StatusOr<platform::RedisReply> one =
        platform::EvalScript(*redis_, script, {key, key + ":other"}, {});
    ASSERT_TRUE(one.ok()) << one.status();
    EXPECT_EQ(one->text(), absl::StrCat("v", i));
  }
  // A malformed pipeline entry fails alone.
  replies = redis_->Pipeline({{"GET", a}, {"MGET", a, b}, {"GET", b}});
  ASSERT_TRUE(replies.ok()) << replies.status();
  EXPECT_EQ((*replies)[0].text(), "v1");
  EXPECT_TRUE((*replies)[1].is_error());
  EXPECT_EQ((*replies)[2].text(), "v2");
}

struct PlayedGame {
  v1::CreateGameResponse created;
  std::vector<std::string> acknowledged;  // moves game_state said OK to
};

// Plays the first legal move of `game` through either replica, retrying
// the same move (same expected ply: a retry of an applied move answers
// OK) until it is acknowledged or `deadline` passes.
bool PlayOne(std::vector<std::unique_ptr<v1::GameService::Stub>>& stubs, PlayedGame& game,
             absl::Time deadline, int* failures) {
  const std::string& id = game.created.game_id();
  const int ply = static_cast<int>(game.acknowledged.size());
  std::string move;
  v1::Color side = v1::COLOR_WHITE;
  for (int attempt = 0; absl::Now() < deadline; ++attempt) {
    auto& stub = *stubs[static_cast<size_t>(attempt % 2)];
    if (move.empty()) {
      v1::ListLegalMovesResponse legal;
      grpc::Status status = ListMoves(stub, id, &legal);
      if (!status.ok() || legal.moves_size() == 0) {
        ++*failures;
        absl::SleepFor(absl::Milliseconds(100));
        continue;
      }
      // Everything acknowledged must be there: the ply never goes back.
      EXPECT_EQ(legal.ply(), ply) << id;
      if (legal.ply() != ply) return false;
      move = legal.moves(0).notation();
      side = legal.side_to_move();
    }
    const std::string& token = side == v1::COLOR_WHITE ? game.created.white_player_token()
                                                       : game.created.black_player_token();
    v1::SubmitMoveResponse played;
    grpc::Status status = SubmitMove(stub, id, token, move, ply, &played);
    if (status.ok()) {
      // The record keeps the shortest unambiguous text (`16x36`), the legal
      // list the full path (`16x27x36`): compare what the server recorded.
      game.acknowledged.push_back(played.move().notation());
      EXPECT_FALSE(played.move().notation().empty()) << id;
      return true;
    }
    EXPECT_NE(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << StatusText(status);
    ++*failures;
    absl::SleepFor(absl::Milliseconds(100));
  }
  return false;
}

TEST_F(ClusterTest, MasterFailoverLosesNoAcknowledgedMove) {
  auto by_master = GamesOnEveryMaster(1);
  ASSERT_EQ(by_master.size(), 3u);
  std::vector<PlayedGame> games;
  for (const auto& [master, created] : by_master) {
    for (const auto& game : created) games.push_back({game, {}});
  }
  // The master to kill, and a game it holds that a spectator watches.
  const std::string victim = by_master.begin()->first;
  const std::string watched_id = by_master.begin()->second.front().game_id();
  const int victim_port = std::stoi(victim.substr(victim.rfind(':') + 1));

  std::mutex seen_mu;
  std::vector<v1::GameEvent> seen;
  grpc::ClientContext watch_context;
  watch_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(90));
  v1::WatchGameRequest watch;
  watch.set_game_id(watched_id);
  auto reader = stubs_[1]->WatchGame(&watch_context, watch);
  std::thread watcher([&] {
    v1::GameEvent event;
    while (reader->Read(&event)) {
      std::lock_guard<std::mutex> lock(seen_mu);
      seen.push_back(event);
    }
  });

  const absl::Time deadline = absl::Now() + absl::Seconds(45);
  int failures = 0;
  for (int round = 0; round < 3; ++round) {
    for (PlayedGame& game : games) ASSERT_TRUE(PlayOne(stubs_, game, deadline, &failures));
  }
  // Moves in flight while the master dies: a player thread keeps going.
  std::atomic<bool> stop{false};
  std::atomic<int> played_during{0};
  std::thread player([&] {
    while (!stop.load()) {
      for (PlayedGame& game : games) {
        if (stop.load()) break;
        if (PlayOne(stubs_, game, deadline, &failures)) played_during.fetch_add(1);
      }
    }
  });
  absl::SleepFor(absl::Milliseconds(200));
  cluster_->Kill(victim_port);
  // Its replica takes over (no dead master in the map) ...
  absl::Status promoted = cluster_->WaitHealthy(absl::Seconds(30), /*replicas_linked=*/false);
  // ... and the killed node comes back as the new master's replica, as a
  // supervisor would restart it: writes there need a replica again.
  absl::Status restarted = cluster_->Restart(victim_port);
  absl::Status linked = restarted.ok()
                            ? cluster_->WaitHealthy(absl::Seconds(30), /*replicas_linked=*/true)
                            : restarted;
  const int before_stop = played_during.load();
  // A few more rounds after the failover, then the player stops.
  while (played_during.load() < before_stop + 2 * static_cast<int>(games.size()) &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  stop.store(true);
  player.join();
  ASSERT_TRUE(promoted.ok()) << promoted;
  ASSERT_TRUE(linked.ok()) << linked;
  absl::StatusOr<std::vector<std::string>> masters = cluster_->Masters();
  ASSERT_TRUE(masters.ok()) << masters.status();
  EXPECT_EQ(std::find(masters->begin(), masters->end(), victim), masters->end());
  redis_->Disconnect();  // reload the slot map: this client saw no MOVED
  EXPECT_NE(MasterOf(watched_id), victim);

  // Every acknowledged move is in every game, in order, and nothing else.
  for (PlayedGame& game : games) {
    v1::GameState state;
    grpc::Status status = GetGame(*stubs_[0], game.created.game_id(), &state);
    ASSERT_TRUE(status.ok()) << StatusText(status);
    ASSERT_EQ(state.moves_size(), static_cast<int>(game.acknowledged.size()))
        << game.created.game_id();
    for (int i = 0; i < state.moves_size(); ++i) {
      EXPECT_EQ(state.moves(i), game.acknowledged[static_cast<size_t>(i)]);
    }
    EXPECT_GE(game.acknowledged.size(), 5u) << "game " << game.created.game_id() << " stalled";
  }

  // The spectator saw every move of the watched game, through the failover.
  PlayedGame* watched = nullptr;
  for (PlayedGame& game : games) {
    if (game.created.game_id() == watched_id) watched = &game;
  }
  ASSERT_NE(watched, nullptr);
  const absl::Time watch_deadline = absl::Now() + absl::Seconds(10);
  std::vector<std::string> watched_moves;
  while (absl::Now() < watch_deadline) {
    watched_moves.clear();
    {
      std::lock_guard<std::mutex> lock(seen_mu);
      for (const v1::GameEvent& event : seen) {
        if (event.has_move_played()) watched_moves.push_back(event.move_played().notation());
      }
    }
    if (watched_moves.size() >= watched->acknowledged.size()) break;
    absl::SleepFor(absl::Milliseconds(50));
  }
  watch_context.TryCancel();
  watcher.join();
  EXPECT_EQ(watched_moves, watched->acknowledged);
  std::cout << "moves acknowledged while failing over: " << played_during.load()
            << ", failed attempts (retried): " << failures << "\n";
}

}  // namespace
}  // namespace draughts::game_state::testing
