#include "clock/deadline_scheduler.h"

#include <algorithm>
#include <utility>

#include "platform/logging.h"

namespace draughts::clock {

DeadlineScheduler::DeadlineScheduler(ClockStore* store, DeadlineFirer* firer, ClockMetrics* metrics,
                                     SchedulerOptions options, std::function<absl::Time()> now)
    : store_(store),
      firer_(firer),
      metrics_(metrics),
      options_(std::move(options)),
      now_(std::move(now)) {
  if (!now_) now_ = [] { return absl::Now(); };
  options_.workers = std::max(1, options_.workers);
  options_.max_queued = std::max(1, options_.max_queued);
}

DeadlineScheduler::~DeadlineScheduler() {
  Stop();
}

absl::StatusOr<int> DeadlineScheduler::ClaimOnce() {
  int room = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Claim only what the idle workers take now plus a short queue: a
    // claim waiting here is late, and a dead replica's claims wait a lease.
    room = options_.max_queued - static_cast<int>(queue_.size()) - busy_ + options_.workers;
    room = std::min(room, options_.max_queued);
  }
  if (room <= 0) return 0;
  const absl::Time now = now_();
  absl::StatusOr<std::vector<DueTimer>> due =
      store_->ClaimDue(now, now + options_.claim_lease, room);
  if (!due.ok()) return due.status();
  if (due->empty()) return 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (DueTimer& timer : *due) queue_.push_back(std::move(timer));
  }
  changed_.notify_all();
  return static_cast<int>(due->size());
}

void DeadlineScheduler::PollLoop() {
  absl::Duration backoff = options_.initial_backoff;
  while (true) {
    absl::Duration pause = options_.poll_interval;
    absl::StatusOr<int> claimed = ClaimOnce();
    if (!claimed.ok()) {
      if (metrics_ != nullptr) metrics_->Error("claim");
      platform::LogWarn("claiming due timers failed: retrying",
                        {{"status", claimed.status()}, {"backoff", backoff}});
      pause = backoff;
      backoff = std::min(backoff * 2, options_.max_backoff);
    } else {
      backoff = options_.initial_backoff;
      // A full batch means more may be due: claim again soon.
      if (*claimed > 0 && *claimed >= options_.workers) pause = absl::Milliseconds(5);
    }
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, absl::ToChronoMilliseconds(pause), [this] { return stopping_; });
    if (stopping_) return;
  }
}

void DeadlineScheduler::WorkerLoop() {
  while (true) {
    DueTimer timer;
    {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      timer = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
    }
    // Errors are logged and counted by the firer; the timer's lease brings
    // it back.
    firer_->Fire(timer).IgnoreError();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --busy_;
    }
  }
}

void DeadlineScheduler::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (poller_.joinable() || stopping_) return;
  for (int i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
  poller_ = std::thread([this] { PollLoop(); });
}

void DeadlineScheduler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (poller_.joinable()) poller_.join();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
  workers_.clear();
}

}  // namespace draughts::clock
