// The processes of one external Hub engine: at most `processes` of them,
// each started for one rule set (the Hub protocol sets the variant before
// "init") and kept for the next move. A process that dies, hangs past its
// time or answers something that is not a legal move is killed and a fresh
// one started; the move is tried once more on it before the caller gets
// UNAVAILABLE. Thread-safe: each move holds one process for itself.
#ifndef DRAUGHTS_BOT_HUB_ENGINE_POOL_H_
#define DRAUGHTS_BOT_HUB_ENGINE_POOL_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "bot/bot_metrics.h"
#include "bot/choice.h"
#include "bot/hub_engine_config.h"
#include "match/hub_engine.h"
#include "rules/game.h"

namespace draughts::bot {

class HubEnginePool {
 public:
  // `metrics` may be null.
  HubEnginePool(HubEngineConfig config, BotMetrics* metrics);
  ~HubEnginePool();  // quits every idle process
  HubEnginePool(const HubEnginePool&) = delete;
  HubEnginePool& operator=(const HubEnginePool&) = delete;

  const HubEngineConfig& config() const { return config_; }
  bool Plays(std::string_view variant) const;

  // A move for the side to move in `record`, thinking `budget` (zero: the
  // configured move-time). UNAVAILABLE when no process could be had within
  // `wait` or none answered with a legal move; FAILED_PRECONDITION for a
  // rule set the engine does not play.
  absl::StatusOr<Choice> Think(const rules::GameRecord& record, absl::Duration budget,
                               absl::Duration wait = absl::Seconds(5));

  // Processes running now (idle or thinking).
  int running() const;

 private:
  struct Process {
    std::string variant;
    std::unique_ptr<match::HubEngine> engine;
  };
  // A process for `variant`: an idle one, a new one, or an idle one of
  // another rule set restarted for this one.
  absl::StatusOr<Process> Acquire(const std::string& variant, absl::Time deadline);
  absl::StatusOr<Process> StartProcess(const std::string& variant);
  void Release(Process process);
  // The process failed: it is killed and its place freed.
  void Discard(Process process, const std::string& why);
  absl::StatusOr<Choice> ThinkOn(Process& process, const rules::GameRecord& record,
                                 absl::Duration budget);

  const HubEngineConfig config_;
  BotMetrics* metrics_;
  mutable std::mutex mu_;
  std::condition_variable freed_;
  std::vector<Process> idle_;
  int running_ = 0;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_HUB_ENGINE_POOL_H_
