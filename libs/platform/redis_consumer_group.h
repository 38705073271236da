// Redis stream consumer groups: how the replicas of a consuming service
// (bot workers, rating, matchmaking's rematch window) share one stream so
// each entry is handled by one replica, and how a dead replica's entries are
// taken over by the living.
//
// An entry's life in a group: ReadNew delivers it to one consumer, which
// now owns it ("pending") until it calls Ack. A consumer that dies before
// Ack leaves it pending: restarted under the same name it gets it back with
// ReadPending, and any other consumer takes it over with ClaimIdle once it
// has been idle longer than a timeout. Delivery is therefore at least once:
// handlers must be idempotent, which every draughts call is by contract
// (same expected ply, same idempotency key).
//
// Each group is independent: a second group on the same stream (rating and
// matchmaking on results) sees every entry too.
//
//   StreamConsumer jobs({.stream = "draughts:bot-jobs", .group = "bot",
//                        .consumer = "bot-7f9c-1"});
//   DRAUGHTS_RETURN_IF_ERROR(jobs.CreateGroup(*redis));   // at start, idempotent
//   // what this consumer had before a restart, then new work:
//   DRAUGHTS_ASSIGN_OR_RETURN(auto mine, jobs.ReadPending(*redis, 100));
//   DRAUGHTS_ASSIGN_OR_RETURN(auto fresh, jobs.ReadNew(*redis, 10, absl::Seconds(5)));
//   for (const StreamEntry& job : fresh) {
//     if (Handle(job).ok()) jobs.Ack(*redis, {job.id}).IgnoreError();
//   }
//
// A StreamConsumer only holds names; each call takes the client to use, so
// it fits a RedisPool lease. A blocking ReadNew holds its connection for the
// block time: give blocking readers their own client or a big enough pool.
//
// A group that vanished (Redis restarted without persistence, or the stream
// was deleted) is created again, from options.start_id, by the reading
// calls (ReadNew, ReadPending, ClaimIdle), which then read once more; the
// other calls report NOT_FOUND.
#ifndef DRAUGHTS_PLATFORM_REDIS_CONSUMER_GROUP_H_
#define DRAUGHTS_PLATFORM_REDIS_CONSUMER_GROUP_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"
#include "platform/redis_streams.h"

namespace draughts::platform {

struct StreamConsumerOptions {
  std::string stream;
  std::string group;
  // Unique per living process (e.g. "<pod name>-<pid>"): two processes with
  // one name would steal each other's pending entries. A process restarted
  // under the same name gets its own pending entries back with ReadPending.
  std::string consumer;
  // Where a new group starts: "0" hands out every entry already in the
  // stream (nothing written before the consumers started is lost), "$" only
  // entries added after the group was created.
  std::string start_id = "0";
};

// ClaimIdle's answer. Pass `next_cursor` to the next ClaimIdle to go on
// scanning the pending list; "0-0" means the scan went round once.
struct ClaimedEntries {
  std::string next_cursor;
  std::vector<StreamEntry> entries;  // now owned by this consumer
  // Pending ids whose entries were deleted from the stream (XDEL, MAXLEN);
  // Redis 7 drops them from the pending list, there is nothing to handle.
  std::vector<std::string> deleted_ids;
};

// XPENDING summary: what the group has delivered and not seen acked.
struct PendingSummary {
  int64_t count = 0;
  std::string min_id;  // empty when count == 0
  std::string max_id;
  std::vector<std::pair<std::string, int64_t>> per_consumer;  // (consumer, count)
};

// One pending entry (extended XPENDING): who owns it, for how long, and how
// often it was delivered, so a worker can give up on an entry that keeps
// killing its consumers.
struct PendingEntry {
  std::string id;
  std::string consumer;
  absl::Duration idle;
  int64_t deliveries = 0;
  bool operator==(const PendingEntry&) const = default;
};

// XINFO GROUPS for one group: what a queue dashboard or an autoscaler needs.
struct ConsumerGroupInfo {
  std::string name;
  int64_t consumers = 0;
  int64_t pending = 0;  // delivered, not acked
  std::string last_delivered_id;
  // Redis >= 7: entries read by the group and entries not yet delivered
  // (the queue's backlog). nullopt on older servers, and `lag` also when
  // Redis cannot tell (after XDEL or XTRIM below the group's position).
  std::optional<int64_t> entries_read;
  std::optional<int64_t> lag;
};

class StreamConsumer {
 public:
  explicit StreamConsumer(StreamConsumerOptions options);

  const StreamConsumerOptions& options() const { return options_; }

  // XGROUP CREATE stream group start_id MKSTREAM. An existing group is OK
  // (and keeps its position): every replica calls this at start.
  absl::Status CreateGroup(RedisClient& redis) const;

  // XREADGROUP ... STREAMS stream ">": up to `count` (> 0) entries never
  // delivered to any consumer of the group, now pending for this one. Waits
  // up to `block` for the first (zero: answers at once); empty when none
  // came.
  absl::StatusOr<std::vector<StreamEntry>> ReadNew(RedisClient& redis, int64_t count,
                                                   absl::Duration block) const;

  // XREADGROUP ... STREAMS stream <after_id>: this consumer's own pending
  // entries with ids above `after_id`, up to `count` (> 0); page on with
  // the last id returned. Never blocks. An entry deleted from the stream
  // since comes back with no fields: Ack it and move on.
  absl::StatusOr<std::vector<StreamEntry>> ReadPending(RedisClient& redis, int64_t count,
                                                       const std::string& after_id = "0") const;

  // XACK: the entries are done and will not be delivered again. Returns how
  // many were pending (ids already acked or unknown count 0, not an error).
  absl::StatusOr<int64_t> Ack(RedisClient& redis, const std::vector<std::string>& ids) const;

  // XAUTOCLAIM (Redis >= 6.2): takes over up to `count` (> 0) entries of any
  // consumer of the group that were idle at least `min_idle` (delivered and
  // neither acked nor claimed since), scanning from `cursor`. Choose
  // min_idle well above the longest handling time: a slow but living
  // consumer's entry would be handled twice.
  absl::StatusOr<ClaimedEntries> ClaimIdle(RedisClient& redis, absl::Duration min_idle,
                                           const std::string& cursor = "0-0",
                                           int64_t count = 100) const;

  absl::StatusOr<PendingSummary> Pending(RedisClient& redis) const;

  // Extended XPENDING: up to `count` (> 0) pending entries in id order,
  // only those idle at least `min_idle`, only `consumer`'s when not empty.
  absl::StatusOr<std::vector<PendingEntry>> PendingEntries(RedisClient& redis, int64_t count,
                                                           absl::Duration min_idle = {},
                                                           const std::string& consumer = "") const;

  // This group's line of XINFO GROUPS; NOT_FOUND when the stream or the
  // group does not exist.
  absl::StatusOr<ConsumerGroupInfo> Info(RedisClient& redis) const;

 private:
  // Runs `read`; when the group is gone (NOT_FOUND) creates it and runs it
  // once more.
  template <typename T>
  absl::StatusOr<T> WithGroup(RedisClient& redis,
                              const std::function<absl::StatusOr<T>()>& read) const;
  absl::StatusOr<std::vector<StreamEntry>> ReadGroup(RedisClient& redis, int64_t count,
                                                     absl::Duration block,
                                                     const std::string& id) const;

  StreamConsumerOptions options_;
};

// Every group of `stream` (XINFO GROUPS); NOT_FOUND when the stream does not
// exist.
absl::StatusOr<std::vector<ConsumerGroupInfo>> ListConsumerGroups(RedisClient& redis,
                                                                  const std::string& stream);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_CONSUMER_GROUP_H_
