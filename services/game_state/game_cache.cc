#include "game_state/game_cache.h"

#include <utility>

#include "game_state/game_replay.h"

namespace draughts::game_state {
namespace {

bool SameGame(const v1::GameState& state, int64_t seconds, int32_t nanos) {
  return state.created_at().seconds() == seconds && state.created_at().nanos() == nanos;
}

// A running digest of the moves (FNV-1a over the texts and separators), so
// an entry remembers a game's history in 8 bytes per move instead of copies
// of the texts.
uint64_t Extend(uint64_t digest, const std::string& move) {
  for (unsigned char c : move) digest = (digest ^ c) * 1099511628211ull;
  return (digest ^ 0xff) * 1099511628211ull;
}

std::vector<uint64_t> PrefixDigests(const v1::GameState& state) {
  std::vector<uint64_t> digests;
  digests.reserve(static_cast<std::size_t>(state.moves_size()) + 1);
  digests.push_back(14695981039346656037ull);
  for (const std::string& move : state.moves()) digests.push_back(Extend(digests.back(), move));
  return digests;
}

}  // namespace

std::shared_ptr<const GameCache::Entry> GameCache::Find(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(game_id);
  if (it == entries_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second.second);
  return it->second.first;
}

absl::StatusOr<rules::GameRecord> GameCache::Replay(const v1::GameState& state) {
  std::shared_ptr<const Entry> entry = capacity_ > 0 ? Find(state.game_id()) : nullptr;
  const std::vector<uint64_t> digests = PrefixDigests(state);
  const std::size_t known = entry != nullptr ? entry->prefix_digests.size() - 1 : 0;
  const bool usable = entry != nullptr &&
                      SameGame(state, entry->created_seconds, entry->created_nanos) &&
                      known < digests.size() && entry->prefix_digests.back() == digests[known];
  if (!usable) {
    absl::StatusOr<rules::GameRecord> record = ReplayGame(state);
    if (record.ok()) Remember(state, *record);
    return record;
  }
  rules::GameRecord record = *entry->record;
  if (known == static_cast<std::size_t>(state.moves_size())) return record;
  if (absl::Status status = ApplyStoredMoves(state, static_cast<int>(known), record);
      !status.ok()) {
    return status;
  }
  return record;
}

void GameCache::Remember(const v1::GameState& state, rules::GameRecord record) {
  if (capacity_ == 0) return;
  auto entry = std::make_shared<Entry>();
  entry->record = std::make_shared<const rules::GameRecord>(std::move(record));
  Store(state, std::move(entry));
}

void GameCache::Remember(std::shared_ptr<const StoredGame> game, rules::GameRecord record) {
  if (capacity_ == 0) return;
  auto entry = std::make_shared<Entry>();
  entry->record = std::make_shared<const rules::GameRecord>(std::move(record));
  const v1::GameState& state = game->state();
  entry->game = std::move(game);
  Store(state, std::move(entry));
}

void GameCache::Store(const v1::GameState& state, std::shared_ptr<Entry> entry) {
  entry->created_seconds = state.created_at().seconds();
  entry->created_nanos = state.created_at().nanos();
  entry->version = state.version();
  entry->prefix_digests = PrefixDigests(state);
  entry->stored_at = absl::Now();
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(state.game_id());
  if (it != entries_.end()) {
    const Entry& old = *it->second.first;
    // Two requests on one game may finish out of order: keep the newer
    // version, and the one that also knows the stored game.
    const bool same_game = SameGame(state, old.created_seconds, old.created_nanos);
    const bool older =
        entry->version < old.version || (entry->version == old.version && entry->game == nullptr);
    if (!same_game || !older) it->second.first = std::move(entry);
    order_.splice(order_.begin(), order_, it->second.second);
    return;
  }
  order_.push_front(state.game_id());
  entries_.emplace(state.game_id(), std::make_pair(std::move(entry), order_.begin()));
  while (entries_.size() > capacity_) {
    entries_.erase(order_.back());
    order_.pop_back();
  }
}

std::optional<GameCache::LastKnown> GameCache::Latest(const std::string& game_id) {
  // Far below the shortest retention (24 hours) after which an id could
  // name a new game.
  constexpr absl::Duration kMaxAge = absl::Hours(1);
  std::shared_ptr<const Entry> entry = capacity_ > 0 ? Find(game_id) : nullptr;
  if (entry == nullptr || entry->game == nullptr || absl::Now() - entry->stored_at > kMaxAge) {
    return std::nullopt;
  }
  return LastKnown{entry->game, entry->record};
}

}  // namespace draughts::game_state
