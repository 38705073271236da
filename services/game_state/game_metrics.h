// Prometheus metrics of the game itself, next to the per-RPC ones the
// platform records: what operators watch on a dashboard (games started and
// ended and why, moves, version races, live watch streams).
#ifndef DRAUGHTS_GAME_STATE_GAME_METRICS_H_
#define DRAUGHTS_GAME_STATE_GAME_METRICS_H_

#include <map>
#include <mutex>

#include "draughts/v1/common.pb.h"
#include "draughts/v1/events.pb.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace draughts::game_state {

class GameMetrics {
 public:
  explicit GameMetrics(prometheus::Registry& registry);

  void GameCreated() { created_.Increment(); }
  // Counts what a committed change did, from its events.
  void Committed(const std::vector<v1::GameEvent>& events);
  // A change lost the version check to another request.
  void RaceLost() { races_lost_.Increment(); }
  void WatchStarted() { watchers_.Increment(); }
  void WatchEnded() { watchers_.Decrement(); }
  // The outbox relay met an entry of a kind it does not know (and left it).
  void OutboxUnknownKind() { outbox_unknown_kind_.Increment(); }

 private:
  prometheus::Counter& created_;
  prometheus::Counter& moves_by_player_;
  prometheus::Counter& moves_automatic_;
  prometheus::Counter& races_lost_;
  prometheus::Gauge& watchers_;
  prometheus::Counter& outbox_unknown_kind_;
  prometheus::Family<prometheus::Counter>& ended_;
  std::mutex mu_;
  std::map<int, prometheus::Counter*> ended_by_reason_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_METRICS_H_
