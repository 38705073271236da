// The clock's own Prometheus metrics, beside the per-RPC ones the platform
// records: what an operator watches to know deadlines fire on time and the
// disconnect rule is applied.
#ifndef DRAUGHTS_CLOCK_CLOCK_METRICS_H_
#define DRAUGHTS_CLOCK_CLOCK_METRICS_H_

#include <map>
#include <mutex>
#include <string>

#include "absl/time/time.h"
#include "clock/clock_types.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace draughts::clock {

class ClockMetrics {
 public:
  explicit ClockMetrics(prometheus::Registry& registry);

  // `source`: "stream" or "rpc".
  void Armed(const std::string& source);
  void Cancelled() { cancelled_.Increment(); }
  // A claimed timer starts being handled `lateness` after it was due.
  void Fired(DueTimer::Kind kind, absl::Duration lateness);
  // `outcome`: played, not_played, game_over, unknown_game, retry, refused.
  void AutomaticMove(const std::string& outcome);
  void PresenceReported(bool connected);
  void AbandonDeclared() { abandons_.Increment(); }
  void Heartbeat() { heartbeats_.Increment(); }
  // `stage`: claim, fire, stream, save.
  void Error(const std::string& stage);
  void MalformedUpdate() { malformed_.Increment(); }

 private:
  prometheus::Counter& Labelled(prometheus::Family<prometheus::Counter>& family,
                                const std::string& label, const std::string& value);

  prometheus::Family<prometheus::Counter>& armed_;
  prometheus::Counter& cancelled_;
  prometheus::Family<prometheus::Counter>& fired_;
  prometheus::Family<prometheus::Histogram>& lateness_;
  prometheus::Histogram& move_lateness_;
  prometheus::Histogram& presence_lateness_;
  prometheus::Family<prometheus::Counter>& automatic_moves_;
  prometheus::Family<prometheus::Counter>& presence_reports_;
  prometheus::Counter& abandons_;
  prometheus::Counter& heartbeats_;
  prometheus::Family<prometheus::Counter>& errors_;
  prometheus::Counter& malformed_;
  std::mutex mu_;
  std::map<std::pair<prometheus::Family<prometheus::Counter>*, std::string>, prometheus::Counter*>
      counters_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_CLOCK_METRICS_H_
