// The results stream as the consumer sees it: a Redis consumer group, as an
// interface so the archive logic is tested without Redis. The one adapter,
// redis_result_source.h, issues the stream commands.
//
// Delivery is at least once: an entry handed out stays pending for its
// consumer until acknowledged, and another consumer may claim it once it has
// been pending long enough.
#ifndef DRAUGHTS_RATING_RESULT_SOURCE_H_
#define DRAUGHTS_RATING_RESULT_SOURCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::rating {

struct ResultEntry {
  std::string id;  // the stream entry id, "<ms>-<seq>"
  // The `data` field (a serialized v1::ResultRecord); nullopt when the
  // entry has none, e.g. it was deleted from the stream after delivery.
  std::optional<std::string> data;
  // The `game_id` field, empty when missing; for logs and cross-checks.
  std::string game_id;
};

struct ClaimedEntries {
  // Ours now, in stream order. Entries deleted from the stream while
  // pending come without data (the source may also have dropped them from
  // the pending list already).
  std::vector<ResultEntry> entries;
  // Where the next claim call continues; "0-0" once the scan is complete.
  std::string next_cursor = "0-0";
};

struct GroupBacklog {
  // Entries delivered to some consumer of the group and not acknowledged.
  int64_t pending = 0;
  // Entries not yet delivered to the group; nullopt when Redis cannot tell.
  std::optional<int64_t> lag;
};

class ResultSource {
 public:
  virtual ~ResultSource() = default;

  // Creates the consumer group (and the stream) if missing; OK if it exists.
  virtual absl::Status CreateGroup() = 0;

  // Entries already delivered to this consumer and not acknowledged, with
  // ids after `after_id` ("0": all of them), oldest first, at most `count`.
  virtual absl::StatusOr<std::vector<ResultEntry>> ReadPending(const std::string& after_id,
                                                               int count) = 0;

  // Entries never delivered to the group, waiting up to `block` for the
  // first; empty on timeout. They become pending for this consumer.
  virtual absl::StatusOr<std::vector<ResultEntry>> ReadNew(int count, absl::Duration block) = 0;

  // Takes over entries that have been pending (for any consumer) for at
  // least `min_idle`, scanning from `cursor` ("0-0" to start); they become
  // pending for this consumer.
  virtual absl::StatusOr<ClaimedEntries> ClaimIdle(const std::string& cursor,
                                                   absl::Duration min_idle, int count) = 0;

  // Acknowledges entries: they are done for the whole group.
  virtual absl::Status Ack(const std::vector<std::string>& ids) = 0;

  virtual absl::StatusOr<GroupBacklog> Backlog() = 0;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RESULT_SOURCE_H_
