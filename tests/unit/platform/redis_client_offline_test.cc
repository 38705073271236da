// RedisClient and RedisPool behaviour that needs no running server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"
#include "platform/redis_streams.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

TEST(ParseRedisAddressTest, AcceptsHostPort) {
  auto options = ParseRedisAddress("10.0.0.7:6380");
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->host, "10.0.0.7");
  EXPECT_EQ(options->port, 6380);
  auto v6 = ParseRedisAddress("[::1]:6379");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
}

TEST(ParseRedisAddressTest, RejectsMalformed) {
  for (const char* bad : {"", "redis", ":6379", "host:", "host:0", "host:70000", "host:6x"}) {
    auto options = ParseRedisAddress(bad);
    EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

RedisOptions NobodyListening() {
  auto port = platform::testing::PickFreePort();
  RedisOptions options;
  options.port = port.ok() ? *port : 1;
  options.connect_attempts = 3;
  options.initial_backoff = absl::Milliseconds(40);
  return options;
}

TEST(RedisClientOfflineTest, ServerDownIsUnavailableAfterBoundedRetries) {
  RedisClient client(NobodyListening());
  absl::Time begin = absl::Now();
  auto reply = client.Command({"PING"});
  absl::Duration took = absl::Now() - begin;
  ASSERT_EQ(reply.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(reply.status().message()), HasSubstr("after 3 attempts"));
  // Backoff 40 ms then 80 ms between the three attempts.
  EXPECT_GE(took, absl::Milliseconds(120));
  EXPECT_LT(took, absl::Seconds(3));
  EXPECT_FALSE(client.connected());
}

TEST(RedisClientOfflineTest, BadInputIsRejectedBeforeConnecting) {
  RedisClient client(NobodyListening());
  EXPECT_EQ(client.Command(std::vector<std::string>{}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(client.Pipeline({{"PING"}, {}}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(client.Pipeline({}).value().empty());
  EXPECT_EQ(StreamAdd(client, "k", {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StreamReadBlocking(client, {{"k", "$"}}, absl::ZeroDuration()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StreamReadBlocking(client, {}, absl::Seconds(1)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RedisPoolTest, BorrowIsExclusiveAndLeasesReturnOnScopeExit) {
  RedisPool pool(NobodyListening(), 2, absl::Milliseconds(100));
  EXPECT_EQ(pool.size(), 2);
  {
    auto a = pool.Borrow();
    auto b = pool.Borrow();
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(b.ok());
    EXPECT_NE(&**a, &**b);
    EXPECT_EQ(pool.available(), 0);
    absl::Time begin = absl::Now();
    auto c = pool.Borrow();
    EXPECT_EQ(c.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_GE(absl::Now() - begin, absl::Milliseconds(100));
  }
  EXPECT_EQ(pool.available(), 2);
}

TEST(RedisPoolTest, MovedLeaseReturnsExactlyOnce) {
  RedisPool pool(NobodyListening(), 1, absl::Milliseconds(50));
  {
    auto lease = pool.Borrow();
    ASSERT_TRUE(lease.ok());
    RedisPool::Lease moved = std::move(lease).value();
    EXPECT_EQ(pool.available(), 0);
  }
  EXPECT_EQ(pool.available(), 1);
}

TEST(RedisPoolTest, WaitingBorrowerGetsTheReturnedConnection) {
  RedisPool pool(NobodyListening(), 1, absl::Seconds(5));
  auto held = pool.Borrow();
  ASSERT_TRUE(held.ok());
  RedisClient* first = &**held;
  std::atomic<bool> got{false};
  RedisClient* second = nullptr;
  std::thread waiter([&] {
    auto lease = pool.Borrow();
    if (lease.ok()) {
      second = &**lease;
      got = true;
    }
  });
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_FALSE(got.load());
  { RedisPool::Lease release = std::move(held).value(); }
  waiter.join();
  EXPECT_TRUE(got.load());
  EXPECT_EQ(second, first);
}

TEST(RedisPoolTest, ManyThreadsNeverShareAConnection) {
  RedisPool pool(NobodyListening(), 3, absl::Seconds(10));
  std::atomic<int> in_use{0};
  std::atomic<int> max_in_use{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        auto lease = pool.Borrow();
        if (!lease.ok()) continue;
        int now = ++in_use;
        int seen = max_in_use.load();
        while (now > seen && !max_in_use.compare_exchange_weak(seen, now)) {
        }
        --in_use;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LE(max_in_use.load(), 3);
  EXPECT_EQ(pool.available(), 3);
}

}  // namespace
}  // namespace draughts::platform
