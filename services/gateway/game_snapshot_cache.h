// One read of a game per version for every table socket of this gateway
// process: when a move lands, each socket of the table (two players and
// any number of spectators) wants the game, its legal moves and its clock
// again. Reading them once per socket made the gateway's cost per move grow
// with the table's audience; here the sockets asking for the same game share
// one read (GetGame + ListLegalMoves + GetClock, on gRPC's callback API,
// holding no thread), and a socket asking for a version already read gets
// it at once.
//
// What is shared is only what game_state and the clock give anyone who asks
// by game id (no seat, token or session): each socket still builds its own
// frames from it (legal moves only for the seat to move).
//
// A move this gateway submits answers the game after it and its legal
// moves (SubmitMoveRequest.include_legal_moves): that answer is kept as a
// read would be, and the sockets woken by the move's event take it without
// a GetGame.
//
// Thread-safe. `done` runs on a gRPC thread or, for a version already read,
// on the caller's thread: post it on.
#ifndef DRAUGHTS_GATEWAY_GAME_SNAPSHOT_CACHE_H_
#define DRAUGHTS_GATEWAY_GAME_SNAPSHOT_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "draughts/v1/clock.pb.h"
#include "gateway/game_backend.h"
#include "gateway/table_frames.h"
#include "gateway/ws_protocol.h"

namespace draughts::gateway {

// A game as read at one moment: the view, and the clock when the game was
// ongoing and the clock answered.
struct GameSnapshot {
  absl::StatusOr<GameView> view;
  std::optional<v1::GetClockResponse> clock;

  // The table socket's snapshot frame for a socket playing `colors`, with
  // its move timer (table_frames.h), as JSON: printed once for every socket
  // that shows this read. The view must be ok.
  std::shared_ptr<const std::string> SnapshotFrame(const std::vector<v1::Color>& colors) const;

 private:
  mutable absl::Mutex frames_mu_;
  mutable absl::flat_hash_map<std::string, std::shared_ptr<const std::string>> snapshot_frames_
      ABSL_GUARDED_BY(frames_mu_);
  // The game, its legal moves and its timer, printed for the first frame
  // and reused by the others (a player's, the opponent's, a spectator's).
  mutable std::optional<SnapshotJsonParts> snapshot_parts_ ABSL_GUARDED_BY(frames_mu_);
};

class GameSnapshotCache final : public MoveAnswerListener {
 public:
  using Done = std::function<void(std::shared_ptr<const GameSnapshot>)>;
  // Reads one game (GameBackend::GetViewAsync, then the clock's GetClock when
  // NeedsClockRead); `done` once, on any thread. Injected so tests can count
  // reads. `min_version`: every caller waiting takes that version or a newer
  // one (GetGameRequest.min_version); 0 when one asked for a fresh read.
  using Reader = std::function<void(const std::string& game_id, int64_t min_version, Done done)>;

  // A version not yet read is asked again after a read showing an older one
  // (a read that started before the move landed) at most this many times;
  // then the caller gets the newest read there is.
  static constexpr int kReadsPerWait = 3;

  explicit GameSnapshotCache(Reader reader, std::size_t max_games = 8192);
  GameSnapshotCache(const GameSnapshotCache&) = delete;
  GameSnapshotCache& operator=(const GameSnapshotCache&) = delete;

  // The game at `min_version` or newer: the last read if it shows that,
  // else the next read (shared with every caller waiting for this game).
  // `min_version` < 0: a read started after this call (a socket that knows
  // nothing of the game yet must not get a snapshot cached before it
  // opened). Errors are passed on, not kept.
  void Get(const std::string& game_id, int64_t min_version, Done done);

  // A move of this gateway is under way: until its answer, a caller asking
  // for a version this gateway has not seen yet waits for the answer
  // instead of reading (the move's event often overtakes its answer).
  void MoveSubmitted(const std::string& game_id) override;
  // Ends one MoveSubmitted. `view`, when the move was played, is kept as a
  // read would keep it and answers who waits for its version; the others
  // are then read for, as usual. A game with a seat away is left to the
  // reader (its snapshot needs the clock).
  void MoveAnswered(const std::string& game_id, std::optional<GameView> view) override;

  // Reads started so far (for tests and metrics).
  int64_t reads() const;

 private:
  struct Waiter {
    int64_t min_version;
    uint64_t first_read;  // the sequence number of the first read it may take
    int reads_seen = 0;
    Done done;
  };
  struct Entry {
    std::shared_ptr<const GameSnapshot> last;  // newest successful read
    uint64_t reads_started = 0;
    bool reading = false;
    int moves_under_way = 0;
    std::vector<Waiter> waiters;
  };

  // Makes room for a new entry past max.
  Entry& EntryLocked(const std::string& game_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Starts a read for the waiters when none is under way; false if none
  // was needed.
  bool StartReadLocked(Entry& entry, uint64_t& sequence, int64_t& min_version)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void StartRead(const std::string& game_id, uint64_t sequence, int64_t min_version);
  void OnRead(const std::string& game_id, uint64_t sequence,
              std::shared_ptr<const GameSnapshot> snapshot);
  // Forgets idle entries of finished games, then any idle ones, past max.
  void TrimLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const Reader reader_;
  const std::size_t max_games_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
  int64_t reads_ ABSL_GUARDED_BY(mu_) = 0;
};

// Whether a snapshot of `game` needs the clock's GetClock: only its presence
// adds to what game_state says (a seat away and when the 2-minute rule ends
// the game); the deadline is game_state's. One call fewer a move while both
// seats are connected.
bool NeedsClockRead(const v1::GameState& game);

// The reader of a gateway: the game from game_state, then its clock when
// NeedsClockRead.
class ClockBackend;
GameSnapshotCache::Reader GameAndClockReader(GameBackend* games, ClockBackend* clock);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_SNAPSHOT_CACHE_H_
