#include "platform/mutex_checks.h"

#include "absl/synchronization/mutex.h"

namespace draughts::platform {

void SkipMutexDeadlockChecksInRelease() {
#ifdef NDEBUG
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
}

}  // namespace draughts::platform
