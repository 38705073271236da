#include "gateway/game_snapshot_cache.h"

#include <algorithm>
#include <utility>

#include "gateway/clock_backend.h"
#include "gateway/game_backend.h"
#include "gateway/table_frames.h"

namespace draughts::gateway {
namespace {

int64_t VersionOf(const GameSnapshot& snapshot) {
  return snapshot.view.ok() ? snapshot.view->game.version() : -1;
}

bool Finished(const GameSnapshot& snapshot) {
  return snapshot.view.ok() && snapshot.view->game.result() != v1::GAME_RESULT_ONGOING;
}

// The oldest version a read may show and still serve every waiter; 0 (as
// stored now) when one asked for a fresh read.
template <typename Waiters>
int64_t ReadMinVersion(const Waiters& waiters) {
  int64_t min_version = 0;
  for (const auto& waiter : waiters) {
    if (waiter.min_version < 0) return 0;
    min_version = std::max(min_version, waiter.min_version);
  }
  return min_version;
}

}  // namespace

bool NeedsClockRead(const v1::GameState& game) {
  return game.result() == v1::GAME_RESULT_ONGOING &&
         (!game.white().connected() || !game.black().connected());
}

GameSnapshotCache::GameSnapshotCache(Reader reader, std::size_t max_games)
    : reader_(std::move(reader)), max_games_(std::max<std::size_t>(1, max_games)) {}

int64_t GameSnapshotCache::reads() const {
  absl::MutexLock lock(&mu_);
  return reads_;
}

void GameSnapshotCache::Get(const std::string& game_id, int64_t min_version, Done done) {
  std::shared_ptr<const GameSnapshot> ready;
  bool start = false;
  uint64_t sequence = 0;
  int64_t read_min_version = 0;
  {
    absl::MutexLock lock(&mu_);
    Entry& entry = EntryLocked(game_id);
    if (min_version >= 0 && entry.last != nullptr && VersionOf(*entry.last) >= min_version) {
      ready = entry.last;
    } else {
      // A read under way may have started before the version asked for
      // landed: it is taken if it shows it, else the next one is.
      const bool fresh_only = min_version < 0;
      Waiter waiter{min_version,
                    entry.reading && !fresh_only ? entry.reads_started : entry.reads_started + 1, 0,
                    std::move(done)};
      entry.waiters.push_back(std::move(waiter));
      start = StartReadLocked(entry, sequence, read_min_version);
    }
  }
  if (ready != nullptr) {
    done(std::move(ready));
    return;
  }
  if (start) StartRead(game_id, sequence, read_min_version);
}

void GameSnapshotCache::MoveSubmitted(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  ++EntryLocked(game_id).moves_under_way;
}

void GameSnapshotCache::MoveAnswered(const std::string& game_id, std::optional<GameView> view) {
  std::shared_ptr<GameSnapshot> offered;
  if (view.has_value() && !NeedsClockRead(view->game)) {
    offered = std::make_shared<GameSnapshot>();
    offered->view = *std::move(view);
  }
  std::vector<Done> ready;
  std::shared_ptr<const GameSnapshot> answer;
  bool start = false;
  uint64_t sequence = 0;
  int64_t read_min_version = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = entries_.find(game_id);
    if (it == entries_.end()) return;  // not possible: a move under way keeps its entry
    Entry& entry = it->second;
    if (entry.moves_under_way > 0) --entry.moves_under_way;
    if (offered != nullptr &&
        (entry.last == nullptr || VersionOf(*offered) >= VersionOf(*entry.last))) {
      entry.last = std::move(offered);
    }
    if (entry.last != nullptr) {
      answer = entry.last;
      std::vector<Waiter> waiting;
      for (Waiter& waiter : entry.waiters) {
        // A fresh read was asked for: the answer may be older than the ask.
        if (waiter.min_version >= 0 && VersionOf(*answer) >= waiter.min_version) {
          ready.push_back(std::move(waiter.done));
        } else {
          waiting.push_back(std::move(waiter));
        }
      }
      entry.waiters = std::move(waiting);
    }
    start = StartReadLocked(entry, sequence, read_min_version);
  }
  for (Done& done : ready) done(answer);
  if (start) StartRead(game_id, sequence, read_min_version);
}

GameSnapshotCache::Entry& GameSnapshotCache::EntryLocked(const std::string& game_id) {
  if (!entries_.contains(game_id) && entries_.size() >= max_games_) TrimLocked();
  return entries_[game_id];
}

bool GameSnapshotCache::StartReadLocked(Entry& entry, uint64_t& sequence, int64_t& min_version) {
  if (entry.reading || entry.waiters.empty()) return false;
  // While a move of this gateway is under way its answer will likely show
  // what the waiters want; a waiter asking for a fresh read cannot wait.
  const bool fresh_asked = std::any_of(entry.waiters.begin(), entry.waiters.end(),
                                       [](const Waiter& waiter) { return waiter.min_version < 0; });
  if (entry.moves_under_way > 0 && !fresh_asked) return false;
  entry.reading = true;
  sequence = ++entry.reads_started;
  min_version = ReadMinVersion(entry.waiters);
  ++reads_;
  return true;
}

void GameSnapshotCache::StartRead(const std::string& game_id, uint64_t sequence,
                                  int64_t min_version) {
  reader_(game_id, min_version,
          [this, game_id, sequence](std::shared_ptr<const GameSnapshot> snapshot) {
            OnRead(game_id, sequence, std::move(snapshot));
          });
}

void GameSnapshotCache::OnRead(const std::string& game_id, uint64_t sequence,
                               std::shared_ptr<const GameSnapshot> snapshot) {
  std::vector<std::pair<Done, std::shared_ptr<const GameSnapshot>>> ready;
  bool start = false;
  uint64_t next = 0;
  int64_t read_min_version = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = entries_.find(game_id);
    if (it == entries_.end()) return;  // not possible: a read keeps its entry
    Entry& entry = it->second;
    entry.reading = false;
    if (snapshot->view.ok() &&
        (entry.last == nullptr || VersionOf(*snapshot) >= VersionOf(*entry.last))) {
      entry.last = snapshot;
    }
    // What a waiter gets: this read's error, or the newest game read.
    const std::shared_ptr<const GameSnapshot>& answer = snapshot->view.ok() ? entry.last : snapshot;
    std::vector<Waiter> waiting;
    for (Waiter& waiter : entry.waiters) {
      if (waiter.first_read > sequence) {
        waiting.push_back(std::move(waiter));
        continue;
      }
      ++waiter.reads_seen;
      const bool answered = !snapshot->view.ok() || VersionOf(*answer) >= waiter.min_version ||
                            waiter.reads_seen >= kReadsPerWait;
      if (answered) {
        ready.emplace_back(std::move(waiter.done), answer);
      } else {
        waiter.first_read = sequence + 1;
        waiting.push_back(std::move(waiter));
      }
    }
    entry.waiters = std::move(waiting);
    start = StartReadLocked(entry, next, read_min_version);
  }
  for (auto& [done, answer] : ready) done(std::move(answer));
  if (start) StartRead(game_id, next, read_min_version);
}

void GameSnapshotCache::TrimLocked() {
  auto idle = [](const Entry& entry) {
    return !entry.reading && entry.waiters.empty() && entry.moves_under_way == 0;
  };
  // Finished games first: their sockets ask for nothing newer.
  for (auto it = entries_.begin(); it != entries_.end();) {
    const Entry& entry = it->second;
    if (idle(entry) && (entry.last == nullptr || Finished(*entry.last))) {
      entries_.erase(it++);
    } else {
      ++it;
    }
  }
  // Then any idle ones, down to three quarters, so this runs seldom.
  const std::size_t target = max_games_ - max_games_ / 4;
  for (auto it = entries_.begin(); it != entries_.end() && entries_.size() > target;) {
    if (idle(it->second)) {
      entries_.erase(it++);
    } else {
      ++it;
    }
  }
}

std::shared_ptr<const std::string> GameSnapshot::SnapshotFrame(
    const std::vector<v1::Color>& colors) const {
  std::string key;
  for (v1::Color color : colors) key.push_back(static_cast<char>('0' + color));
  absl::MutexLock lock(&frames_mu_);
  std::shared_ptr<const std::string>& frame = snapshot_frames_[key];
  if (frame == nullptr) {
    if (!snapshot_parts_.has_value()) {
      // The timer's serverTime is when the first socket's frame is printed.
      snapshot_parts_ = PrintSnapshotParts(
          *view, TableClockView(view->game, clock ? &*clock : nullptr, absl::Now()));
    }
    frame = std::make_shared<const std::string>(TableSnapshotJson(*view, *snapshot_parts_, colors));
  }
  return frame;
}

GameSnapshotCache::Reader GameAndClockReader(GameBackend* games, ClockBackend* clock) {
  return [games, clock](const std::string& game_id, int64_t min_version,
                        GameSnapshotCache::Done done) {
    games->GetViewAsync(
        game_id, min_version,
        [clock, game_id, done = std::move(done)](absl::StatusOr<GameView> view) mutable {
          auto snapshot = std::make_shared<GameSnapshot>();
          snapshot->view = std::move(view);
          if (!snapshot->view.ok() || !NeedsClockRead(snapshot->view->game)) {
            done(std::move(snapshot));
            return;
          }
          clock->GetClockAsync(game_id, [snapshot, done = std::move(done)](
                                            absl::StatusOr<v1::GetClockResponse> got) {
            // The clock away: the frame falls back on game_state's deadline.
            if (got.ok()) snapshot->clock = *std::move(got);
            done(snapshot);
          });
        });
  };
}

}  // namespace draughts::gateway
