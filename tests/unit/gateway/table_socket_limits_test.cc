#include "gateway/table_socket_limits.h"

#include <gtest/gtest.h>

namespace draughts::gateway {
namespace {

TEST(SocketActionLimiterTest, BurstThenRate) {
  SocketActionLimiter limiter(5, 10);
  const absl::Time start = absl::FromUnixSeconds(1000);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(limiter.Allow(start)) << i;
  EXPECT_FALSE(limiter.Allow(start));
  EXPECT_FALSE(limiter.Allow(start + absl::Milliseconds(100)));  // half an action back
  EXPECT_TRUE(limiter.Allow(start + absl::Milliseconds(200)));
  EXPECT_FALSE(limiter.Allow(start + absl::Milliseconds(200)));
  // Never more than the burst, however long the pause.
  int allowed = 0;
  while (limiter.Allow(start + absl::Hours(1))) ++allowed;
  EXPECT_EQ(allowed, 10);
  // A clock going back changes nothing.
  EXPECT_FALSE(limiter.Allow(start));
}

TEST(SessionSocketCounterTest, CapPerSession) {
  SessionSocketCounter counter(2);
  EXPECT_TRUE(counter.TryAcquire("a"));
  EXPECT_TRUE(counter.TryAcquire("a"));
  EXPECT_FALSE(counter.TryAcquire("a"));
  EXPECT_TRUE(counter.TryAcquire("b"));
  counter.Release("a");
  EXPECT_EQ(counter.open("a"), 1);
  EXPECT_TRUE(counter.TryAcquire("a"));
  counter.Release("b");
  counter.Release("b");  // an extra release is harmless
  EXPECT_EQ(counter.open("b"), 0);
}

}  // namespace
}  // namespace draughts::gateway
