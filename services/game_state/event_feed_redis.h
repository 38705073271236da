// EventFeed over the per-game Redis streams, for WatchGame.
//
// Many watchers, few connections: one tailer thread per replica holds ONE
// dedicated connection and runs XREAD BLOCK over the streams of every game
// watched on this replica, fanning each new batch out to that game's
// subscribers. A watcher never holds a connection while it waits; it only
// borrows a pooled one briefly to catch up (from its resume point, or over
// a gap when it fell behind the tailer). A subscriber that starts watching
// a game nobody watched here wakes the tailer (CLIENT UNBLOCK) so the new
// stream joins the next XREAD at once.
//
// On Redis Cluster one XREAD may only name keys of one slot, so the tailer
// would have to group the watched games by node (one connection per node)
// and fall back to one read per slot; with a single Redis (and its
// replicas) this is not needed today.
#ifndef DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_
#define DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "game_state/game_store.h"
#include "game_state/redis_keys.h"
#include "platform/event_id.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"

namespace draughts::game_state {

struct RedisEventFeedOptions {
  // Longest XREAD BLOCK; also bounds how long a stop or a missed wake-up
  // can take.
  absl::Duration block = absl::Seconds(1);
  // Streams per XREAD; beyond that the tailer polls in chunks.
  int max_streams_per_read = 1000;
  // Entries per stream per read.
  int read_count = 100;
};

class RedisEventFeed final : public EventFeed {
 public:
  // `pool` serves the short catch-up reads and must outlive the feed; the
  // tailer opens its own connection with `tail_options`.
  RedisEventFeed(platform::RedisPool* pool, platform::RedisOptions tail_options, RedisKeys keys,
                 RedisEventFeedOptions options = {});
  ~RedisEventFeed() override;  // stops the tailer; subscriptions must be gone

  absl::StatusOr<std::unique_ptr<EventSubscription>> Subscribe(
      const std::string& game_id, const std::string& after_event_id) override;

  // Games the tailer follows now (tests, metrics).
  int watched_games() const;

 private:
  class Subscription;
  struct Watched {
    platform::EventId cursor;  // last entry the tailer read
    std::vector<Subscription*> subscribers;
  };

  // Entries after `after` (nullopt: from the start), at most `count`.
  absl::StatusOr<std::vector<v1::GameEvent>> ReadRange(const std::string& game_id,
                                                       std::optional<platform::EventId> after,
                                                       int count);
  void Register(Subscription* subscription, const std::string& game_id,
                platform::EventId tail_from);
  void Unregister(Subscription* subscription, const std::string& game_id);
  void WakeTailer();
  void TailLoop();

  platform::RedisPool* pool_;
  platform::RedisOptions tail_options_;
  RedisKeys keys_;
  RedisEventFeedOptions options_;

  mutable std::mutex mu_;
  std::condition_variable watched_changed_;
  std::map<std::string, Watched> watched_;
  bool stopping_ = false;
  std::atomic<int64_t> tail_client_id_{-1};
  std::thread tailer_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_EVENT_FEED_REDIS_H_
