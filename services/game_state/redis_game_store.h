// GameStore over Redis. Each game is three keys sharing the hash tag of its
// id (redis_keys.h); creating a game and every change to it is one Lua
// script run (lua/create_game.lua, lua/commit_change.lua) that checks the
// version, appends the events, writes the state and queues outbox messages
// together, so racing replicas cannot both win and a replica killed at any
// moment loses nothing it acknowledged. The ListGames indexes are global
// keys, updated next to the scripts (pipelined), and only as a hint: lists
// are always filtered by the games' real state.
#ifndef DRAUGHTS_GAME_STATE_REDIS_GAME_STORE_H_
#define DRAUGHTS_GAME_STATE_REDIS_GAME_STORE_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "game_state/game_store.h"
#include "game_state/outbox_relay.h"
#include "game_state/redis_keys.h"
#include "platform/redis_pipeliner.h"
#include "platform/redis_pool.h"
#include "platform/redis_script.h"

namespace draughts::game_state {

struct RedisGameStoreOptions {
  // An ongoing game nobody touches for this long is dropped.
  absl::Duration idle_retention = absl::Hours(24 * 14);
  // A finished game stays readable (GetGame, WatchGame, ListGames with
  // include_finished, CreateGame retries) this long after its end. At least
  // 24 hours: idempotency keys must be remembered that long.
  absl::Duration finished_retention = absl::Hours(24 * 3);
  // On a single Redis (never on a cluster): a commit writes its messages
  // straight to the global streams in its own script, instead of to the
  // game's outbox for the relay to copy (one script per move, no pending
  // mark, no forwarding round trips). Creation still goes through the
  // outbox.
  bool direct_messages = false;
  // The approximate length direct writes trim the global streams to (as
  // OutboxRelayOptions::stream_max_length).
  int64_t stream_max_length = 1000000;
};

class RedisGameStore final : public GameStore {
 public:
  // `pool` and `relay` must outlive the store.
  RedisGameStore(platform::RedisPool* pool, RedisKeys keys, OutboxRelay* relay,
                 RedisGameStoreOptions options = {});

  // CommitAsync sends its commits through `pipeliner` (with the commits of
  // other calls in flight, in few round trips); without one it commits
  // synchronously. Must outlive the store.
  void set_pipeliner(platform::RedisPipeliner* pipeliner) { pipeliner_ = pipeliner; }

  // Loads the scripts now, so a broken script or server fails at startup.
  absl::Status Preload();

  absl::StatusOr<StoredGame> Load(const std::string& game_id) override;
  absl::StatusOr<CreateResult> Create(const std::string& game_id, const NewGame& game) override;
  absl::StatusOr<std::vector<std::string>> Commit(const std::string& game_id, const Change& change,
                                                  std::optional<StoredGame>* current) override;
  void CommitAsync(const std::string& game_id, const Change& change, CommitDone done) override;
  absl::StatusOr<std::vector<ListCursor>> List(const ListQuery& query) override;
  absl::StatusOr<std::vector<std::optional<StoredGame>>> LoadMany(
      const std::vector<std::string>& game_ids) override;

 private:
  // Runs `commands` with the script call at `script_index` as one pipeline,
  // loading the script first when the server does not know it.
  absl::StatusOr<std::vector<platform::RedisReply>> PipelineWithScript(
      platform::RedisClient& redis, platform::RedisScript& script,
      std::vector<std::vector<std::string>> commands, std::size_t script_index);
  // A commit's commands (the script call at script_index) and what its
  // reply is read with.
  struct PreparedCommit {
    std::vector<std::vector<std::string>> commands;
    std::size_t script_index = 0;
    bool finished = false;
    int64_t mark = 0;
  };
  PreparedCommit PrepareCommit(const std::string& game_id, const Change& change);
  absl::StatusOr<std::vector<std::string>> FinishCommit(const std::string& game_id,
                                                        const Change& change,
                                                        const PreparedCommit& prepared,
                                                        const platform::RedisReply& script_reply,
                                                        std::optional<StoredGame>* current);
  std::vector<std::vector<std::string>> IndexCommands(const v1::GameState& state, bool created);

  platform::RedisPool* pool_;
  RedisKeys keys_;
  OutboxRelay* relay_;
  platform::RedisPipeliner* pipeliner_ = nullptr;
  RedisGameStoreOptions options_;
  platform::RedisScript create_script_;
  platform::RedisScript commit_script_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_REDIS_GAME_STORE_H_
