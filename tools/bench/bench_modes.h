#pragma once

// The three measurements of tools/bench. Each prints a table to stdout and
// returns a process exit code.

#include <cstddef>
#include <string_view>

namespace draughts::bench {

struct BenchOptions {
  std::string_view variant;  // empty = every rule set
  int depth = 0;             // 0 = each position's own depth
  std::size_t tt_megabytes = 16;
  int time_ms = 1500;
  int plies = 20;             // --levels: plies of self-play per rule set and level
  bool classic_eval = false;  // --eval classic: the hand-set evaluation only
};

// Every bench position searched to a fixed depth with a fresh table: nodes,
// time and nodes per second per position; the total node count is the
// signature (it changes only when the search does).
int RunFixedDepth(const BenchOptions& options);

// Per rule set: depth reached and nodes per second in `time_ms` from the
// initial position.
int RunTimed(const BenchOptions& options);

// Per rule set and level: self-play from the initial position, answer time
// of every move (average and maximum), the depth reached.
int RunLevels(const BenchOptions& options);

}  // namespace draughts::bench
