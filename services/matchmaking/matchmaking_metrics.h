// Prometheus metrics of matchmaking, next to the per-RPC ones the platform
// records: tables opened and closed (open = opened - closed, summed over
// replicas), tables listed in the lobby, games started, the quick-pair
// queues (size, waits, pairings) and wrong passwords.
#ifndef DRAUGHTS_MATCHMAKING_MATCHMAKING_METRICS_H_
#define DRAUGHTS_MATCHMAKING_MATCHMAKING_METRICS_H_

#include <string>

#include "absl/time/time.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace draughts::matchmaking {

class MatchmakingMetrics {
 public:
  explicit MatchmakingMetrics(prometheus::Registry& registry);

  void TableOpened() { opened_.Increment(); }
  void TableClosed(const std::string& reason) { closed_.Add({{"reason", reason}}).Increment(); }
  void GameStarted() { games_started_.Increment(); }
  void Paired(absl::Duration host_wait) {
    pairings_.Increment();
    wait_.Observe(absl::ToDoubleSeconds(host_wait));
  }
  void WrongPassword() { wrong_passwords_.Increment(); }
  // Sampled by the sweeper (every replica sees the same Redis).
  void SetQueued(double players) { queued_.Set(players); }
  void SetListed(double tables) { listed_.Set(tables); }

 private:
  prometheus::Counter& opened_;
  prometheus::Family<prometheus::Counter>& closed_;
  prometheus::Counter& games_started_;
  prometheus::Counter& pairings_;
  prometheus::Histogram& wait_;
  prometheus::Counter& wrong_passwords_;
  prometheus::Gauge& queued_;
  prometheus::Gauge& listed_;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_MATCHMAKING_METRICS_H_
