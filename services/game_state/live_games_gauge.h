// draughts_games_live: games in progress on the whole platform, read from
// Redis's live-games index (RedisKeys::LiveGames: games not over, by last
// activity) rather than counted per replica, so it is right however many
// replicas run and whichever served a game. Every replica reports the same
// number: dashboards take max(), not sum().
//
// The index drops a game when it ends (best effort, see
// RedisGameStore::Commit); what a failed removal or an abandoned game leaves
// is not counted once it has been idle longer than the idle retention,
// after which the game itself is gone.
#ifndef DRAUGHTS_GAME_STATE_LIVE_GAMES_GAUGE_H_
#define DRAUGHTS_GAME_STATE_LIVE_GAMES_GAUGE_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "platform/redis_pool.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace draughts::game_state {

struct LiveGamesGaugeOptions {
  std::string live_games_key;  // RedisKeys::LiveGames()
  absl::Duration idle_retention = absl::Hours(24 * 7);
  // A ZCOUNT each period: cheap for Redis whatever the number of games.
  absl::Duration interval = absl::Seconds(10);
  std::function<absl::Time()> now = absl::Now;
};

class LiveGamesGauge {
 public:
  // `pool` must outlive the gauge. Refreshes only once Start() is called.
  LiveGamesGauge(platform::RedisPool* pool, LiveGamesGaugeOptions options,
                 prometheus::Registry& registry);
  ~LiveGamesGauge();  // Stop()
  LiveGamesGauge(const LiveGamesGauge&) = delete;
  LiveGamesGauge& operator=(const LiveGamesGauge&) = delete;

  // Counts now; the gauge keeps its last value when Redis does not answer.
  absl::Status Refresh();
  // Refreshes every `interval` on a thread of its own until Stop().
  void Start();
  void Stop();

 private:
  platform::RedisPool* pool_;
  const LiveGamesGaugeOptions options_;
  prometheus::Gauge& live_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_LIVE_GAMES_GAUGE_H_
