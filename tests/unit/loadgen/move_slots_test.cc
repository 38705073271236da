#include "loadgen/move_slots.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace draughts::loadgen {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1'000'000);

// Sockets asking for moves as gateway_table.cc does: each asks at `asked`
// with its own action spacing `earliest`; when told to wait it asks again
// at `earliest`. Returns every send time.
std::vector<absl::Time> Sends(MoveSlots& slots,
                              const std::vector<std::pair<absl::Time, absl::Time>>& asks) {
  std::multimap<absl::Time, absl::Time> queue;  // asked at -> earliest
  for (const auto& [asked, earliest] : asks) queue.emplace(asked, earliest);
  std::vector<absl::Time> sends;
  while (!queue.empty()) {
    const auto [now, earliest] = *queue.begin();
    queue.erase(queue.begin());
    const std::optional<absl::Time> at = slots.Take(now, earliest);
    if (at.has_value()) {
      EXPECT_GE(*at, now);
      EXPECT_GE(*at, earliest);
      sends.push_back(*at);
    } else {
      EXPECT_GT(earliest, now);
      queue.emplace(earliest, earliest);
    }
  }
  std::sort(sends.begin(), sends.end());
  return sends;
}

TEST(MoveSlotsTest, MovesHeldBackBySpacingDoNotBurstAboveTheRate) {
  // 100 moves/s. Fifty sockets ask at once, all held back by their own
  // action spacing to the same instant, while fifty others are ready now.
  MoveSlots slots(100);
  std::vector<std::pair<absl::Time, absl::Time>> asks;
  for (int i = 0; i < 50; ++i) asks.emplace_back(kStart, kStart + absl::Milliseconds(250));
  for (int i = 0; i < 50; ++i) {
    asks.emplace_back(kStart + absl::Milliseconds(i), absl::InfinitePast());
  }
  const std::vector<absl::Time> sends = Sends(slots, asks);
  ASSERT_EQ(sends.size(), 100u);
  for (std::size_t i = 1; i < sends.size(); ++i) {
    EXPECT_GE(sends[i] - sends[i - 1], absl::Milliseconds(10)) << "sends " << i - 1 << "," << i;
  }
  // So any one second holds at most rate + 1 of them.
  for (const absl::Time from : sends) {
    const auto in_second = std::count_if(sends.begin(), sends.end(), [&](absl::Time t) {
      return t >= from && t < from + absl::Seconds(1);
    });
    EXPECT_LE(in_second, 101);
  }
}

TEST(MoveSlotsTest, AReadyMoveIsNotHeldBehindOneWaitingForItsSpacing) {
  MoveSlots slots(100);
  EXPECT_FALSE(slots.Take(kStart, kStart + absl::Seconds(1)).has_value());
  EXPECT_EQ(slots.Take(kStart, kStart), kStart);
  EXPECT_EQ(slots.Take(kStart, kStart), kStart + absl::Milliseconds(10));
}

TEST(MoveSlotsTest, IdleTimeIsNotSavedUpForABurst) {
  MoveSlots slots(10);
  EXPECT_EQ(slots.Take(kStart, absl::InfinitePast()), kStart);
  const absl::Time later = kStart + absl::Seconds(5);
  EXPECT_EQ(slots.Take(later, absl::InfinitePast()), later);
  EXPECT_EQ(slots.Take(later, absl::InfinitePast()), later + absl::Milliseconds(100));
}

TEST(MoveSlotsTest, NoRateSendsAsSoonAsTheSpacingAllows) {
  MoveSlots slots(0);
  EXPECT_EQ(slots.Take(kStart, kStart), kStart);
  EXPECT_EQ(slots.Take(kStart, kStart), kStart);
  EXPECT_FALSE(slots.Take(kStart, kStart + absl::Milliseconds(1)).has_value());
}

}  // namespace
}  // namespace draughts::loadgen
