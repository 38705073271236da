#pragma once

// When a search must stop: the stop flag, the node budget, the hard time
// cap, and the target time (which may only interrupt an iteration once a
// first one has completed, so there is always a searched move to return).
// Reading the clock costs more than a node, so the search asks every
// kPollInterval nodes.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "engine/search_types.h"

namespace draughts::engine {

class SearchClock {
 public:
  static constexpr std::int64_t kPollInterval = 1024;
  using Clock = std::chrono::steady_clock;

  explicit SearchClock(const SearchLimits& limits)
      : start_(Clock::now()),
        hard_(limits.move_time),
        target_(limits.target_time.count() > 0 ? limits.target_time : limits.move_time),
        max_nodes_(limits.max_nodes),
        stop_(limits.stop) {
    if (hard_.count() > 0 && target_ > hard_) target_ = hard_;
  }

  bool has_time_limit() const { return hard_.count() > 0 || target_.count() > 0; }

  std::chrono::milliseconds Elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
  }

  // Whether the search in progress must stop now.
  bool MustStop(std::int64_t nodes, bool have_result) const {
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) return true;
    if (max_nodes_ > 0 && nodes >= max_nodes_) return true;
    if (!has_time_limit()) return false;
    const auto elapsed = Clock::now() - start_;
    if (hard_.count() > 0 && elapsed >= hard_) return true;
    return have_result && target_.count() > 0 && elapsed >= target_;
  }

  // Between iterations: whether to start another one.
  bool PastTarget() const { return target_.count() > 0 && Clock::now() - start_ >= target_; }

  // Sleeps until the target time or a stop request, whichever comes first.
  void WaitForTarget() const {
    while (!PastTarget() && !(stop_ != nullptr && stop_->load(std::memory_order_relaxed))) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

 private:
  Clock::time_point start_;
  std::chrono::milliseconds hard_;
  std::chrono::milliseconds target_;
  std::int64_t max_nodes_;
  std::atomic<bool>* stop_;
};

}  // namespace draughts::engine
