#include "gateway/action_rate_limiter.h"

#include <algorithm>
#include <utility>

namespace draughts::gateway {
namespace {

// Past this many buckets the full (idle) ones are dropped.
constexpr std::size_t kMaxBuckets = 10000;

}  // namespace

ActionRateLimiter::ActionRateLimiter(ActionRateLimits limits, std::function<absl::Time()> now)
    : limits_(limits), now_(std::move(now)) {}

absl::Duration ActionRateLimiter::Take(std::string_view player_id) {
  const absl::Time now = now_();
  absl::MutexLock lock(&mutex_);
  auto [it, inserted] = buckets_.try_emplace(std::string(player_id), Bucket{limits_.burst, now});
  Bucket& bucket = it->second;
  if (!inserted) {
    const double refill = absl::ToDoubleSeconds(now - bucket.updated) * limits_.per_second;
    bucket.tokens = std::min(limits_.burst, bucket.tokens + std::max(0.0, refill));
    bucket.updated = std::max(bucket.updated, now);
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    if (inserted && buckets_.size() > kMaxBuckets) DropIdleLocked(now);
    return absl::ZeroDuration();
  }
  return absl::Seconds((1 - bucket.tokens) / limits_.per_second);
}

void ActionRateLimiter::DropIdleLocked(absl::Time now) {
  const absl::Duration to_fill = absl::Seconds(limits_.burst / limits_.per_second);
  absl::erase_if(buckets_,
                 [&](const auto& entry) { return now - entry.second.updated >= to_fill; });
}

}  // namespace draughts::gateway
