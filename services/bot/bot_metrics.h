// Prometheus metrics of the bot pool, next to the per-RPC ones the platform
// records: what an operator (or an autoscaler such as KEDA) scales the pool
// on — the queue's pressure (pending, lag, age of the oldest job) — and how
// the bots play (think time and moves by engine, jobs dropped, retried or
// taken over, external engines restarted).
#ifndef DRAUGHTS_BOT_BOT_METRICS_H_
#define DRAUGHTS_BOT_BOT_METRICS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace draughts::bot {

class BotMetrics {
 public:
  explicit BotMetrics(prometheus::Registry& registry);

  // `engine` is a built-in level name ("easy", "medium", "hard") or an
  // external engine's id.
  void Thought(const std::string& engine, absl::Duration elapsed);
  void MovePlayed(const std::string& engine, absl::Duration since_queued);
  // How a job ended: "played", "obsolete" (the game moved on or ended),
  // "malformed", "rejected" (game-state refused the move).
  void JobDone(const std::string& outcome);
  void Claimed(int64_t jobs) { claimed_.Increment(static_cast<double>(jobs)); }
  void Retried() { retried_.Increment(); }
  void EngineRestarted(const std::string& engine);
  // An external engine failed a move and the built-in engine played it.
  void EngineFallback(const std::string& engine);
  void Queue(int64_t pending, std::optional<int64_t> lag, absl::Duration oldest_age);
  void InFlight(int64_t jobs) { in_flight_.Set(static_cast<double>(jobs)); }
  // Threads on a job now (thinking or submitting), out of --jobs-per-worker:
  // the pool's saturation.
  void Working(int threads) { working_.Set(static_cast<double>(threads)); }

 private:
  prometheus::Counter& Labeled(prometheus::Family<prometheus::Counter>& family,
                               std::map<std::string, prometheus::Counter*>& cache,
                               const std::string& key, const std::string& label);

  prometheus::Family<prometheus::Histogram>& think_seconds_;
  prometheus::Family<prometheus::Histogram>& move_latency_seconds_;
  prometheus::Family<prometheus::Counter>& moves_;
  prometheus::Family<prometheus::Counter>& jobs_;
  prometheus::Family<prometheus::Counter>& restarts_;
  prometheus::Family<prometheus::Counter>& fallbacks_;
  prometheus::Counter& claimed_;
  prometheus::Counter& retried_;
  prometheus::Gauge& pending_;
  prometheus::Gauge& lag_;
  prometheus::Gauge& oldest_age_;
  prometheus::Gauge& in_flight_;
  prometheus::Gauge& working_;

  std::mutex mu_;
  std::map<std::string, prometheus::Histogram*> think_by_engine_;
  std::map<std::string, prometheus::Histogram*> latency_by_engine_;
  std::map<std::string, prometheus::Counter*> moves_by_engine_;
  std::map<std::string, prometheus::Counter*> jobs_by_outcome_;
  std::map<std::string, prometheus::Counter*> restarts_by_engine_;
  std::map<std::string, prometheus::Counter*> fallbacks_by_engine_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_BOT_METRICS_H_
