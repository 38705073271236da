// Actions per second per session on the lobby's POST routes: a token bucket
// per player id, in this process. In-process rather than in Redis because
// the limit guards the backends against a runaway or hostile client, not
// a business rule: a round trip to Redis per action would cost more than
// what it protects, and behind N replicas a client gets at most N times the
// rate, still bounded. Thread-safe; memory is bounded (idle buckets, which
// are full, are dropped when the map grows).
#ifndef DRAUGHTS_GATEWAY_ACTION_RATE_LIMITER_H_
#define DRAUGHTS_GATEWAY_ACTION_RATE_LIMITER_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace draughts::gateway {

struct ActionRateLimits {
  double per_second = 5;  // sustained rate
  double burst = 10;      // bucket size
};

class ActionRateLimiter {
 public:
  explicit ActionRateLimiter(ActionRateLimits limits, std::function<absl::Time()> now = absl::Now);

  // Takes one token of `player_id`'s bucket: zero when allowed, else how
  // long until a token is there (the Retry-After).
  absl::Duration Take(std::string_view player_id);

 private:
  struct Bucket {
    double tokens = 0;
    absl::Time updated;
  };
  void DropIdleLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const ActionRateLimits limits_;
  const std::function<absl::Time()> now_;
  absl::Mutex mutex_;
  absl::flat_hash_map<std::string, Bucket> buckets_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ACTION_RATE_LIMITER_H_
