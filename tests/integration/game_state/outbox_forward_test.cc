// The relay's forwarder against a real Redis: changes committed in a burst
// (several per game, queued before the forwarder runs) each reach their
// stream exactly once and leave no outbox or mark behind, and a relay
// stopped with changes still queued loses none of them.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "game_state/outbox_relay.h"
#include "integration_env.h"
#include "platform/redis_pool.h"
#include "prometheus/registry.h"

namespace draughts::game_state::testing {
namespace {

constexpr int kGames = 120;
constexpr int kChangesPerGame = 3;

// A change as the commit script leaves it: the game marked with a fresh
// score, one message per change appended to its outbox.
struct CommittedChange {
  std::string game_id;
  std::string outbox_id;
  OutboxMessage message;
  int64_t outbox_length = 0;
  int64_t score = 0;
};

class OutboxForwardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> redis = TestRedisAddress();
    ASSERT_TRUE(redis.ok()) << redis.status();
    options_ = *platform::ParseRedisAddress(*redis);
    prefix_ = UniquePrefix();
    keys_ = RedisKeys{.prefix = prefix_};
    redis_ = std::make_unique<platform::RedisClient>(options_);
  }

  std::string Key(const std::string& name) { return absl::StrCat(prefix_, name); }

  // Commits (by hand, as commit_change.lua would) `change` of `game`: a
  // ClockUpdate for odd changes, a result for the others, so two streams
  // are involved. `redis` is one client per thread.
  CommittedChange Commit(platform::RedisClient& redis, int game, int change) {
    CommittedChange committed;
    committed.game_id = absl::StrCat("g", game);
    committed.message.kind =
        change % 2 == 1 ? OutboxMessage::Kind::kClockUpdate : OutboxMessage::Kind::kResult;
    committed.message.data = absl::StrCat("g", game, "-c", change);
    committed.score = absl::ToUnixMicros(absl::Now()) + change;
    EXPECT_TRUE(redis
                    .Command({"ZADD", Key("game-state:outbox-pending"),
                              absl::StrCat(committed.score), committed.game_id})
                    .ok());
    const std::string outbox = Key(absl::StrCat("game:{", committed.game_id, "}:outbox"));
    absl::StatusOr<platform::RedisReply> id =
        redis.Command({"XADD", outbox, "*", "kind", OutboxKindName(committed.message.kind), "data",
                       committed.message.data});
    EXPECT_TRUE(id.ok()) << id.status();
    if (id.ok()) committed.outbox_id = id->text();
    committed.outbox_length = redis.Command({"XLEN", outbox})->integer();
    return committed;
  }

  void Forward(OutboxRelay& relay, const CommittedChange& change) {
    relay.ForwardCommitted(change.game_id, {change.outbox_id}, {change.message},
                           change.outbox_length, change.score);
  }

  // data -> how many times it is in the global streams.
  std::map<std::string, int> Delivered() {
    std::map<std::string, int> seen;
    for (const char* stream : {"draughts:results", "draughts:deadlines", "draughts:bot-jobs"}) {
      absl::StatusOr<platform::RedisReply> entries =
          redis_->Command({"XRANGE", Key(stream), "-", "+"});
      EXPECT_TRUE(entries.ok()) << entries.status();
      if (!entries.ok()) continue;
      for (const platform::RedisReply& entry : entries->elements()) {
        const auto& fields = entry.elements()[1].elements();
        for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
          if (fields[i].text() == "data") ++seen[fields[i + 1].text()];
        }
      }
    }
    return seen;
  }

  // Every change of every game delivered exactly once, and no outbox or
  // mark left.
  void ExpectEachDeliveredOnce() {
    const std::map<std::string, int> delivered = Delivered();
    EXPECT_EQ(delivered.size(), static_cast<std::size_t>(kGames * kChangesPerGame));
    for (int game = 0; game < kGames; ++game) {
      for (int change = 1; change <= kChangesPerGame; ++change) {
        const std::string data = absl::StrCat("g", game, "-c", change);
        auto it = delivered.find(data);
        EXPECT_TRUE(it != delivered.end() && it->second == 1) << data;
      }
      EXPECT_EQ(
          redis_->Command({"XLEN", Key(absl::StrCat("game:{g", game, "}:outbox"))})->integer(), 0)
          << game;
    }
    EXPECT_EQ(redis_->Command({"ZCARD", Key("game-state:outbox-pending")})->integer(), 0);
  }

  // Waits until no game is marked pending; false after `timeout`.
  bool WaitUntilNoMark(absl::Duration timeout) {
    const absl::Time deadline = absl::Now() + timeout;
    while (redis_->Command({"ZCARD", Key("game-state:outbox-pending")})->integer() != 0) {
      if (absl::Now() > deadline) return false;
      absl::SleepFor(absl::Milliseconds(10));
    }
    return true;
  }

  static double Metric(prometheus::Registry& registry, const std::string& name) {
    for (const prometheus::MetricFamily& family : registry.Collect()) {
      if (family.name != name || family.metric.empty()) continue;
      return family.type == prometheus::MetricType::Gauge ? family.metric[0].gauge.value
                                                          : family.metric[0].counter.value;
    }
    return -1;
  }

  platform::RedisOptions options_;
  std::string prefix_;
  RedisKeys keys_;
  std::unique_ptr<platform::RedisClient> redis_;
};

TEST_F(OutboxForwardTest, ABurstOfChangesReachesTheStreamsExactlyOnceEach) {
  platform::RedisPool pool(options_, 2);
  prometheus::Registry registry;
  OutboxRelay relay(&pool, keys_, OutboxRelayOptions{.max_batch = 50}, nullptr, &registry);
  // Several changes of a game are committed before the first is forwarded
  // (its outbox then holds older messages): each is still forwarded once,
  // and the last one's forward clears the mark.
  std::vector<std::thread> committers;
  for (int part = 0; part < 4; ++part) {
    committers.emplace_back([&, part] {
      platform::RedisClient redis(options_);
      for (int game = part; game < kGames; game += 4) {
        std::vector<CommittedChange> changes;
        for (int change = 1; change <= kChangesPerGame; ++change) {
          changes.push_back(Commit(redis, game, change));
        }
        for (const CommittedChange& change : changes) Forward(relay, change);
      }
    });
  }
  for (std::thread& committer : committers) committer.join();
  ASSERT_TRUE(WaitUntilNoMark(absl::Seconds(10)));
  ExpectEachDeliveredOnce();
  // Many changes per round trip, not one each.
  const double batches = Metric(registry, "draughts_outbox_forward_batches_total");
  EXPECT_GE(batches, 1);
  EXPECT_LT(batches, kGames * kChangesPerGame);
  EXPECT_EQ(Metric(registry, "draughts_outbox_forwarded_total"), kGames * kChangesPerGame);
  EXPECT_EQ(Metric(registry, "draughts_outbox_forward_queued"), 0);
  EXPECT_EQ(Metric(registry, "draughts_outbox_forward_dropped_total"), 0);
}

TEST_F(OutboxForwardTest, StoppingARelayWithAQueueForwardsWhatIsQueued) {
  // One connection, held by the test: the forwarder cannot start.
  platform::RedisPool pool(options_, 1, absl::Seconds(10));
  std::optional<OutboxRelay> relay(std::in_place, &pool, keys_, OutboxRelayOptions{});
  std::optional<platform::RedisPool::Lease> held(*pool.Borrow());
  for (int game = 0; game < kGames; ++game) {
    for (int change = 1; change <= kChangesPerGame; ++change)
      Forward(*relay, Commit(*redis_, game, change));
  }
  EXPECT_GT(relay->Queued(), 0);
  std::thread stopper([&] { relay.reset(); });
  absl::SleepFor(absl::Milliseconds(50));
  held.reset();
  stopper.join();
  // Flushed before the destructor returned: no wait needed.
  ExpectEachDeliveredOnce();
}

TEST_F(OutboxForwardTest, WhatTheForwarderCouldNotSendStaysMarkedForTheSweeper) {
  // The only connection is held past the borrow timeout, and the queue is
  // too short for the burst: some changes are dropped, the rest fail.
  platform::RedisPool pool(options_, 1, absl::Milliseconds(100));
  prometheus::Registry registry;
  std::optional<OutboxRelay> relay(std::in_place, &pool, keys_, OutboxRelayOptions{.max_queued = 5},
                                   nullptr, &registry);
  {
    platform::RedisPool::Lease held = *pool.Borrow();
    for (int game = 0; game < kGames; ++game) {
      for (int change = 1; change <= kChangesPerGame; ++change) {
        Forward(*relay, Commit(*redis_, game, change));
      }
    }
    EXPECT_GT(Metric(registry, "draughts_outbox_forward_dropped_total"), 0);
    relay.reset();  // the queue fails to flush while the connection is held
  }
  EXPECT_EQ(redis_->Command({"ZCARD", Key("game-state:outbox-pending")})->integer(), kGames);
  // Another replica's sweeper finds every mark and forwards the rest.
  platform::RedisPool sweeper_pool(options_, 1);
  OutboxRelay sweeper(&sweeper_pool, keys_,
                      OutboxRelayOptions{.sweep_after = absl::ZeroDuration()});
  for (int pass = 0; pass < 10; ++pass) {
    absl::StatusOr<int> swept = sweeper.SweepOnce();
    ASSERT_TRUE(swept.ok()) << swept.status();
    if (*swept == 0) break;
  }
  ExpectEachDeliveredOnce();
}

}  // namespace
}  // namespace draughts::game_state::testing
