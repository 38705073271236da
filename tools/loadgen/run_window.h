// The phases of a run shared by both modes: baseline memory, warm-up,
// the measured window, stop, drain; and the memory figures at the end.
#ifndef DRAUGHTS_TOOLS_LOADGEN_RUN_WINDOW_H_
#define DRAUGHTS_TOOLS_LOADGEN_RUN_WINDOW_H_

#include <atomic>
#include <cstdint>
#include <map>

#include "absl/time/time.h"
#include "loadgen/load_options.h"
#include "loadgen/load_stats.h"

namespace draughts::loadgen {

class RunWindow {
 public:
  // Reads the watched processes' memory before any game exists.
  RunWindow(const LoadOptions& options, LoadStats* stats);

  // Moves the warm-up and the measured window to start now (after a ramp
  // up that is not measured).
  void RestartNow();

  // Sleeps through warm-up and the measured window (the stats count moves
  // sent in it, the watched processes' CPU is read at both ends), then asks
  // every game to stop and reads memory while the games still live.
  void RunUntilStop();
  bool stopping() const { return stopping_.load(); }

  // Adds the memory per live game (`live_games` at the end of the window)
  // and the CPU each watched process used in the measured window.
  void AddMemory(LoadSummary& summary, int live_games) const;

 private:
  const LoadOptions& options_;
  LoadStats* stats_;
  std::atomic<bool> stopping_{false};
  std::map<int, int64_t> rss_before_;
  std::map<int, int64_t> rss_at_end_;
  std::map<int, double> cpu_in_window_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_RUN_WINDOW_H_
