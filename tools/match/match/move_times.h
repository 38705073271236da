#pragma once

// Thinking time per move of one engine over a match, over every move and
// over the moves where there was a choice: with a single legal move an
// engine may answer at once, which pulls the plain average down.

#include <algorithm>
#include <chrono>

namespace draughts::match {

class MoveTimes {
 public:
  void Add(std::chrono::milliseconds t, bool forced) {
    ++count_;
    total_ += t;
    max_ = std::max(max_, t);
    if (!forced) {
      ++choice_count_;
      choice_total_ += t;
    }
  }
  int count() const { return count_; }
  std::chrono::milliseconds max() const { return max_; }
  // 0 when no move was timed.
  double average_ms() const { return Average(total_, count_); }

  // Moves with more than one legal move only.
  int choice_count() const { return choice_count_; }
  double choice_average_ms() const { return Average(choice_total_, choice_count_); }

 private:
  static double Average(std::chrono::milliseconds total, int count) {
    return count == 0 ? 0.0 : static_cast<double>(total.count()) / count;
  }

  int count_ = 0;
  std::chrono::milliseconds total_{0};
  std::chrono::milliseconds max_{0};
  int choice_count_ = 0;
  std::chrono::milliseconds choice_total_{0};
};

}  // namespace draughts::match
