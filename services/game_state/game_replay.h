// Rebuilds the rules library's record of a game (positions, legal moves,
// draw-rule counters) from what is stored: the rule set, its options, the
// starting FEN and the moves. The stored state stays small and plain; the
// draw rules always see the whole game.
#ifndef DRAUGHTS_GAME_STATE_GAME_REPLAY_H_
#define DRAUGHTS_GAME_STATE_GAME_REPLAY_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/status/statusor.h"
#include "draughts/v1/game.pb.h"
#include "rules/game.h"

namespace draughts::game_state {

// INTERNAL if the stored game does not replay (it was written by this
// service, so that means corruption or an incompatible rules change).
absl::StatusOr<rules::GameRecord> ReplayGame(const v1::GameState& state);

// Replays incrementally: a replica that saw a game at ply N only plays the
// moves after N when it sees it again. Entries are matched on the game id,
// its creation time and the moves so far, so a stale entry is never used.
// Thread-safe; least recently used entries are dropped beyond `capacity`.
class ReplayCache {
 public:
  explicit ReplayCache(std::size_t capacity) : capacity_(capacity) {}

  absl::StatusOr<rules::GameRecord> Replay(const v1::GameState& state);
  // Remembers a record that was just produced (e.g. after a move).
  void Remember(const v1::GameState& state, rules::GameRecord record);

 private:
  struct Entry {
    int64_t created_seconds = 0;
    int32_t created_nanos = 0;
    // Digests of the moves so far: prefix_digests[n] covers the first n.
    std::vector<uint64_t> prefix_digests;
    std::shared_ptr<const rules::GameRecord> record;
  };
  using Lru = std::list<std::string>;

  std::shared_ptr<const Entry> Find(const std::string& game_id);

  const std::size_t capacity_;
  std::mutex mu_;
  Lru order_;  // most recent first
  std::unordered_map<std::string, std::pair<std::shared_ptr<const Entry>, Lru::iterator>> entries_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_REPLAY_H_
