// Resident memory of a process, read from /proc (Linux).
#ifndef DRAUGHTS_TOOLS_LOADGEN_PROCESS_MEMORY_H_
#define DRAUGHTS_TOOLS_LOADGEN_PROCESS_MEMORY_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace draughts::loadgen {

// VmRSS of `pid` in bytes; NOT_FOUND when the process is gone.
absl::StatusOr<int64_t> ResidentBytes(int pid);

// User plus system CPU time `pid` has used so far, in seconds.
absl::StatusOr<double> CpuSeconds(int pid);

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_PROCESS_MEMORY_H_
