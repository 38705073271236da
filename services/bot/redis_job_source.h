// The bot jobs stream's consumer group in Redis, through
// platform::StreamConsumer: the only file that touches the stream.
#ifndef DRAUGHTS_BOT_REDIS_JOB_SOURCE_H_
#define DRAUGHTS_BOT_REDIS_JOB_SOURCE_H_

#include <string>
#include <vector>

#include "bot/job_source.h"
#include "platform/redis_client.h"
#include "platform/redis_consumer_group.h"
#include "platform/redis_pool.h"

namespace draughts::bot {

struct JobGroup {
  std::string stream = "draughts:bot-jobs";
  std::string group = "bot";
  std::string consumer;  // unique per process, e.g. hostname-pid
};

class RedisJobSource final : public JobSource {
 public:
  // The blocking reads get a connection of their own; acks and backlog
  // queries share `pool` (which must outlive this).
  RedisJobSource(platform::RedisPool* pool, const JobGroup& group);

  absl::Status CreateGroup() override;
  absl::StatusOr<std::vector<JobEntry>> ReadPending(const std::string& after_id,
                                                    int count) override;
  absl::StatusOr<std::vector<JobEntry>> ReadNew(int count, absl::Duration block) override;
  absl::StatusOr<ClaimedJobs> ClaimIdle(const std::string& cursor, absl::Duration min_idle,
                                        int count) override;
  absl::Status Ack(const std::vector<std::string>& ids) override;
  absl::StatusOr<QueueBacklog> Backlog() override;

 private:
  platform::RedisPool* pool_;
  platform::RedisClient reader_;
  std::string stream_;
  // A group created at start begins with the jobs written from then on
  // ("$"); one that vanished while we ran (Redis lost its data) is created
  // again from the start of the stream, whose jobs were all written since.
  platform::StreamConsumer from_now_;
  platform::StreamConsumer from_start_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_REDIS_JOB_SOURCE_H_
