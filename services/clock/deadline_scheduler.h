// The firing loop of one replica: every poll interval it claims the timers
// due now (at most as many as its workers can start soon, so a claim never
// waits long in this process) and its worker threads fire them. Every
// replica runs one; the store's atomic claim makes each timer fire on one
// replica, and a timer claimed by a replica that died falls due again when
// the claim's lease ends.
#ifndef DRAUGHTS_CLOCK_DEADLINE_SCHEDULER_H_
#define DRAUGHTS_CLOCK_DEADLINE_SCHEDULER_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "clock/clock_metrics.h"
#include "clock/clock_store.h"
#include "clock/deadline_firer.h"

namespace draughts::clock {

struct SchedulerOptions {
  absl::Duration poll_interval = absl::Milliseconds(50);
  // How long a claim is exclusive; keep it above the longest call to
  // game-state (retries included), or a slow firing is repeated elsewhere.
  absl::Duration claim_lease = absl::Seconds(10);
  int workers = 64;
  // Claimed timers waiting for a worker, at most.
  int max_queued = 256;
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(5);
};

class DeadlineScheduler {
 public:
  // Pointers must outlive the scheduler; `metrics` may be null.
  DeadlineScheduler(ClockStore* store, DeadlineFirer* firer, ClockMetrics* metrics,
                    SchedulerOptions options, std::function<absl::Time()> now = {});
  ~DeadlineScheduler();
  DeadlineScheduler(const DeadlineScheduler&) = delete;
  DeadlineScheduler& operator=(const DeadlineScheduler&) = delete;

  void Start();
  // Stops claiming; the workers fire what was claimed, then end.
  // Idempotent.
  void Stop();

 private:
  // Claims what is due and queues it; returns how many.
  absl::StatusOr<int> ClaimOnce();
  void PollLoop();
  void WorkerLoop();

  ClockStore* store_;
  DeadlineFirer* firer_;
  ClockMetrics* metrics_;
  SchedulerOptions options_;
  std::function<absl::Time()> now_;

  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<DueTimer> queue_;
  int busy_ = 0;
  bool stopping_ = false;
  std::thread poller_;
  std::vector<std::thread> workers_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_DEADLINE_SCHEDULER_H_
