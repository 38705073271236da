// Live reads of many Redis streams with few connections: behind WatchGame
// (a game's events), WatchTable and WatchChat (a table's or a chat's lines).
//
// One tailer thread per feed (per replica) holds ONE dedicated connection
// and runs XREAD BLOCK over every stream watched on this replica, fanning
// each new batch out to that stream's subscribers. A watcher never holds a
// connection while it waits: it borrows a pooled one only to catch up
// (from its resume point, or over a gap when it fell behind the tailer). A
// subscriber of a stream nobody watched here wakes the tailer (CLIENT
// UNBLOCK) so the stream joins the next XREAD at once, instead of after
// the current block times out.
//
// On Redis Cluster one XREAD may only name keys of one slot, and a game's
// streams are spread over all slots, so one blocking read cannot cover
// them: the tailer sends one XREAD per slot without BLOCK, pipelined per
// node by the cluster client (one round trip per master), and waits
// `cluster_poll_interval` after a round that brought nothing (a new
// subscription cuts the wait short). Delivery then trails a write by up to
// that interval, and each round costs one XREAD per watched slot.
//
//   RedisStreamFeed feed(&pool, redis_options);
//   DRAUGHTS_ASSIGN_OR_RETURN(StreamEnds ends, feed.ReadEnds(key));
//   if (!ends.first) return absl::NotFoundError("no such chat");
//   DRAUGHTS_ASSIGN_OR_RETURN(auto subscription, feed.Subscribe(key, resume_after, ends.LastId()));
//   while (...) { DRAUGHTS_ASSIGN_OR_RETURN(auto entries, subscription->Next(absl::Seconds(1))); }
#ifndef DRAUGHTS_PLATFORM_STREAM_FEED_H_
#define DRAUGHTS_PLATFORM_STREAM_FEED_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/event_id.h"
#include "platform/redis_client.h"
#include "platform/redis_pool.h"
#include "platform/redis_streams.h"

namespace draughts::platform {

struct StreamFeedOptions {
  // Longest XREAD BLOCK; also bounds how long a stop or a missed wake-up
  // can take.
  absl::Duration block = absl::Seconds(1);
  // Streams per XREAD; beyond that the tailer polls in chunks.
  int max_streams_per_read = 1000;
  // Entries per stream per read, and per catch-up read.
  int read_count = 100;
  // Redis Cluster only: the pause after a polling round that found nothing.
  absl::Duration cluster_poll_interval = absl::Milliseconds(20);
};

// The oldest and newest entry of a stream (both empty for a missing or
// empty stream), read in one round trip.
struct StreamEnds {
  std::optional<StreamEntry> first;
  std::optional<StreamEntry> last;
  // Where a new subscriber's tailing starts: the newest entry, or the
  // start of the stream when it has none.
  EventId LastId() const;
};

// One watcher of one stream; not thread-safe (one reader). Destroy it
// before the feed.
class StreamSubscription {
 public:
  virtual ~StreamSubscription() = default;
  // The entries after those already returned, oldest first, waiting up to
  // `timeout` for at least one; empty when none came in time.
  virtual absl::StatusOr<std::vector<StreamEntry>> Next(absl::Duration timeout) = 0;
  // For readers that never wait in Next (gRPC callback handlers): `ready`
  // is called each time entries arrive for Next(0) to return. It runs on
  // the tailer's thread with the feed's lock held, so it must only hand the
  // work on (never call Next, the feed, or destroy the subscription there).
  // Returns false when not supported.
  virtual bool SetReadyCallback(std::function<void()> ready) {
    (void)ready;
    return false;
  }
};

class RedisStreamFeed {
 public:
  // `pool` serves the short catch-up reads and must outlive the feed; the
  // tailer opens its own connection with `tail_options`.
  RedisStreamFeed(RedisPool* pool, RedisOptions tail_options, StreamFeedOptions options = {});
  ~RedisStreamFeed();  // stops the tailer; subscriptions must be gone
  RedisStreamFeed(const RedisStreamFeed&) = delete;
  RedisStreamFeed& operator=(const RedisStreamFeed&) = delete;

  absl::StatusOr<StreamEnds> ReadEnds(const std::string& key);

  // Entries of `key` after `after` (nullopt: from the first). `tail_from`
  // is the stream's newest id as the caller last saw it (StreamEnds): the
  // tailer starts there if nobody on this replica watches `key` yet, and
  // the subscriber catches up from `after` to there by itself.
  absl::StatusOr<std::unique_ptr<StreamSubscription>> Subscribe(const std::string& key,
                                                                std::optional<EventId> after,
                                                                EventId tail_from);

  // Streams the tailer follows now (tests, metrics).
  int watched_streams() const;

 private:
  class Subscription;
  struct Watched {
    EventId cursor;  // last entry the tailer read
    std::vector<Subscription*> subscribers;
  };

  // Entries after `after` (nullopt: from the start), at most `count`.
  absl::StatusOr<std::vector<StreamEntry>> ReadRange(const std::string& key,
                                                     std::optional<EventId> after, int count);
  void Register(Subscription* subscription, const std::string& key, EventId tail_from);
  void Unregister(Subscription* subscription, const std::string& key);
  void WakeTailer();
  void TailLoop();
  void ClusterTailLoop();
  // Hands each batch to its stream's subscribers; whether any had entries.
  bool DeliverBatches(std::vector<StreamBatch>& batches);

  RedisPool* pool_;
  RedisOptions tail_options_;
  StreamFeedOptions options_;

  mutable std::mutex mu_;
  std::condition_variable watched_changed_;
  std::map<std::string, Watched> watched_;
  uint64_t watched_generation_ = 0;  // bumped when a stream joins
  bool stopping_ = false;
  std::atomic<int64_t> tail_client_id_{-1};
  std::thread tailer_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_STREAM_FEED_H_
