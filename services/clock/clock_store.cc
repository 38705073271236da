#include "clock/clock_store.h"

namespace draughts::clock {

absl::StatusOr<std::vector<absl::StatusOr<ChangeOutcome>>> ClockStore::ApplyChanges(
    const std::vector<DeadlineChange>& changes, absl::Time now) {
  std::vector<absl::StatusOr<ChangeOutcome>> outcomes;
  outcomes.reserve(changes.size());
  for (const DeadlineChange& change : changes) {
    if (!change.arm.has_value()) {
      const absl::Status cancelled = Cancel(change.game_id, change.game_version);
      if (cancelled.ok()) {
        outcomes.push_back(ChangeOutcome::kCancelled);
      } else {
        outcomes.push_back(cancelled);
      }
      continue;
    }
    const absl::StatusOr<ArmOutcome> armed = Arm(*change.arm, now);
    if (armed.ok()) {
      outcomes.push_back(*armed == ArmOutcome::kArmed ? ChangeOutcome::kArmed
                                                      : ChangeOutcome::kRepeated);
    } else if (armed.status().code() == absl::StatusCode::kAborted) {
      outcomes.push_back(ChangeOutcome::kStale);
    } else {
      outcomes.push_back(armed.status());
    }
  }
  return outcomes;
}

}  // namespace draughts::clock
