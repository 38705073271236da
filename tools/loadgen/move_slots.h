// The run's target move rate in gateway mode: when each move is sent.
// A move waits first for its own socket's action spacing (`earliest`, the
// gateway's per-socket limit) and only then takes a slot of the rate's
// clock, so that the sends of all sockets together are 1/rate apart at
// least, in any window. (A slot taken at once and a send delayed to
// `earliest` let the delayed moves pile up on one instant and on the slots
// of others: bursts above the rate, and more moves in a measured window
// than the rate asked for.) Not thread-safe: the caller locks.
#ifndef DRAUGHTS_TOOLS_LOADGEN_MOVE_SLOTS_H_
#define DRAUGHTS_TOOLS_LOADGEN_MOVE_SLOTS_H_

#include <optional>

#include "absl/time/time.h"

namespace draughts::loadgen {

class MoveSlots {
 public:
  // `rate` moves per second over all callers; <= 0: no limit.
  explicit MoveSlots(double rate);

  // For a move asked for at `now` that may not go before `earliest`: the
  // time to send it (a slot taken, `now` or later), or nothing when
  // `earliest` is still ahead: ask again then (no slot is held meanwhile).
  std::optional<absl::Time> Take(absl::Time now, absl::Time earliest);

 private:
  const absl::Duration interval_;
  absl::Time next_slot_ = absl::InfinitePast();
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_MOVE_SLOTS_H_
