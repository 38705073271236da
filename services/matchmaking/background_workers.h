// The two loops every replica runs beside its RPCs:
//   - the results consumer: reads ResultRecords of the results stream in
//     the consumer group "matchmaking" (each entry to one replica; a dead
//     replica's entries taken over after --claim-idle) and opens the
//     table's rematch window; an entry is acknowledged once handled, a
//     malformed one is logged and acknowledged;
//   - the sweeper: every --sweep-interval, pairs waiting quick-pair
//     players and closes tables whose rematch window ran out.
#ifndef DRAUGHTS_MATCHMAKING_BACKGROUND_WORKERS_H_
#define DRAUGHTS_MATCHMAKING_BACKGROUND_WORKERS_H_

#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/time/time.h"
#include "matchmaking/matchmaking_service.h"
#include "platform/redis_client.h"
#include "platform/redis_consumer_group.h"

namespace draughts::matchmaking {

struct BackgroundOptions {
  platform::StreamConsumerOptions results;
  absl::Duration sweep_interval = absl::Milliseconds(200);
  absl::Duration claim_idle = absl::Seconds(30);
  absl::Duration block = absl::Seconds(1);
};

class BackgroundWorkers {
 public:
  BackgroundWorkers(MatchmakingServiceImpl* service, platform::RedisOptions redis,
                    BackgroundOptions options);
  ~BackgroundWorkers();  // stops

  void Start();
  // Entries being handled finish; the rest stays pending for another replica.
  void Stop();

 private:
  void ConsumeResults();
  void Sweep();
  bool Sleep(absl::Duration d);  // false once stopping

  MatchmakingServiceImpl* service_;
  platform::RedisOptions redis_;
  BackgroundOptions options_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread consumer_;
  std::thread sweeper_;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_BACKGROUND_WORKERS_H_
