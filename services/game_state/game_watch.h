// WatchGame on gRPC's callback API: no thread waits for a game's events.
// The service opens the watch (reads the game, positions a subscription
// in its stream) on its blocking pool and hands the subscription to a
// GameWatch; from then on the feed's tailer signals arrivals
// (EventSubscription::SetReadyCallback), the WatchPump thread takes the
// events from the subscription and starts the write, and each finished
// write starts the next one: one write in flight per watcher, events in
// stream order, the stream finished with OK after GameEnded.
#ifndef DRAUGHTS_GAME_STATE_GAME_WATCH_H_
#define DRAUGHTS_GAME_STATE_GAME_WATCH_H_

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>
#include <vector>

#include "draughts/v1/events.pb.h"
#include "game_state/game_metrics.h"
#include "game_state/game_store.h"

namespace draughts::game_state {

class GameWatch;

// What the reactor, the pump and the tailer's callback share; outlives
// the reactor while the pump still holds it.
struct WatchState {
  std::mutex mu;
  GameWatch* reactor = nullptr;  // null once the call is done
  std::unique_ptr<EventSubscription> subscription;
  std::deque<v1::GameEvent> queue;
  bool writing = false;
  bool finishing = false;
  // Begin has run; a cancellation before it waits for it (the opener still
  // holds the reactor).
  bool begun = false;
  bool cancelled_before_begin = false;
  // Set when the call must end once the write in flight completes.
  std::optional<grpc::Status> finish_after_write;
};

// The thread that turns "events arrived" into writes, and the list of
// open watches (to end them all at shutdown).
class WatchPump {
 public:
  WatchPump();
  ~WatchPump();  // after every GameWatch is done
  WatchPump(const WatchPump&) = delete;
  WatchPump& operator=(const WatchPump&) = delete;

  void Ready(std::weak_ptr<WatchState> state);
  void Add(const std::shared_ptr<WatchState>& state);
  void Remove(const WatchState* state);
  // Ends every open watch with `status` (the server is draining).
  void FinishAll(const grpc::Status& status);

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable ready_changed_;
  std::vector<std::weak_ptr<WatchState>> ready_;
  std::unordered_set<std::shared_ptr<WatchState>> open_;
  bool stopping_ = false;
  std::thread thread_;
};

class GameWatch final : public grpc::ServerWriteReactor<v1::GameEvent> {
 public:
  GameWatch(WatchPump* pump, GameMetrics* metrics);

  // Starts delivering `subscription`'s events (any thread).
  void Begin(std::unique_ptr<EventSubscription> subscription);
  // Ends the call (any thread; once a write in flight completed).
  void End(const grpc::Status& status);

  // Moves what the subscription has to the client (any thread; no lock of
  // the feed held).
  static void Pump(const std::shared_ptr<WatchState>& state);

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

  // End with state.mu held.
  static void EndLocked(WatchState& state, const grpc::Status& status);

 private:
  WatchPump* pump_;
  GameMetrics* metrics_;
  bool counted_ = false;
  std::shared_ptr<WatchState> state_;
  v1::GameEvent in_flight_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_WATCH_H_
