#pragma once

// Thinking time per move of one engine over a match.

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace draughts::match {

class MoveTimes {
 public:
  void Add(std::chrono::milliseconds t) {
    ++count_;
    total_ += t;
    max_ = std::max(max_, t);
  }
  int count() const { return count_; }
  std::chrono::milliseconds max() const { return max_; }
  // 0 when no move was timed.
  double average_ms() const {
    return count_ == 0 ? 0.0 : static_cast<double>(total_.count()) / count_;
  }

 private:
  int count_ = 0;
  std::chrono::milliseconds total_{0};
  std::chrono::milliseconds max_{0};
};

}  // namespace draughts::match
