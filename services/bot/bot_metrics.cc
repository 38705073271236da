#include "bot/bot_metrics.h"

namespace draughts::bot {
namespace {

prometheus::Family<prometheus::Counter>& CounterFamily(prometheus::Registry& registry,
                                                       const std::string& name,
                                                       const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

prometheus::Gauge& Gauge(prometheus::Registry& registry, const std::string& name,
                         const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry).Add({});
}

// Easy answers in tens of milliseconds, Hard in about 1.5 s, an external
// engine in up to its configured time: buckets cover all three.
const prometheus::Histogram::BucketBoundaries& SecondsBuckets() {
  static const prometheus::Histogram::BucketBoundaries buckets = {
      0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 1.5, 2, 2.5, 3, 5, 10, 30};
  return buckets;
}

}  // namespace

BotMetrics::BotMetrics(prometheus::Registry& registry)
    : think_seconds_(prometheus::BuildHistogram()
                         .Name("draughts_bot_think_seconds")
                         .Help("Time spent choosing a move, by engine (built-in level or "
                               "external engine id)")
                         .Register(registry)),
      move_latency_seconds_(prometheus::BuildHistogram()
                                .Name("draughts_bot_move_latency_seconds")
                                .Help("From the job's entry in the stream to the move accepted "
                                      "by game-state (Easy's deliberate pause included), by "
                                      "engine")
                                .Register(registry)),
      moves_(CounterFamily(registry, "draughts_bot_moves_total",
                           "Moves accepted by game-state, by engine")),
      jobs_(CounterFamily(registry, "draughts_bot_jobs_total",
                          "Bot jobs acknowledged, by outcome (played, obsolete, malformed, "
                          "rejected)")),
      restarts_(CounterFamily(registry, "draughts_bot_engine_restarts_total",
                              "External engine processes replaced after dying, hanging or "
                              "answering garbage, by engine")),
      fallbacks_(CounterFamily(registry, "draughts_bot_engine_fallbacks_total",
                               "Moves the built-in engine played because an external engine "
                               "failed, by engine")),
      claimed_(CounterFamily(registry, "draughts_bot_jobs_claimed_total",
                             "Bot jobs taken over from a worker that stopped (XAUTOCLAIM)")
                   .Add({})),
      retried_(CounterFamily(registry, "draughts_bot_jobs_retried_total",
                             "Bot jobs left pending after a failure (game-state or Redis "
                             "unavailable) to be handled again")
                   .Add({})),
      pending_(Gauge(registry, "draughts_bot_jobs_pending",
                     "Bot jobs delivered to a worker and not acknowledged (whole group)")),
      lag_(Gauge(registry, "draughts_bot_jobs_lag",
                 "Bot jobs in the stream not yet delivered to any worker")),
      oldest_age_(Gauge(registry, "draughts_bot_oldest_job_age_seconds",
                        "Age of the oldest bot job not acknowledged (pending or undelivered)")),
      in_flight_(Gauge(registry, "draughts_bot_jobs_in_flight",
                       "Bot jobs this process holds (thinking, queued or pausing)")),
      working_(Gauge(registry, "draughts_bot_jobs_working",
                     "Worker threads of this process on a job now (thinking or submitting)")) {}

prometheus::Counter& BotMetrics::Labeled(prometheus::Family<prometheus::Counter>& family,
                                         std::map<std::string, prometheus::Counter*>& cache,
                                         const std::string& key, const std::string& label) {
  prometheus::Counter*& counter = cache[label];
  if (counter == nullptr) counter = &family.Add({{key, label}});
  return *counter;
}

void BotMetrics::Thought(const std::string& engine, absl::Duration elapsed) {
  std::lock_guard<std::mutex> lock(mu_);
  prometheus::Histogram*& histogram = think_by_engine_[engine];
  if (histogram == nullptr) histogram = &think_seconds_.Add({{"engine", engine}}, SecondsBuckets());
  histogram->Observe(absl::ToDoubleSeconds(elapsed));
}

void BotMetrics::MovePlayed(const std::string& engine, absl::Duration since_queued) {
  std::lock_guard<std::mutex> lock(mu_);
  Labeled(moves_, moves_by_engine_, "engine", engine).Increment();
  prometheus::Histogram*& histogram = latency_by_engine_[engine];
  if (histogram == nullptr) {
    histogram = &move_latency_seconds_.Add({{"engine", engine}}, SecondsBuckets());
  }
  histogram->Observe(absl::ToDoubleSeconds(since_queued));
}

void BotMetrics::JobDone(const std::string& outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  Labeled(jobs_, jobs_by_outcome_, "outcome", outcome).Increment();
}

void BotMetrics::EngineRestarted(const std::string& engine) {
  std::lock_guard<std::mutex> lock(mu_);
  Labeled(restarts_, restarts_by_engine_, "engine", engine).Increment();
}

void BotMetrics::EngineFallback(const std::string& engine) {
  std::lock_guard<std::mutex> lock(mu_);
  Labeled(fallbacks_, fallbacks_by_engine_, "engine", engine).Increment();
}

void BotMetrics::Queue(int64_t pending, std::optional<int64_t> lag, absl::Duration oldest_age) {
  pending_.Set(static_cast<double>(pending));
  if (lag.has_value()) lag_.Set(static_cast<double>(*lag));
  oldest_age_.Set(absl::ToDoubleSeconds(oldest_age));
}

}  // namespace draughts::bot
