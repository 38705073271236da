// Forwards bot jobs, result records and clock updates from each game's
// outbox to the platform-wide streams (bot jobs, results, deadlines).
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
// sorted set, score = when). The replica that committed forwards at once
// and clears the mark (unless a newer change re-marked it); the sweeper of
// every replica forwards what a crashed replica left behind, for marks
// older than a few seconds.
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
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "game_state/game_metrics.h"
#include "game_state/game_store.h"
#include "game_state/redis_keys.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"

namespace draughts::game_state {

struct OutboxRelayOptions {
  // Marks older than this are the sweeper's (their replica had its chance).
  absl::Duration sweep_after = absl::Seconds(3);
  absl::Duration sweep_interval = absl::Seconds(1);
  // Approximate length the global streams are trimmed to (XADD MAXLEN ~).
  int64_t stream_max_length = 1000000;
};

class OutboxRelay {
 public:
  // `metrics` may be null.
  OutboxRelay(platform::RedisPool* pool, RedisKeys keys, OutboxRelayOptions options = {},
              GameMetrics* metrics = nullptr);
  ~OutboxRelay();  // stops the sweeper

  // The pending mark to send (pipelined) before committing a change that
  // has messages; `score` identifies this mark.
  std::vector<std::string> MarkCommand(const std::string& game_id, int64_t score) const;

  // After such a commit: forwards `messages` (their outbox ids in
  // `outbox_ids`) and clears the mark if the outbox holds nothing else
  // (`outbox_length` as the commit reported it). Failures are logged and
  // left to the sweeper: the change itself is committed.
  void ForwardCommitted(const std::string& game_id, const std::vector<std::string>& outbox_ids,
                        const std::vector<OutboxMessage>& messages, int64_t outbox_length,
                        int64_t score);

  // One pass over marks older than sweep_after; returns how many messages
  // were forwarded.
  absl::StatusOr<int> SweepOnce();

  // Runs SweepOnce every sweep_interval on a background thread until
  // destruction.
  void StartSweeper();

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
  platform::RedisScript release_script_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread sweeper_;
};

// Outbox entry field `kind`: "bot_job", "result", "clock_update".
std::string_view OutboxKindName(OutboxMessage::Kind kind);
// nullopt for a name this build does not know.
std::optional<OutboxMessage::Kind> ParseOutboxKind(std::string_view name);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_OUTBOX_RELAY_H_
