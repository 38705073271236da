#include "game_state/live_games_gauge.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::game_state {

LiveGamesGauge::LiveGamesGauge(platform::RedisPool* pool, LiveGamesGaugeOptions options,
                               prometheus::Registry& registry)
    : pool_(pool),
      options_(std::move(options)),
      live_(prometheus::BuildGauge()
                .Name("draughts_games_live")
                .Help("Games in progress on the whole platform (from Redis; every replica "
                      "reports the same number: aggregate with max)")
                .Register(registry)
                .Add({})) {}

LiveGamesGauge::~LiveGamesGauge() {
  Stop();
}

absl::Status LiveGamesGauge::Refresh() {
  const int64_t oldest_ms = absl::ToUnixMillis(options_.now() - options_.idle_retention);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      redis->Command({"ZCOUNT", options_.live_games_key, absl::StrCat(oldest_ms), "+inf"}));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t count, reply.AsInteger());
  live_.Set(static_cast<double>(count));
  return absl::OkStatus();
}

void LiveGamesGauge::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
      lock.unlock();
      // Redis being down is reported by readiness and the store metrics.
      if (absl::Status status = Refresh(); !status.ok()) {
        platform::LogDebug("live games not counted", {{"status", status}});
      }
      lock.lock();
      wake_.wait_for(lock, absl::ToChronoNanoseconds(options_.interval),
                     [this] { return stopping_; });
    }
  });
}

void LiveGamesGauge::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace draughts::game_state
