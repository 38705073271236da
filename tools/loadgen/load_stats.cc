#include "loadgen/load_stats.h"

#include <sys/resource.h>

#include <algorithm>

namespace draughts::loadgen {
namespace {

double Percentile(const std::vector<int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const std::size_t index =
      std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())));
  return static_cast<double>(sorted[index]) / 1000.0;
}

double OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int64_t LoadSummary::total_errors() const {
  int64_t total = 0;
  for (const auto& [what, count] : errors) total += count;
  return total;
}

void PrintSummary(const LoadSummary& s, std::FILE* out) {
  std::fprintf(out,
               "moves_per_s=%.0f moves=%lld seconds=%.1f p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f "
               "max_ms=%.2f\n",
               s.moves_per_second, static_cast<long long>(s.measured_moves), s.seconds, s.p50_ms,
               s.p95_ms, s.p99_ms, s.max_ms);
  std::fprintf(
      out, "moves_acknowledged=%lld games_created=%lld games_finished=%lld live_games=%d\n",
      static_cast<long long>(s.moves_acknowledged), static_cast<long long>(s.games_created),
      static_cast<long long>(s.games_finished), s.live_games);
  std::fprintf(out, "lost_events=%lld duplicated_events=%lld unexpected_events=%lld errors=%lld\n",
               static_cast<long long>(s.lost_events), static_cast<long long>(s.duplicated_events),
               static_cast<long long>(s.unexpected_events),
               static_cast<long long>(s.total_errors()));
  for (const auto& [what, count] : s.errors) {
    std::fprintf(out, "error %s count=%lld\n", what.c_str(), static_cast<long long>(count));
  }
  for (const auto& [what, count] : s.counts) {
    std::fprintf(out, "count %s=%lld\n", what.c_str(), static_cast<long long>(count));
  }
  if (s.ramp_seconds > 0) std::fprintf(out, "ramp_s=%.1f\n", s.ramp_seconds);
  for (const auto& [pid, bytes] : s.rss_per_live_game) {
    std::fprintf(out, "rss_per_live_game pid=%d kib=%.1f\n", pid, bytes / 1024.0);
  }
  for (const auto& [pid, seconds] : s.cpu_seconds_in_window) {
    // Per move measured: the window's moves whose events came back.
    const double per_move_us =
        s.measured_moves > 0 ? seconds * 1e6 / static_cast<double>(s.measured_moves) : 0;
    std::fprintf(out, "cpu_in_window pid=%d s=%.2f us_per_move=%.0f\n", pid, seconds, per_move_us);
  }
  std::fprintf(out, "loadgen_cpu_s=%.2f\n", s.client_cpu_seconds);
  std::fflush(out);
}

void LoadStats::SetWindow(absl::Time from, absl::Time until) {
  std::lock_guard<std::mutex> lock(mu_);
  from_ = from;
  until_ = until;
}

bool LoadStats::InWindow(absl::Time sent) const {
  std::lock_guard<std::mutex> lock(mu_);
  return sent >= from_ && sent < until_;
}

void LoadStats::EventLatency(absl::Time sent, absl::Time arrived) {
  std::lock_guard<std::mutex> lock(mu_);
  // The window may move (gateway mode starts it after the ramp up).
  if (sent < from_ || sent >= until_) return;
  latencies_us_.push_back(absl::ToInt64Microseconds(arrived - sent));
}

void LoadStats::Error(const std::string& call, const std::string& code) {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.errors[call + " " + code];
}

void LoadStats::MoveAcknowledged() {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.moves_acknowledged;
}

void LoadStats::GameCreated() {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.games_created;
}

void LoadStats::GameFinished() {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.games_finished;
}

void LoadStats::Lost(int64_t count) {
  std::lock_guard<std::mutex> lock(mu_);
  counts_.lost_events += count;
}

void LoadStats::Duplicated() {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.duplicated_events;
}

void LoadStats::Unexpected() {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.unexpected_events;
}

void LoadStats::Count(const std::string& what) {
  std::lock_guard<std::mutex> lock(mu_);
  ++counts_.counts[what];
}

LoadSummary LoadStats::Summarize() const {
  std::lock_guard<std::mutex> lock(mu_);
  LoadSummary summary = counts_;
  std::vector<int64_t> sorted = latencies_us_;
  std::sort(sorted.begin(), sorted.end());
  summary.seconds = absl::ToDoubleSeconds(until_ - from_);
  summary.measured_moves = static_cast<int64_t>(sorted.size());
  summary.moves_per_second =
      summary.seconds > 0 ? static_cast<double>(sorted.size()) / summary.seconds : 0;
  summary.p50_ms = Percentile(sorted, 0.50);
  summary.p95_ms = Percentile(sorted, 0.95);
  summary.p99_ms = Percentile(sorted, 0.99);
  summary.max_ms = sorted.empty() ? 0 : static_cast<double>(sorted.back()) / 1000.0;
  summary.client_cpu_seconds = OwnCpuSeconds();
  return summary;
}

}  // namespace draughts::loadgen
