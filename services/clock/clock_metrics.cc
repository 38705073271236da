#include "clock/clock_metrics.h"

namespace draughts::clock {
namespace {

prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& registry,
                                                       const std::string& name,
                                                       const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

// Lateness buckets: the target is well under a second (p99 < 250 ms).
prometheus::Histogram::BucketBoundaries LatenessBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10};
}

}  // namespace

ClockMetrics::ClockMetrics(prometheus::Registry& registry)
    : armed_(CounterFamily(registry, "draughts_clock_deadlines_armed_total",
                           "Deadlines armed (new game_version), by source: the deadlines stream "
                           "or ArmDeadline")),
      cancelled_(CounterFamily(registry, "draughts_clock_deadlines_cancelled_total",
                               "Games forgotten because they ended")
                     .Add({})),
      fired_(CounterFamily(registry, "draughts_clock_timers_fired_total",
                           "Due timers claimed and handled by this replica, by kind (move: an "
                           "automatic move is due; presence: a presence check)")),
      lateness_(prometheus::BuildHistogram()
                    .Name("draughts_clock_fire_lateness_seconds")
                    .Help("How long after its due time a timer started being handled")
                    .Register(registry)),
      move_lateness_(lateness_.Add({{"kind", "move"}}, LatenessBuckets())),
      presence_lateness_(lateness_.Add({{"kind", "presence"}}, LatenessBuckets())),
      automatic_moves_(CounterFamily(registry, "draughts_clock_automatic_moves_total",
                                     "GameService.PlayAutomaticMove calls, by outcome (played, "
                                     "not_played, game_over, unknown_game, retry, refused)")),
      presence_reports_(CounterFamily(registry, "draughts_clock_presence_reports_total",
                                      "GameService.RecordPresence changes reported, by "
                                      "connected")),
      abandons_(CounterFamily(registry, "draughts_clock_abandons_declared_total",
                              "GameService.DeclareAbandoned calls answered OK (the 2-minute "
                              "rule)")
                    .Add({})),
      heartbeats_(CounterFamily(registry, "draughts_clock_heartbeats_total", "Heartbeats recorded")
                      .Add({})),
      errors_(CounterFamily(registry, "draughts_clock_errors_total",
                            "Failures, by stage (claim, fire, stream, save); the work is retried")),
      malformed_(CounterFamily(registry, "draughts_clock_malformed_updates_total",
                               "Deadlines stream entries acknowledged without effect "
                               "(unparsable)")
                     .Add({})) {}

prometheus::Counter& ClockMetrics::Labelled(prometheus::Family<prometheus::Counter>& family,
                                            const std::string& label, const std::string& value) {
  std::lock_guard<std::mutex> lock(mu_);
  prometheus::Counter*& counter = counters_[{&family, value}];
  if (counter == nullptr) counter = &family.Add({{label, value}});
  return *counter;
}

void ClockMetrics::Armed(const std::string& source) {
  Labelled(armed_, "source", source).Increment();
}

void ClockMetrics::Fired(DueTimer::Kind kind, absl::Duration lateness) {
  const bool move = kind == DueTimer::Kind::kMove;
  Labelled(fired_, "kind", move ? "move" : "presence").Increment();
  (move ? move_lateness_ : presence_lateness_)
      .Observe(absl::ToDoubleSeconds(std::max(lateness, absl::ZeroDuration())));
}

void ClockMetrics::AutomaticMove(const std::string& outcome) {
  Labelled(automatic_moves_, "outcome", outcome).Increment();
}

void ClockMetrics::PresenceReported(bool connected) {
  Labelled(presence_reports_, "connected", connected ? "true" : "false").Increment();
}

void ClockMetrics::Error(const std::string& stage) {
  Labelled(errors_, "stage", stage).Increment();
}

}  // namespace draughts::clock
