// The results stream's consumer group in Redis, through
// platform::StreamConsumer: the only file that touches the stream. Nothing
// else in the service knows Redis.
//
// Not thread-safe: one consumer thread owns it (and its connection).
#ifndef DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_
#define DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_

#include <string>
#include <vector>

#include "platform/redis_client.h"
#include "platform/redis_consumer_group.h"
#include "rating/result_source.h"

namespace draughts::rating {

struct ResultGroup {
  std::string stream = "draughts:results";
  std::string group = "rating";
  std::string consumer;  // unique per process, e.g. hostname-pid
};

class RedisResultSource final : public ResultSource {
 public:
  RedisResultSource(platform::RedisOptions options, const ResultGroup& group);

  absl::Status CreateGroup() override;
  absl::StatusOr<std::vector<ResultEntry>> ReadPending(const std::string& after_id,
                                                       int count) override;
  absl::StatusOr<std::vector<ResultEntry>> ReadNew(int count, absl::Duration block) override;
  absl::StatusOr<ClaimedEntries> ClaimIdle(const std::string& cursor, absl::Duration min_idle,
                                           int count) override;
  absl::Status Ack(const std::vector<std::string>& ids) override;
  absl::StatusOr<GroupBacklog> Backlog() override;

 private:
  platform::RedisClient client_;
  // Two start points for one group. A group created at start begins with
  // the results written from then on ("$", docs/API.md). A group that
  // vanished while we ran went with its stream (Redis lost its data):
  // everything the stream holds now was written since and never archived,
  // so the reads that create it again start at the beginning ("0"); an
  // entry handled before only repeats, which changes nothing.
  platform::StreamConsumer from_now_;
  platform::StreamConsumer from_start_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_
