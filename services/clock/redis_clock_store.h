// The clock's store in Redis: the only file that knows the keys and the
// scripts (lua/*.lua). Games are spread over `shards` timer sets; each
// game's keys carry its shard's hash tag, so every script touches one
// Redis Cluster slot:
//
//   <prefix>clock:{<shard>}:timers         sorted set, member m:<game> (the
//                                          move deadline) or p:<game> (the
//                                          next presence check), score ms
//   <prefix>clock:{<shard>}:game:<game>    hash: version, ply, color,
//                                          deadline, human seats, per seat
//                                          presence (or a tombstone: over)
//   <prefix>clock:{<shard>}:conn:<game>    hash "<color>|<connection id>" ->
//                                          last beat ms
//
// Every replica must run with the same prefix and shard count. Thread-safe
// (connections come from the pool).
#ifndef DRAUGHTS_CLOCK_REDIS_CLOCK_STORE_H_
#define DRAUGHTS_CLOCK_REDIS_CLOCK_STORE_H_

#include <atomic>
#include <string>
#include <vector>

#include "clock/clock_store.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"

namespace draughts::clock {

struct RedisClockStoreOptions {
  std::string key_prefix;
  int shards = 16;
  // How long a game's keys live after its last change (a game game-state
  // dropped without an end), and how long a finished game's tombstone does.
  absl::Duration game_ttl = absl::Hours(48);
  absl::Duration tombstone_ttl = absl::Hours(24);
  // The 2-minute rule, counted from the first arming for a seat that never
  // connects.
  absl::Duration abandon_after = absl::Minutes(2);
};

class RedisClockStore final : public ClockStore {
 public:
  RedisClockStore(platform::RedisPool* pool, RedisClockStoreOptions options);

  // Loads the scripts (fails fast on a Redis that cannot run them).
  absl::Status Preload();

  absl::StatusOr<ArmOutcome> Arm(const ArmCommand& command, absl::Time now) override;
  absl::Status Cancel(const std::string& game_id, std::optional<int64_t> game_version) override;
  absl::StatusOr<std::vector<absl::StatusOr<ChangeOutcome>>> ApplyChanges(
      const std::vector<DeadlineChange>& changes, absl::Time now) override;
  absl::StatusOr<std::optional<GameClock>> Load(const std::string& game_id) override;
  absl::StatusOr<bool> Beat(const BeatCommand& command) override;
  absl::StatusOr<std::vector<DueTimer>> ClaimDue(absl::Time now, absl::Time lease_until,
                                                 int limit) override;
  absl::Status FinishMove(const DueTimer& timer, std::optional<absl::Time> retry_at) override;
  absl::Status SavePresence(const DueTimer& timer, const PresenceUpdate& update) override;
  absl::Status Forget(const std::string& game_id) override;

  // Key names (tests inspect them).
  int ShardOf(const std::string& game_id) const;
  std::string TimersKey(int shard) const;
  std::string GameKey(const std::string& game_id) const;
  std::string ConnectionsKey(const std::string& game_id) const;

 private:
  std::string TimersKeyOf(const std::string& game_id) const;
  platform::ScriptCall ArmCall(const ArmCommand& command, absl::Time now) const;
  platform::ScriptCall CancelCall(const std::string& game_id,
                                  std::optional<int64_t> game_version) const;

  platform::RedisPool* pool_;
  RedisClockStoreOptions options_;
  // Where the next claim starts, so no shard waits behind busier ones.
  std::atomic<int> next_shard_{0};
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_REDIS_CLOCK_STORE_H_
