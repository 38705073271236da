#include "loadgen/pacer.h"

#include <algorithm>
#include <utility>

#include "absl/time/clock.h"

namespace draughts::loadgen {

Pacer::Pacer(double rate) : interval_(rate > 0 ? absl::Seconds(1.0 / rate) : absl::ZeroDuration()) {
  if (rate > 0) thread_ = std::thread([this] { Loop(); });
}

Pacer::~Pacer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Pacer::Run(std::function<void()> work) {
  if (interval_ == absl::ZeroDuration()) {
    work();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    const absl::Time now = absl::Now();
    next_slot_ = std::max(now, next_slot_ + interval_);
    queue_.push({next_slot_, order_++, std::move(work)});
  }
  changed_.notify_one();
}

void Pacer::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (queue_.empty()) {
      changed_.wait(lock);
      continue;
    }
    const absl::Time at = queue_.top().at;
    const absl::Time now = absl::Now();
    if (at > now) {
      changed_.wait_for(lock, absl::ToChronoNanoseconds(at - now));
      continue;
    }
    std::function<void()> work = queue_.top().work;
    queue_.pop();
    lock.unlock();
    work();
    lock.lock();
  }
}

}  // namespace draughts::loadgen
