// Live reads of many Redis streams with few connections: behind WatchGame
// (a game's events), WatchTable and WatchChat (a table's or a chat's lines).
//
// One tailer thread per feed (per replica) holds ONE connection and reads,
// with non-blocking XREADs pipelined in one round trip, only the watched
// streams that changed, fanning each new batch out to that stream's
// subscribers. It learns which ones changed from the writers: each writer
// script PUBLISHes the key of the stream it appended to on the feed's
// `change_channel`, and a second thread of the feed, subscribed to that
// channel on its own connection, marks the stream for the next read. A
// read thus costs the streams that moved, not every watched one, and
// follows a write by one round trip. Every `sweep_interval` (and after the
// subscriber reconnects, when notices may have been lost) all watched
// streams are read anyway, so a writer that does not publish is late, not
// lost. Without a channel the tailer reads every watched stream each
// `poll_interval`.
//
// A watcher never holds a connection while it waits: it borrows a pooled
// one only to catch up (from its resume point, or over a gap when it fell
// behind the tailer). A subscriber of a stream nobody watched here gets the
// stream read at once.
//
// On Redis Cluster one XREAD may only name keys of one slot: the tailer
// sends one per slot, pipelined per node by the cluster client. PUBLISH
// reaches every node of a cluster, so the subscriber listens on any one
// (the seeds in turn).
//
//   RedisStreamFeed feed(&pool, redis_options, {.change_channel = "chat-changed"});
//   DRAUGHTS_ASSIGN_OR_RETURN(StreamEnds ends, feed.ReadEnds(key));
//   if (!ends.first) return absl::NotFoundError("no such chat");
//   DRAUGHTS_ASSIGN_OR_RETURN(auto subscription, feed.Subscribe(key, resume_after, ends.LastId()));
//   while (...) { DRAUGHTS_ASSIGN_OR_RETURN(auto entries, subscription->Next(absl::Seconds(1))); }
#ifndef DRAUGHTS_PLATFORM_STREAM_FEED_H_
#define DRAUGHTS_PLATFORM_STREAM_FEED_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
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
  // The pub/sub channel on which the streams' writers publish a stream's
  // key after appending to it; empty when they do not (polling).
  std::string change_channel;
  // With a channel: how often every watched stream is read anyway.
  absl::Duration sweep_interval = absl::Seconds(1);
  // Without one: how often every watched stream is read.
  absl::Duration poll_interval = absl::Milliseconds(20);
  // Streams per XREAD.
  int max_streams_per_read = 1000;
  // Entries per stream per read, and per catch-up read.
  int read_count = 100;
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
  void TailLoop();
  void NoticeLoop();
  // Marks `keys` (those watched here) for the next read.
  void MarkChanged(const std::vector<std::string>& keys);
  // Hands each batch to its stream's subscribers; marks a stream that gave
  // a full batch for another read.
  void DeliverBatches(std::vector<StreamBatch>& batches);

  RedisPool* pool_;
  RedisOptions tail_options_;
  StreamFeedOptions options_;
  // Written to stop the subscriber's wait at once.
  int wake_fd_ = -1;

  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, Watched> watched_;
  std::set<std::string> dirty_;  // watched streams to read next
  bool sweep_now_ = true;        // read every watched stream next
  bool stopping_ = false;
  std::thread tailer_;
  std::thread notices_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_STREAM_FEED_H_
