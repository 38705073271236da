// Counters and latencies of a load run, shared by every game (thread-safe),
// and the summary printed at the end.
#ifndef DRAUGHTS_TOOLS_LOADGEN_LOAD_STATS_H_
#define DRAUGHTS_TOOLS_LOADGEN_LOAD_STATS_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace draughts::loadgen {

struct LoadSummary {
  double seconds = 0;
  // Moves whose event came back, sent inside the measured window.
  int64_t measured_moves = 0;
  double moves_per_second = 0;
  double p50_ms = 0, p95_ms = 0, p99_ms = 0, max_ms = 0;
  // Over the whole run, warm-up included.
  int64_t moves_acknowledged = 0;
  int64_t games_created = 0;
  int64_t games_finished = 0;
  int64_t lost_events = 0;        // answered moves whose event never came
  int64_t duplicated_events = 0;  // a move's event delivered twice
  int64_t unexpected_events = 0;  // an event for a move nobody sent
  // "<call> <code>" -> count.
  std::map<std::string, int64_t> errors;
  int64_t total_errors() const;
  // RSS growth per live game of each watched process (bytes), by pid.
  std::map<int, double> rss_per_live_game;
  // CPU seconds each watched process used in the measured window, by pid.
  std::map<int, double> cpu_seconds_in_window;
  // Named counts (sockets opened, chat lines, automatic moves...).
  std::map<std::string, int64_t> counts;
  // Seconds the games took to start before the warm-up (gateway mode).
  double ramp_seconds = 0;
  int live_games = 0;
  double client_cpu_seconds = 0;
};

void PrintSummary(const LoadSummary& summary, std::FILE* out);

class LoadStats {
 public:
  // The measured window: moves sent in [from, until) count.
  void SetWindow(absl::Time from, absl::Time until);
  bool InWindow(absl::Time sent) const;

  void EventLatency(absl::Time sent, absl::Time arrived);
  void Error(const std::string& call, const std::string& code);
  void MoveAcknowledged();
  void GameCreated();
  void GameFinished();
  void Lost(int64_t count);
  void Duplicated();
  void Unexpected();
  void Count(const std::string& what);

  LoadSummary Summarize() const;

 private:
  absl::Time from_ = absl::InfinitePast();
  absl::Time until_ = absl::InfiniteFuture();
  mutable std::mutex mu_;
  std::vector<int64_t> latencies_us_;
  LoadSummary counts_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_LOAD_STATS_H_
