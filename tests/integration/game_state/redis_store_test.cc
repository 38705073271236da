// The Redis adapters in-process: the outbox sweeper, direct writes to the
// global streams on one Redis, script reloads, the version check, many
// watchers sharing the event tailer, and Redis going away and coming back.
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <optional>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "game_state/event_feed_redis.h"
#include "game_state/game_service.h"
#include "game_state/live_games_gauge.h"
#include "game_state/outbox_relay.h"
#include "game_state/redis_game_store.h"
#include "integration_env.h"
#include "metrics_test_util.h"
#include "platform/redis_pool.h"
#include "platform/redis_streams.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"
#include "prometheus/registry.h"

namespace draughts::game_state::testing {
namespace {

// One in-process replica over a given Redis.
struct Replica {
  Replica(const std::string& address, const std::string& prefix)
      : options(*platform::ParseRedisAddress(address)),
        pool(options, 4),
        keys{.prefix = prefix},
        metrics(registry),
        relay(&pool, keys, OutboxRelayOptions{.sweep_after = absl::Milliseconds(200)}, &metrics),
        store(&pool, keys, &relay),
        feed(&pool, options, keys, RedisEventFeedOptions{}),
        sealer(TokenSealer::Ephemeral()) {
    GameServiceDeps deps;
    deps.store = &store;
    deps.feed = &feed;
    deps.sealer = &sealer;
    GameServiceOptions service_options;
    service = std::make_unique<GameServiceImpl>(std::move(deps), service_options);
    grpc::ServerBuilder builder;
    builder.RegisterService(service.get());
    server = builder.BuildAndStart();
    stub = v1::GameService::NewStub(server->InProcessChannel(grpc::ChannelArguments()));
  }
  ~Replica() {
    service->BeginShutdown();
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    server->Wait();
  }

  platform::RedisOptions options;
  platform::RedisPool pool;
  RedisKeys keys;
  prometheus::Registry registry;
  GameMetrics metrics;
  OutboxRelay relay;
  RedisGameStore store;
  RedisEventFeed feed;
  TokenSealer sealer;
  std::unique_ptr<GameServiceImpl> service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<v1::GameService::Stub> stub;
};

class RedisStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = TestRedisAddress();
    ASSERT_TRUE(redis.ok()) << redis.status();
    address_ = *redis;
    prefix_ = UniquePrefix();
    replica_ = std::make_unique<Replica>(address_, prefix_);
    redis_ = std::make_unique<platform::RedisClient>(*platform::ParseRedisAddress(address_));
  }

  std::string Key(const std::string& name) { return absl::StrCat(prefix_, name); }

  std::string address_;
  std::string prefix_;
  std::unique_ptr<Replica> replica_;
  std::unique_ptr<platform::RedisClient> redis_;
};

TEST_F(RedisStoreTest, TheSweeperForwardsWhatADeadReplicaLeftBehind) {
  // As if a replica committed a finished game and died before forwarding:
  // the message is in the game's outbox and the game is marked pending.
  v1::ResultRecord record;
  record.set_game_id("ghost");
  record.set_reason(v1::RESULT_REASON_RESIGNATION);
  ASSERT_TRUE(redis_
                  ->Command({"XADD", Key("game:{ghost}:outbox"), "*", "kind", "result", "data",
                             record.SerializeAsString()})
                  .ok());
  const int64_t marked = absl::ToUnixMicros(absl::Now() - absl::Seconds(10));
  ASSERT_TRUE(
      redis_->Command({"ZADD", Key("game-state:outbox-pending"), absl::StrCat(marked), "ghost"})
          .ok());
  absl::StatusOr<int> swept = replica_->relay.SweepOnce();
  ASSERT_TRUE(swept.ok()) << swept.status();
  EXPECT_EQ(*swept, 1);
  const auto results = ReadStream<v1::ResultRecord>(*redis_, Key("draughts:results"));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].game_id(), "ghost");
  EXPECT_EQ(redis_->Command({"XLEN", Key("game:{ghost}:outbox")})->integer(), 0);
  EXPECT_TRUE(redis_->Command({"ZSCORE", Key("game-state:outbox-pending"), "ghost"})->is_nil());
  // Nothing left: a second sweep forwards nothing.
  EXPECT_EQ(*replica_->relay.SweepOnce(), 0);
  EXPECT_EQ(ReadStream<v1::ResultRecord>(*redis_, Key("draughts:results")).size(), 1u);
}

TEST_F(RedisStoreTest, AnUnknownOutboxKindIsCountedAndLeftInTheOutbox) {
  // E.g. written by a newer replica during a rolling update: this relay
  // cannot know its stream, so it must not guess one.
  ASSERT_TRUE(redis_
                  ->Command({"XADD", Key("game:{future}:outbox"), "*", "kind", "surprise", "data",
                             "not for the results stream"})
                  .ok());
  auto mark = [&] {
    const int64_t marked = absl::ToUnixMicros(absl::Now() - absl::Seconds(10));
    ASSERT_TRUE(
        redis_->Command({"ZADD", Key("game-state:outbox-pending"), absl::StrCat(marked), "future"})
            .ok());
  };
  mark();
  absl::StatusOr<int> swept = replica_->relay.SweepOnce();
  ASSERT_TRUE(swept.ok()) << swept.status();
  EXPECT_EQ(*swept, 0);
  for (const char* stream : {"draughts:results", "draughts:bot-jobs", "draughts:deadlines"}) {
    EXPECT_EQ(redis_->Command({"XLEN", Key(stream)})->integer(), 0) << stream;
  }
  EXPECT_EQ(redis_->Command({"XLEN", Key("game:{future}:outbox")})->integer(), 1);
  double counted = 0;
  for (const prometheus::MetricFamily& family : replica_->registry.Collect()) {
    if (family.name == "draughts_outbox_unknown_kind_total") {
      counted = family.metric.at(0).counter.value;
    }
  }
  EXPECT_EQ(counted, 1);
  // The game's known messages still go where they belong; the unknown one stays.
  v1::ClockUpdate update;
  update.set_game_id("future");
  update.set_game_version(7);
  ASSERT_TRUE(redis_
                  ->Command({"XADD", Key("game:{future}:outbox"), "*", "kind", "clock_update",
                             "data", update.SerializeAsString()})
                  .ok());
  mark();
  swept = replica_->relay.SweepOnce();
  ASSERT_TRUE(swept.ok()) << swept.status();
  EXPECT_EQ(*swept, 1);
  const auto updates = ReadStream<v1::ClockUpdate>(*redis_, Key("draughts:deadlines"));
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_EQ(updates[0].game_version(), 7);
  EXPECT_EQ(redis_->Command({"XLEN", Key("draughts:results")})->integer(), 0);
  EXPECT_EQ(redis_->Command({"XLEN", Key("game:{future}:outbox")})->integer(), 1);
}

TEST_F(RedisStoreTest, AFreshMarkIsLeftToItsOwnReplica) {
  ASSERT_TRUE(
      redis_->Command({"XADD", Key("game:{busy}:outbox"), "*", "kind", "result", "data", "x"})
          .ok());
  ASSERT_TRUE(redis_
                  ->Command({"ZADD", Key("game-state:outbox-pending"),
                             absl::StrCat(absl::ToUnixMicros(absl::Now())), "busy"})
                  .ok());
  EXPECT_EQ(*replica_->relay.SweepOnce(), 0);
  EXPECT_EQ(redis_->Command({"XLEN", Key("game:{busy}:outbox")})->integer(), 1);
}

TEST_F(RedisStoreTest, ScriptsAreLoadedAgainAfterAFlush) {
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("international"), &created).ok());
  ASSERT_TRUE(redis_->Command({"SCRIPT", "FLUSH"}).ok());
  v1::SubmitMoveResponse moved;
  const grpc::Status status = SubmitMove(*replica_->stub, created.game_id(),
                                         created.white_player_token(), "32-28", 0, &moved);
  ASSERT_TRUE(status.ok()) << StatusText(status);
  EXPECT_EQ(moved.game().ply(), 1);
  ASSERT_TRUE(redis_->Command({"SCRIPT", "FLUSH"}).ok());
  v1::CreateGameResponse another;
  EXPECT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("english"), &another).ok());
}

TEST_F(RedisStoreTest, AStaleVersionWritesNothing) {
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("international"), &created).ok());
  absl::StatusOr<StoredGame> loaded = replica_->store.Load(created.game_id());
  ASSERT_TRUE(loaded.ok());
  Change change;
  change.expected_version = loaded->state().version() + 7;  // somebody else's future
  change.game = *loaded;
  change.game.mutable_state()->set_version(change.expected_version + 1);
  change.game.mutable_state()->set_fen("W:W50:B1");
  change.events.emplace_back().mutable_draw_offered()->set_by(v1::COLOR_WHITE);
  std::optional<StoredGame> current;
  absl::StatusOr<std::vector<std::string>> committed =
      replica_->store.Commit(created.game_id(), change, &current);
  EXPECT_EQ(committed.status().code(), absl::StatusCode::kAborted);
  // The refusal carries the game as it is, so the caller need not load it.
  ASSERT_TRUE(current.has_value());
  EXPECT_EQ(current->state().version(), loaded->state().version());
  EXPECT_EQ(current->state().fen(), loaded->state().fen());
  EXPECT_EQ(current->state().last_event_id(), loaded->state().last_event_id());
  EXPECT_EQ(current->SerializeAsString(), loaded->SerializeAsString());
  absl::StatusOr<StoredGame> after = replica_->store.Load(created.game_id());
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->state().version(), loaded->state().version());
  EXPECT_EQ(after->state().fen(), loaded->state().fen());
  EXPECT_EQ(redis_->Command({"XLEN", Key(absl::StrCat("game:{", created.game_id(), "}:events"))})
                ->integer(),
            1);
  EXPECT_EQ(replica_->store.Commit("nosuchgame", change, nullptr).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(RedisStoreTest, OnOneRedisACommitWritesItsMessagesStraightToTheGlobalStreams) {
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("international"), &created).ok());
  const std::string& id = created.game_id();
  // Creation goes through the outbox: wait until the relay forwarded it.
  ASSERT_TRUE(WaitUntilForwarded(*redis_, prefix_, id, absl::Seconds(10)));
  const std::string deadlines = replica_->keys.Deadlines();
  const std::string results = replica_->keys.Results();
  const int64_t deadlines_before = redis_->Command({"XLEN", deadlines})->integer();
  RedisGameStore direct(&replica_->pool, replica_->keys, &replica_->relay,
                        {.direct_messages = true, .stream_max_length = 1000});
  absl::StatusOr<StoredGame> loaded = direct.Load(id);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  Change change;
  change.expected_version = loaded->state().version();
  change.game = *loaded;
  change.game.mutable_state()->set_version(change.expected_version + 1);
  change.events.emplace_back().mutable_draw_offered()->set_by(v1::COLOR_WHITE);
  change.outbox = {{OutboxMessage::Kind::kClockUpdate, "clock update bytes"},
                   {OutboxMessage::Kind::kResult, std::string("result\0bytes", 12)}};

  // A stale version writes nowhere.
  Change stale = change;
  stale.expected_version += 5;
  EXPECT_EQ(direct.Commit(id, stale, nullptr).status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(redis_->Command({"XLEN", deadlines})->integer(), deadlines_before);

  absl::StatusOr<std::vector<std::string>> ids = direct.Commit(id, change, nullptr);
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_EQ(ids->size(), 1u);
  // Each message once in its stream, with the relay's fields.
  auto newest = [&](const std::string& stream) {
    absl::StatusOr<platform::RedisReply> reply =
        redis_->Command({"XREVRANGE", stream, "+", "-", "COUNT", "1"});
    EXPECT_TRUE(reply.ok());
    absl::StatusOr<std::vector<platform::StreamEntry>> entries =
        platform::ParseStreamEntries(*reply);
    EXPECT_TRUE(entries.ok() && entries->size() == 1u);
    return entries.ok() && !entries->empty() ? entries->front() : platform::StreamEntry{};
  };
  EXPECT_EQ(redis_->Command({"XLEN", deadlines})->integer(), deadlines_before + 1);
  const platform::StreamEntry clock = newest(deadlines);
  ASSERT_NE(clock.Find("data"), nullptr);
  EXPECT_EQ(*clock.Find("data"), "clock update bytes");
  ASSERT_NE(clock.Find("game_id"), nullptr);
  EXPECT_EQ(*clock.Find("game_id"), id);
  const platform::StreamEntry result = newest(results);
  ASSERT_NE(result.Find("data"), nullptr);
  EXPECT_EQ(*result.Find("data"), std::string("result\0bytes", 12));
  // Nothing left for a relay: no outbox entry, no pending mark.
  EXPECT_EQ(redis_->Command({"XLEN", Key(absl::StrCat("game:{", id, "}:outbox"))})->integer(), 0);
  EXPECT_TRUE(redis_->Command({"ZSCORE", Key("game-state:outbox-pending"), id})->is_nil());
  absl::StatusOr<StoredGame> after = direct.Load(id);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->state().version(), change.expected_version + 1);
  EXPECT_EQ(after->state().last_event_id(), ids->back());
}

TEST_F(RedisStoreTest, ListGamesFromTheIndexes) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    v1::CreateGameResponse created;
    ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("english"), &created).ok());
    ids.push_back(created.game_id());
    absl::SleepFor(absl::Milliseconds(5));
  }
  grpc::ClientContext context;
  v1::ListGamesRequest request;
  request.set_page_size(2);
  request.set_player_id("ann");
  v1::ListGamesResponse page;
  ASSERT_TRUE(replica_->stub->ListGames(&context, request, &page).ok());
  ASSERT_EQ(page.games_size(), 2);
  EXPECT_EQ(page.games(0).game_id(), ids[2]);
  EXPECT_EQ(page.games(1).game_id(), ids[1]);
  ASSERT_FALSE(page.next_page_token().empty());
  grpc::ClientContext next_context;
  request.set_page_token(page.next_page_token());
  v1::ListGamesResponse next;
  ASSERT_TRUE(replica_->stub->ListGames(&next_context, request, &next).ok());
  ASSERT_EQ(next.games_size(), 1);
  EXPECT_EQ(next.games(0).game_id(), ids[0]);
}

TEST_F(RedisStoreTest, LiveGamesAreCountedInRedisSoEveryReplicaReportsTheSame) {
  // Two replicas' gauges, each over its own connections and registry.
  prometheus::Registry registry_a;
  prometheus::Registry registry_b;
  platform::RedisPool other_pool(replica_->options, 1);
  LiveGamesGauge gauge_a(&replica_->pool, {.live_games_key = replica_->keys.LiveGames()},
                         registry_a);
  LiveGamesGauge gauge_b(&other_pool, {.live_games_key = replica_->keys.LiveGames()}, registry_b);
  auto live = [](prometheus::Registry& registry) {
    return platform::testing::MetricValue(registry, "draughts_games_live");
  };
  ASSERT_TRUE(gauge_a.Refresh().ok());
  EXPECT_EQ(live(registry_a), 0);

  std::vector<v1::CreateGameResponse> games(2);
  for (v1::CreateGameResponse& created : games) {
    ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("english"), &created).ok());
  }
  ASSERT_TRUE(gauge_a.Refresh().ok());
  ASSERT_TRUE(gauge_b.Refresh().ok());
  EXPECT_EQ(live(registry_a), 2);
  EXPECT_EQ(live(registry_b), 2);

  grpc::ClientContext context;
  v1::ResignRequest resign;
  resign.set_game_id(games[0].game_id());
  resign.set_player_token(games[0].white_player_token());
  resign.set_expected_ply(0);
  v1::ResignResponse resigned;
  ASSERT_TRUE(replica_->stub->Resign(&context, resign, &resigned).ok());
  ASSERT_TRUE(gauge_b.Refresh().ok());
  EXPECT_EQ(live(registry_b), 1);

  // A game idle for longer than the idle retention is gone, not live.
  prometheus::Registry registry_later;
  LiveGamesGauge later(&replica_->pool,
                       {.live_games_key = replica_->keys.LiveGames(),
                        .idle_retention = absl::Hours(24),
                        .now = [] { return absl::Now() + absl::Hours(25); }},
                       registry_later);
  ASSERT_TRUE(later.Refresh().ok());
  EXPECT_EQ(live(registry_later), 0);
}

int64_t Millis(const google::protobuf::Timestamp& t) {
  return t.seconds() * 1000 + t.nanos() / 1000000;
}

TEST_F(RedisStoreTest, IndexesAndExpiryFollowActivityInTenSecondPeriods) {
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("international"), &created).ok());
  const std::string& id = created.game_id();
  const std::string state_key = Key(absl::StrCat("game:{", id, "}:state"));
  auto score = [&](const std::string& index) -> std::optional<int64_t> {
    absl::StatusOr<platform::RedisReply> reply = redis_->Command({"ZSCORE", index, id});
    if (!reply.ok() || reply->is_nil()) return std::nullopt;
    double value = 0;
    if (!absl::SimpleAtod(*reply->AsString(), &value)) return std::nullopt;
    return static_cast<int64_t>(value);
  };
  auto ttl = [&] { return redis_->Command({"TTL", state_key})->integer(); };
  const int64_t created_ms = Millis(created.game().updated_at());
  EXPECT_EQ(score(replica_->keys.AllGames()), created_ms);
  // A short expiry, so that a refresh shows.
  ASSERT_TRUE(redis_->Command({"EXPIRE", state_key, "1000"}).ok());

  v1::SubmitMoveResponse moved;
  ASSERT_TRUE(
      SubmitMove(*replica_->stub, id, created.white_player_token(), "32-28", 0, &moved).ok());
  const int64_t moved_ms = Millis(moved.game().updated_at());
  if (created_ms / 10000 == moved_ms / 10000) {
    // Same period: neither the index nor the expiry was written.
    EXPECT_EQ(score(replica_->keys.AllGames()), created_ms);
    EXPECT_LE(ttl(), 1000);
  } else {
    EXPECT_EQ(score(replica_->keys.AllGames()), moved_ms);
    EXPECT_GT(ttl(), 1000);
  }

  // The end of a game is always written through.
  grpc::ClientContext context;
  v1::ResignRequest resign;
  resign.set_game_id(id);
  resign.set_player_token(created.black_player_token());
  resign.set_expected_ply(1);
  v1::ResignResponse resigned;
  ASSERT_TRUE(replica_->stub->Resign(&context, resign, &resigned).ok());
  EXPECT_EQ(score(replica_->keys.AllGames()), Millis(resigned.game().updated_at()));
  EXPECT_EQ(score(replica_->keys.LiveGames()), std::nullopt);
  EXPECT_GT(ttl(), 24 * 3600);
}

std::vector<v1::GameEvent> WatchUntilEnd(v1::GameService::Stub& stub, const std::string& game_id,
                                         const std::string& from) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::WatchGameRequest request;
  request.set_game_id(game_id);
  request.set_from_event_id(from);
  auto reader = stub.WatchGame(&context, request);
  std::vector<v1::GameEvent> events;
  v1::GameEvent event;
  while (reader->Read(&event)) events.push_back(event);
  EXPECT_TRUE(reader->Finish().ok());
  return events;
}

TEST_F(RedisStoreTest, ManyWatchersJoiningAtDifferentTimesSeeEveryEventOnce) {
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica_->stub, PeopleGameRequest("international"), &created).ok());
  const std::string id = created.game_id();
  std::vector<std::vector<v1::GameEvent>> seen(6);
  std::vector<std::thread> watchers;
  // Watchers join while moves are being played, some from the start, some
  // resuming from an event they "saw" earlier.
  constexpr int kPlies = 10;
  std::vector<std::string> event_ids;
  for (int i = 0; i < kPlies; ++i) {
    if (i < static_cast<int>(seen.size())) {
      const std::string from =
          i % 2 == 1 && !event_ids.empty() ? event_ids[event_ids.size() / 2] : "";
      watchers.emplace_back([&, i, from] {
        seen[static_cast<std::size_t>(i)] = WatchUntilEnd(*replica_->stub, id, from);
      });
    }
    absl::SleepFor(absl::Milliseconds(30));
    v1::ListLegalMovesResponse legal;
    ASSERT_TRUE(ListMoves(*replica_->stub, id, &legal).ok());
    const std::string& token = legal.side_to_move() == v1::COLOR_WHITE
                                   ? created.white_player_token()
                                   : created.black_player_token();
    v1::SubmitMoveResponse response;
    const grpc::Status status =
        SubmitMove(*replica_->stub, id, token, legal.moves(0).notation(), i, &response);
    ASSERT_TRUE(status.ok()) << StatusText(status);
    event_ids.push_back(response.game().last_event_id());
  }
  {
    grpc::ClientContext context;
    v1::ResignRequest request;
    request.set_game_id(id);
    request.set_player_token(created.white_player_token());
    request.set_expected_ply(kPlies);
    v1::ResignResponse response;
    ASSERT_TRUE(replica_->stub->Resign(&context, request, &response).ok());
  }
  for (std::thread& watcher : watchers) watcher.join();
  const auto all = ReadStream<v1::GameEvent>(*redis_, Key(absl::StrCat("game:{", id, "}:events")));
  ASSERT_EQ(all.size(), static_cast<std::size_t>(kPlies) + 2);
  for (std::size_t w = 0; w < seen.size(); ++w) {
    SCOPED_TRACE(absl::StrCat("watcher ", w));
    ASSERT_FALSE(seen[w].empty());
    // Each watcher got a contiguous tail of the stream, in order, ending
    // with the result.
    const int64_t first = seen[w].front().version();
    for (std::size_t k = 0; k < seen[w].size(); ++k) {
      EXPECT_EQ(seen[w][k].version(), first + static_cast<int64_t>(k));
    }
    EXPECT_TRUE(seen[w].back().has_game_ended());
    if (w % 2 == 0) {
      EXPECT_EQ(first, 1);  // from the start
    }
  }
  // Every subscription let go: the server releases it when the call is
  // done on its side, which may come just after the client saw the end.
  const absl::Time give_up = absl::Now() + absl::Seconds(5);
  while (replica_->feed.watched_games() != 0 && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(replica_->feed.watched_games(), 0);
}

TEST(RedisOutageTest, UnavailableWhileRedisIsDownThenBackToNormal) {
  absl::StatusOr<std::string> binary =
      platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status();
  absl::StatusOr<std::unique_ptr<platform::testing::RedisServerProcess>> server =
      platform::testing::RedisServerProcess::Start(*binary);
  ASSERT_TRUE(server.ok()) << server.status();
  Replica replica((*server)->address(), UniquePrefix());
  v1::CreateGameResponse created;
  ASSERT_TRUE(CreateGame(*replica.stub, PeopleGameRequest("international"), &created).ok());
  (*server)->Kill();
  const grpc::Status down =
      SubmitMove(*replica.stub, created.game_id(), created.white_player_token(), "32-28", 0);
  EXPECT_EQ(down.error_code(), grpc::StatusCode::UNAVAILABLE) << StatusText(down);
  // The server comes back empty (no persistence): the game is gone, but the
  // service works again without a restart.
  ASSERT_TRUE((*server)->Restart().ok());
  v1::CreateGameResponse again;
  const grpc::Status up = CreateGame(*replica.stub, PeopleGameRequest("english"), &again);
  EXPECT_TRUE(up.ok()) << StatusText(up);
  EXPECT_TRUE(
      SubmitMove(*replica.stub, again.game_id(), again.black_player_token(), "11-15", 0).ok());
}

}  // namespace
}  // namespace draughts::game_state::testing
