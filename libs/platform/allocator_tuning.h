// glibc's malloc tuned for servers whose requests allocate on one thread and
// free on another (gRPC threads, Redis pipeliner, watch pump): a deeper
// per-thread cache and no fast bins. Measured on game_state under
// tools/loadgen: malloc, free and malloc_consolidate were about a quarter of
// its CPU, and these settings cut its CPU per move by about a fifth
// (docs/BENCHMARKS.md, "game_state under loadgen").
//
// glibc reads its tunables (GLIBC_TUNABLES) only when a process starts, so
// the process re-executes itself once with them set, first thing in main():
//
//   int main(int argc, char** argv) {
//     draughts::platform::ReexecWithAllocatorTuning(argv);
//     ...
//
// Nothing happens when GLIBC_TUNABLES is already set (an operator's choice,
// or the re-executed process), when DRAUGHTS_ALLOCATOR_TUNING=off, when
// malloc is not glibc's (jemalloc, linked into the busiest servers, see
// CMakeLists.txt; a sanitizer's), or when /proc/self/exe cannot be executed
// (the process then simply goes on untuned).
#ifndef DRAUGHTS_PLATFORM_ALLOCATOR_TUNING_H_
#define DRAUGHTS_PLATFORM_ALLOCATOR_TUNING_H_

#include <string>

namespace draughts::platform {

// The tunables set (GLIBC_TUNABLES syntax).
inline constexpr char kAllocatorTunables[] = "glibc.malloc.tcache_count=1000:glibc.malloc.mxfast=0";

// Returns only when nothing was re-executed.
void ReexecWithAllocatorTuning(char** argv);

// The file name of the library whose malloc this process calls, e.g.
// "libc.so.6", "libjemalloc.so.2", "libasan.so.8"; empty if unknown.
std::string MallocProvider();

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_ALLOCATOR_TUNING_H_
