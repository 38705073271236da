// The results stream's consumer group in Redis: the only file that issues
// stream commands (XGROUP CREATE, XREADGROUP, XAUTOCLAIM, XACK, XINFO
// GROUPS). When libs/platform offers a consumer-group API, this adapter is
// what switches to it; nothing else in the service knows Redis.
//
// Not thread-safe: one consumer thread owns it (and its connection).
#ifndef DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_
#define DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_

#include <string>
#include <vector>

#include "platform/redis_client.h"
#include "rating/result_source.h"

namespace draughts::rating {

struct ResultGroup {
  std::string stream = "draughts:results";
  std::string group = "rating";
  std::string consumer;  // unique per process, e.g. hostname-pid
};

class RedisResultSource final : public ResultSource {
 public:
  RedisResultSource(platform::RedisOptions options, ResultGroup group);

  absl::Status CreateGroup() override;
  absl::StatusOr<std::vector<ResultEntry>> ReadPending(const std::string& after_id,
                                                       int count) override;
  absl::StatusOr<std::vector<ResultEntry>> ReadNew(int count, absl::Duration block) override;
  absl::StatusOr<ClaimedEntries> ClaimIdle(const std::string& cursor, absl::Duration min_idle,
                                           int count) override;
  absl::Status Ack(const std::vector<std::string>& ids) override;
  absl::StatusOr<GroupBacklog> Backlog() override;

 private:
  // XREADGROUP from `id` ("0".. pending, ">" new); block <= 0: no BLOCK.
  absl::StatusOr<std::vector<ResultEntry>> ReadGroup(const std::string& id, int count,
                                                     absl::Duration block);
  absl::Status CreateGroupAt(const std::string& start_id);
  // Runs a group command; if the group is gone (NOGROUP: the stream was
  // lost), creates it again and retries once.
  absl::StatusOr<platform::RedisReply> GroupCommand(const std::vector<std::string>& argv,
                                                    absl::Duration timeout);

  platform::RedisClient client_;
  ResultGroup group_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_REDIS_RESULT_SOURCE_H_
