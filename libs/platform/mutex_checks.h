// absl::Mutex's deadlock detection, off in release builds: every service's
// main() calls SkipMutexDeadlockChecksInRelease() first thing.
//
// Debian builds Abseil without NDEBUG, so every absl::Mutex (gRPC's own
// locks included) records its lock order in a process-wide graph under a
// global lock: 6% of the gateway's CPU at 2,000 tables (docs/BENCHMARKS.md,
// "Per process tuning"). Builds without NDEBUG (the sanitizer tree the
// tests run in) keep the detection.
#ifndef DRAUGHTS_PLATFORM_MUTEX_CHECKS_H_
#define DRAUGHTS_PLATFORM_MUTEX_CHECKS_H_

namespace draughts::platform {

void SkipMutexDeadlockChecksInRelease();

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_MUTEX_CHECKS_H_
