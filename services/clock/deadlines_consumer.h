// The deadlines stream (events.proto ClockUpdate, written by game-state's
// outbox relay) read in consumer group "clock": each update arms or
// cancels its game's deadline exactly as ArmDeadline / CancelDeadline do,
// ordered by game_version, so a repeated or late entry changes nothing. An
// entry is acknowledged once the store has it (or it was malformed); on
// start and after a failure the consumer re-reads its own pending entries
// first, and now and then takes over those a stopped replica left pending.
#ifndef DRAUGHTS_CLOCK_DEADLINES_CONSUMER_H_
#define DRAUGHTS_CLOCK_DEADLINES_CONSUMER_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "clock/clock_metrics.h"
#include "clock/clock_store.h"
#include "draughts/v1/events.pb.h"
#include "platform/redis_client.h"
#include "platform/redis_consumer_group.h"

namespace draughts::clock {

struct DeadlinesConsumerOptions {
  std::string stream = "draughts:deadlines";
  std::string group = "clock";
  std::string consumer;  // unique per process
  int batch_size = 256;
  absl::Duration block = absl::Seconds(1);
  // Entries pending this long with another consumer are taken over.
  absl::Duration claim_idle = absl::Seconds(30);
  absl::Duration claim_every = absl::Seconds(10);
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(5);
};

// A stream entry's update as the change the store applies; INVALID_ARGUMENT
// for an update no game-state writes.
absl::StatusOr<DeadlineChange> DeadlineChangeFrom(const v1::ClockUpdate& update, absl::Time now);

// What an applied change means for its entry: OK when applied, repeated or
// older than what is armed (counted in `metrics`, which may be null);
// INVALID_ARGUMENT when malformed; other errors mean "retry".
absl::Status CountOutcome(const absl::StatusOr<ChangeOutcome>& outcome, ClockMetrics* metrics);

// One update through the rules above (tests, single updates).
absl::Status ApplyClockUpdate(ClockStore& store, const v1::ClockUpdate& update, absl::Time now,
                              ClockMetrics* metrics);

class DeadlinesConsumer {
 public:
  // Pointers must outlive the consumer; `metrics` may be null.
  DeadlinesConsumer(platform::RedisOptions redis, ClockStore* store, ClockMetrics* metrics,
                    DeadlinesConsumerOptions options, std::function<absl::Time()> now = {});
  ~DeadlinesConsumer();
  DeadlinesConsumer(const DeadlinesConsumer&) = delete;
  DeadlinesConsumer& operator=(const DeadlinesConsumer&) = delete;

  void Start();
  // Idempotent; returns once the thread has ended (within about `block`).
  void Stop();

 private:
  absl::Status Step();
  // Handles entries in order, acknowledges those done; stops at the first
  // that must be retried.
  absl::Status Process(const std::vector<platform::StreamEntry>& entries);
  void Loop();

  platform::RedisClient redis_;
  ClockStore* store_;
  ClockMetrics* metrics_;
  DeadlinesConsumerOptions options_;
  std::function<absl::Time()> now_;
  // A group created at start begins with the updates written from then on
  // (docs/API.md); one that vanished with its stream (Redis lost its data)
  // is created again from the start of what the stream holds now.
  platform::StreamConsumer from_now_;
  platform::StreamConsumer from_start_;

  bool group_ready_ = false;
  bool pending_done_ = false;
  std::string pending_cursor_ = "0";
  absl::Time next_claim_ = absl::InfinitePast();

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_DEADLINES_CONSUMER_H_
