// Forwards bot jobs, result records, clock updates and chat notices from
// each game's outbox to the platform-wide streams (bot jobs, results,
// deadlines, chat notices).
//
// Why an outbox: a change, its events and the messages it causes must be
// written in ONE atomic step, and a Lua script may only touch keys of one
// Redis Cluster slot. A game's keys share the slot of its hash tag; the
// global streams (bot jobs, results) live in other slots. So the commit
// script appends the messages to the game's own outbox stream, and this
// relay copies them to the global streams afterwards. Sharding the global
// streams by the game's hash tag would avoid the copy, but every consumer
// would then have to read one stream per game.
//
// Delivery is at least once: a message is XADDed to its global stream
// before it is deleted from the outbox, so a relay dying in between makes it
// send the message again, never lose it. Consumers dedupe (bot workers by
// game id + ply, the rating service by game id), as events.proto says.
//
// Finding outboxes to drain without scanning every game: before a change
// with messages is committed, the game is marked in a pending index (a
// sorted set, score = when). The replica that committed forwards soon after
// and clears the mark (unless a newer change re-marked it); the sweeper of
// every replica forwards what a crashed replica left behind, for marks
// older than a few seconds.
//
// Forwarding after a commit is off the request path: ForwardCommitted only
// queues the change, and one forwarder thread takes everything queued at
// that moment and forwards it in two round trips for all those games (all
// XADDs; then all XDELs and mark releases). A full queue drops the change
// (counted): its mark stays and the sweeper forwards it later. Stop (or the
// destructor) forwards what is still queued before returning.
//
// The mark is released only when nothing older than the change's own
// messages is in the outbox: either the commit said so (outbox length), or,
// when an earlier queued change of the same game had not been deleted yet at
// the commit, an XLEN after the deletes finds the outbox empty. Any entry
// appended after that XLEN came with a newer mark, which the release (by
// score) leaves alone.
//
// An outbox entry of a kind this relay does not know (written by a newer
// replica during a rolling update, or by hand) is never guessed at: it is
// logged, counted (draughts_outbox_unknown_kind_total, each time a sweep
// meets it) and left in the outbox, where a relay that knows it, or an
// operator, finds it.
#ifndef DRAUGHTS_GAME_STATE_OUTBOX_RELAY_H_
#define DRAUGHTS_GAME_STATE_OUTBOX_RELAY_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "game_state/game_metrics.h"
#include "game_state/game_store.h"
#include "game_state/redis_keys.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace draughts::game_state {

struct OutboxRelayOptions {
  // Marks older than this are the sweeper's (their replica had its chance).
  absl::Duration sweep_after = absl::Seconds(3);
  absl::Duration sweep_interval = absl::Seconds(1);
  // Approximate length the global streams are trimmed to (XADD MAXLEN ~).
  int64_t stream_max_length = 1000000;
  // Committed changes waiting for the forwarder; past this ForwardCommitted
  // drops the change and leaves it to the sweeper.
  int max_queued = 10000;
  // Most changes forwarded per pair of round trips.
  int max_batch = 500;
};

// Prometheus metrics of the forwarder (registered when the relay is given a
// registry).
struct OutboxForwardMetrics {
  explicit OutboxForwardMetrics(prometheus::Registry& registry);
  prometheus::Gauge& queued;
  prometheus::Counter& batches;
  prometheus::Counter& messages;
  prometheus::Counter& dropped;
};

class OutboxRelay {
 public:
  // `metrics` and `registry` may be null. Starts the forwarder thread.
  OutboxRelay(platform::RedisPool* pool, RedisKeys keys, OutboxRelayOptions options = {},
              GameMetrics* metrics = nullptr, prometheus::Registry* registry = nullptr);
  ~OutboxRelay();  // Stop()

  // Stops the sweeper, forwards what is queued, then stops the forwarder.
  // Changes passed to ForwardCommitted afterwards are left to the sweepers
  // of other replicas. Idempotent.
  void Stop();

  // The pending mark to send (pipelined) before committing a change that
  // has messages; `score` identifies this mark.
  std::vector<std::string> MarkCommand(const std::string& game_id, int64_t score) const;

  // After such a commit: queues `messages` (their outbox ids in
  // `outbox_ids`) for the forwarder, which clears the mark if the outbox
  // holds nothing else (`outbox_length` as the commit reported it). Returns
  // at once; failures are logged and left to the sweeper: the change itself
  // is committed.
  void ForwardCommitted(const std::string& game_id, const std::vector<std::string>& outbox_ids,
                        const std::vector<OutboxMessage>& messages, int64_t outbox_length,
                        int64_t score);

  // One pass over marks older than sweep_after; returns how many messages
  // were forwarded.
  absl::StatusOr<int> SweepOnce();

  // Runs SweepOnce every sweep_interval on a background thread until
  // Stop.
  void StartSweeper();

  // Changes queued and not yet taken by the forwarder.
  int Queued() const;

 private:
  struct Message {
    std::string outbox_id;
    OutboxMessage::Kind kind;
    std::string data;
  };
  // Copies `messages` to their streams, deletes them from the outbox and,
  // with `release_score`, drops the game's pending mark if it is still
  // that one.
  absl::Status Forward(platform::RedisClient& redis, const std::string& game_id,
                       const std::vector<Message>& messages, std::optional<int64_t> release_score);
  // One committed change waiting for the forwarder.
  struct Committed {
    std::string game_id;
    std::vector<Message> messages;
    int64_t score = 0;
    // The commit found nothing older in the outbox.
    bool only_these = false;
  };
  void ForwardLoop();
  // Forwards `batch` (in commit order) in two or three round trips.
  absl::Status ForwardBatch(std::vector<Committed>& batch);
  // Drops the marks of these (game id, score) pairs if they are unchanged.
  absl::Status ReleaseAll(platform::RedisClient& redis,
                          const std::vector<std::pair<std::string, int64_t>>& marks);
  const std::string& StreamOf(OutboxMessage::Kind kind) const;
  absl::Status Release(platform::RedisClient& redis, const std::string& game_id, int64_t score);
  void SweepLoop();

  platform::RedisPool* pool_;
  RedisKeys keys_;
  OutboxRelayOptions options_;
  GameMetrics* metrics_;
  std::string bot_jobs_key_;
  std::string results_key_;
  std::string deadlines_key_;
  std::string chat_notices_key_;
  platform::RedisScript release_script_;
  std::unique_ptr<OutboxForwardMetrics> forward_metrics_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread sweeper_;

  mutable std::mutex queue_mu_;
  std::condition_variable queue_wake_;
  std::deque<Committed> queue_;
  bool forwarder_stopping_ = false;
  std::thread forwarder_;
};

// Outbox entry field `kind`: "bot_job", "result", "clock_update",
// "chat_notice".
std::string_view OutboxKindName(OutboxMessage::Kind kind);
// nullopt for a name this build does not know.
std::optional<OutboxMessage::Kind> ParseOutboxKind(std::string_view name);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_OUTBOX_RELAY_H_
