// The bot jobs stream as the worker pool sees it: a Redis consumer group,
// as an interface so the pool's logic does not know Redis. The one adapter,
// redis_job_source.h, issues the stream commands.
//
// Delivery is at least once: a job handed out stays pending for its
// consumer until acknowledged, and another consumer may claim it once it
// has been pending long enough. Reading calls come from one thread; Ack and
// Backlog from any.
#ifndef DRAUGHTS_BOT_JOB_SOURCE_H_
#define DRAUGHTS_BOT_JOB_SOURCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::bot {

struct JobEntry {
  std::string id;  // the stream entry id "<ms>-<seq>"
  // The `data` field (a serialized v1::BotJob); nullopt when missing (the
  // entry was deleted from the stream while pending).
  std::optional<std::string> data;
};

struct ClaimedJobs {
  std::vector<JobEntry> entries;
  std::string next_cursor = "0-0";  // "0-0" once the scan went round
};

struct QueueBacklog {
  int64_t pending = 0;         // delivered to some worker, not acknowledged
  std::optional<int64_t> lag;  // not yet delivered; nullopt when Redis cannot tell
  absl::Duration oldest_age;   // of the oldest job pending or not yet delivered
};

class JobSource {
 public:
  virtual ~JobSource() = default;

  virtual absl::Status CreateGroup() = 0;
  // This consumer's own pending jobs after `after_id` (a restart under the
  // same name gets its jobs back), oldest first.
  virtual absl::StatusOr<std::vector<JobEntry>> ReadPending(const std::string& after_id,
                                                            int count) = 0;
  // New jobs, waiting up to `block` for the first.
  virtual absl::StatusOr<std::vector<JobEntry>> ReadNew(int count, absl::Duration block) = 0;
  // Jobs pending with any consumer for at least `min_idle`, now ours.
  virtual absl::StatusOr<ClaimedJobs> ClaimIdle(const std::string& cursor, absl::Duration min_idle,
                                                int count) = 0;
  virtual absl::Status Ack(const std::vector<std::string>& ids) = 0;
  virtual absl::StatusOr<QueueBacklog> Backlog() = 0;
};

// The instant encoded in a stream entry id ("<ms>-<seq>"), when it is one.
std::optional<absl::Time> EntryTime(const std::string& id);

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_JOB_SOURCE_H_
