#include "loadgen/move_slots.h"

#include <algorithm>

namespace draughts::loadgen {

MoveSlots::MoveSlots(double rate)
    : interval_(rate > 0 ? absl::Seconds(1.0 / rate) : absl::ZeroDuration()) {}

std::optional<absl::Time> MoveSlots::Take(absl::Time now, absl::Time earliest) {
  if (earliest > now) return std::nullopt;
  if (interval_ == absl::ZeroDuration()) return now;
  next_slot_ = std::max(now, next_slot_ + interval_);
  return next_slot_;
}

}  // namespace draughts::loadgen
