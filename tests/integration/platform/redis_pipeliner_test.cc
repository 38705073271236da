// RedisPipeliner against a real redis-server (DRAUGHTS_TEST_REDIS): many
// callers at once each get their own replies (in submission order on one
// connection);
// error replies stay per command; a stream subscription's ready callback
// fires for new entries (the signal the callback-API WatchGame waits on).
#include "platform/redis_pipeliner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/redis_pool.h"
#include "platform/stream_feed.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

std::string TestKey(std::string_view name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return absl::StrCat("platform-test:", ::getpid(), ":", info->name(), ":", std::string(name));
}

RedisOptions TestRedis() {
  auto address = testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  EXPECT_TRUE(address.ok()) << address.status().message();
  auto options = ParseRedisAddress(address.ok() ? *address : "127.0.0.1:1");
  EXPECT_TRUE(options.ok());
  return *options;
}

TEST(RedisPipelinerTest, ConcurrentCallersEachGetTheirOwnReplies) {
  RedisPipeliner pipeliner(TestRedis(), {.connections = 2});
  constexpr int kThreads = 4;
  constexpr int kPerThread = 300;
  std::mutex mu;
  std::condition_variable all_done;
  int done = 0;
  int wrong = 0;
  // INCR results seen by each caller: its own key's 1..kPerThread, each once,
  // if every reply went to the request that sent its command.
  std::vector<std::set<int64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string key = TestKey(absl::StrCat("counter-", t));
      for (int i = 1; i <= kPerThread; ++i) {
        pipeliner.Submit({{"INCR", key}, {"GET", key}, {"EXPIRE", key, "60"}},
                         [&, t](absl::StatusOr<std::vector<RedisReply>> replies) {
                           std::lock_guard<std::mutex> lock(mu);
                           int64_t got = 0;
                           // GET runs after its own INCR (same connection,
                           // in order), perhaps after later ones too.
                           if (!replies.ok() || replies->size() != 3 ||
                               !absl::SimpleAtoi((*replies)[1].text(), &got) ||
                               got < (*replies)[0].integer()) {
                             ++wrong;
                           } else {
                             seen[t].insert((*replies)[0].integer());
                           }
                           ++done;
                           all_done.notify_all();
                         });
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::unique_lock<std::mutex> lock(mu);
  ASSERT_TRUE(all_done.wait_for(lock, std::chrono::seconds(30),
                                [&] { return done == kThreads * kPerThread; }));
  EXPECT_EQ(wrong, 0);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(seen[t].size(), static_cast<std::size_t>(kPerThread));
    EXPECT_EQ(*seen[t].begin(), 1);
    EXPECT_EQ(*seen[t].rbegin(), kPerThread);
  }
}

TEST(RedisPipelinerTest, OneConnectionKeepsTheSubmissionOrder) {
  RedisPipeliner pipeliner(TestRedis(), {.connections = 1});
  const std::string key = TestKey("ordered");
  std::mutex mu;
  std::condition_variable all_done;
  std::vector<int64_t> order;
  for (int i = 0; i < 500; ++i) {
    pipeliner.Submit({{"INCR", key}, {"EXPIRE", key, "60"}},
                     [&](absl::StatusOr<std::vector<RedisReply>> replies) {
                       std::lock_guard<std::mutex> lock(mu);
                       order.push_back(replies.ok() ? (*replies)[0].integer() : -1);
                       all_done.notify_all();
                     });
  }
  std::unique_lock<std::mutex> lock(mu);
  ASSERT_TRUE(
      all_done.wait_for(lock, std::chrono::seconds(30), [&] { return order.size() == 500; }));
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], static_cast<int64_t>(i + 1));
}

TEST(RedisPipelinerTest, AnErrorReplyStaysWithItsCommand) {
  RedisPipeliner pipeliner(TestRedis(), {.connections = 1});
  const std::string key = TestKey("text");
  std::mutex mu;
  std::condition_variable arrived;
  std::optional<absl::StatusOr<std::vector<RedisReply>>> got;
  pipeliner.Submit({{"SET", key, "not a number", "EX", "60"}, {"INCR", key}, {"GET", key}},
                   [&](absl::StatusOr<std::vector<RedisReply>> replies) {
                     std::lock_guard<std::mutex> lock(mu);
                     got = std::move(replies);
                     arrived.notify_all();
                   });
  std::unique_lock<std::mutex> lock(mu);
  ASSERT_TRUE(arrived.wait_for(lock, std::chrono::seconds(10), [&] { return got.has_value(); }));
  ASSERT_TRUE(got->ok()) << got->status();
  ASSERT_EQ((*got)->size(), 3u);
  EXPECT_FALSE((**got)[0].is_error());
  EXPECT_TRUE((**got)[1].is_error());
  EXPECT_EQ((**got)[2].text(), "not a number");
}

TEST(RedisPipelinerTest, TheDestructorSendsWhatIsQueued) {
  const std::string key = TestKey("queued");
  std::atomic<int> answered{0};
  {
    RedisPipeliner pipeliner(TestRedis(), {.connections = 1});
    for (int i = 0; i < 200; ++i) {
      pipeliner.Submit({{"INCR", key}, {"EXPIRE", key, "60"}},
                       [&](absl::StatusOr<std::vector<RedisReply>> replies) {
                         if (replies.ok()) ++answered;
                       });
    }
  }
  EXPECT_EQ(answered.load(), 200);
  RedisClient client(TestRedis());
  auto value = client.Command({"GET", key});
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(value->text(), "200");
}

TEST(StreamReadyCallbackTest, FiresWhenEntriesArriveForNext) {
  const RedisOptions options = TestRedis();
  RedisPool pool(options, 2);
  RedisStreamFeed feed(&pool, options);
  const std::string key = TestKey("stream");
  RedisClient client(options);
  ASSERT_TRUE(client.Command({"XADD", key, "*", "v", "first"}).ok());
  ASSERT_TRUE(client.Command({"EXPIRE", key, "60"}).ok());
  auto ends = feed.ReadEnds(key);
  ASSERT_TRUE(ends.ok()) << ends.status();
  auto subscription = feed.Subscribe(key, ends->LastId(), ends->LastId());
  ASSERT_TRUE(subscription.ok()) << subscription.status();
  std::mutex mu;
  std::condition_variable signalled;
  int signals = 0;
  ASSERT_TRUE((*subscription)->SetReadyCallback([&] {
    std::lock_guard<std::mutex> lock(mu);
    ++signals;
    signalled.notify_all();
  }));
  // Caught up (nothing after "first"), without waiting.
  auto none = (*subscription)->Next(absl::ZeroDuration());
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  ASSERT_TRUE(client.Command({"XADD", key, "*", "v", "second"}).ok());
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(signalled.wait_for(lock, std::chrono::seconds(10), [&] { return signals > 0; }));
  }
  auto next = (*subscription)->Next(absl::ZeroDuration());
  ASSERT_TRUE(next.ok()) << next.status();
  ASSERT_EQ(next->size(), 1u);
  EXPECT_EQ(*(*next)[0].Find("v"), "second");
}

}  // namespace
}  // namespace draughts::platform
