#include "loadgen/run_window.h"

#include "absl/time/clock.h"
#include "loadgen/process_memory.h"

namespace draughts::loadgen {

RunWindow::RunWindow(const LoadOptions& options, LoadStats* stats)
    : options_(options), stats_(stats) {
  for (int pid : options_.watched_pids) {
    absl::StatusOr<int64_t> rss = ResidentBytes(pid);
    if (rss.ok()) rss_before_[pid] = *rss;
  }
  const absl::Time start = absl::Now();
  stats_->SetWindow(start + options_.warmup, start + options_.warmup + options_.duration);
}

void RunWindow::RestartNow() {
  const absl::Time start = absl::Now();
  stats_->SetWindow(start + options_.warmup, start + options_.warmup + options_.duration);
}

void RunWindow::RunUntilStop() {
  absl::SleepFor(options_.warmup);
  std::map<int, double> cpu_before;
  for (int pid : options_.watched_pids) {
    absl::StatusOr<double> cpu = CpuSeconds(pid);
    if (cpu.ok()) cpu_before[pid] = *cpu;
  }
  absl::SleepFor(options_.duration);
  for (const auto& [pid, before] : cpu_before) {
    absl::StatusOr<double> cpu = CpuSeconds(pid);
    if (cpu.ok()) cpu_in_window_[pid] = *cpu - before;
  }
  for (const auto& [pid, before] : rss_before_) {
    absl::StatusOr<int64_t> rss = ResidentBytes(pid);
    if (rss.ok()) rss_at_end_[pid] = *rss;
  }
  stopping_.store(true);
}

void RunWindow::AddMemory(LoadSummary& summary, int live_games) const {
  summary.cpu_seconds_in_window = cpu_in_window_;
  summary.live_games = live_games;
  if (live_games <= 0) return;
  for (const auto& [pid, after] : rss_at_end_) {
    summary.rss_per_live_game[pid] =
        static_cast<double>(after - rss_before_.at(pid)) / static_cast<double>(live_games);
  }
}

}  // namespace draughts::loadgen
