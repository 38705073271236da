#include "gateway/action_rate_limiter.h"

#include <gtest/gtest.h>

namespace draughts::gateway {
namespace {

TEST(ActionRateLimiterTest, BurstThenTheSustainedRatePerPlayer) {
  absl::Time now = absl::FromUnixSeconds(1700000000);
  ActionRateLimiter limiter({/*per_second=*/2, /*burst=*/3}, [&] { return now; });
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Take("g_a"), absl::ZeroDuration()) << i;
  const absl::Duration wait = limiter.Take("g_a");
  EXPECT_GT(wait, absl::ZeroDuration());
  EXPECT_LE(wait, absl::Milliseconds(500));
  EXPECT_EQ(limiter.Take("g_b"), absl::ZeroDuration()) << "another player has their own bucket";
  now += absl::Milliseconds(500);  // one token back at 2 per second
  EXPECT_EQ(limiter.Take("g_a"), absl::ZeroDuration());
  EXPECT_GT(limiter.Take("g_a"), absl::ZeroDuration());
  now += absl::Hours(1);  // refills up to the burst, no further
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Take("g_a"), absl::ZeroDuration()) << i;
  EXPECT_GT(limiter.Take("g_a"), absl::ZeroDuration());
}

TEST(ActionRateLimiterTest, AClockGoingBackGivesNothingBack) {
  absl::Time now = absl::FromUnixSeconds(1700000000);
  ActionRateLimiter limiter({1, 1}, [&] { return now; });
  EXPECT_EQ(limiter.Take("g_a"), absl::ZeroDuration());
  now -= absl::Seconds(30);
  EXPECT_GT(limiter.Take("g_a"), absl::ZeroDuration());
}

}  // namespace
}  // namespace draughts::gateway
