// What this replica knows of each game it served lately: the rules record
// (so a game is not replayed from its first move on every call) and the
// game as this replica last committed it (so the next change can be
// decided without reading it first).
#ifndef DRAUGHTS_GAME_STATE_GAME_CACHE_H_
#define DRAUGHTS_GAME_STATE_GAME_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.pb.h"
#include "game_state/stored_game.pb.h"
#include "rules/game.h"

namespace draughts::game_state {

// Replays incrementally: a replica that saw a game at ply N only plays the
// moves after N when it sees it again. Entries are matched on the game id,
// its creation time and the moves so far, so a stale entry is never used.
//
// Also keeps the last stored game this replica committed, with its record,
// so the next change can be decided without reading the game first. That
// copy may be stale (another replica moved since): whoever uses it must let
// the store's version check decide (GameStore::Commit).
//
// Thread-safe; least recently used entries are dropped beyond `capacity`.
class GameCache {
 public:
  explicit GameCache(std::size_t capacity) : capacity_(capacity) {}

  absl::StatusOr<rules::GameRecord> Replay(const v1::GameState& state);
  // Remembers a record that was just produced (e.g. after a move).
  void Remember(const v1::GameState& state, rules::GameRecord record);
  // Remembers a game as committed (version and last event id filled in)
  // with its record. An older version never replaces a newer one.
  void Remember(std::shared_ptr<const StoredGame> game, rules::GameRecord record);

  struct LastKnown {
    std::shared_ptr<const StoredGame> game;
    std::shared_ptr<const rules::GameRecord> record;
  };
  // The game as this replica last committed it, if that was recent enough
  // (a game can only come back under the same id after it expired, which
  // takes far longer): possibly stale.
  std::optional<LastKnown> Latest(const std::string& game_id);

 private:
  struct Entry {
    int64_t created_seconds = 0;
    int32_t created_nanos = 0;
    int64_t version = 0;
    // Digests of the moves so far: prefix_digests[n] covers the first n.
    std::vector<uint64_t> prefix_digests;
    std::shared_ptr<const rules::GameRecord> record;
    // Null when only the record is known (from a replay).
    std::shared_ptr<const StoredGame> game;
    absl::Time stored_at;
  };
  void Store(const v1::GameState& state, std::shared_ptr<Entry> entry);
  using Lru = std::list<std::string>;

  std::shared_ptr<const Entry> Find(const std::string& game_id);

  const std::size_t capacity_;
  std::mutex mu_;
  Lru order_;  // most recent first
  std::unordered_map<std::string, std::pair<std::shared_ptr<const Entry>, Lru::iterator>> entries_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_CACHE_H_
