#include "game_state/game_replay.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/variant_config.h"
#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::game_state {
namespace {

absl::Status Corrupt(const v1::GameState& state, const std::string& what) {
  return absl::InternalError(
      absl::StrCat("stored game ", state.game_id(), " does not replay: ", what));
}

absl::Status ApplyMoves(const v1::GameState& state, int from, rules::GameRecord& record) {
  for (int i = from; i < state.moves_size(); ++i) {
    const std::string& notation = state.moves(i);
    rules::Result<rules::MoveText> text = rules::ParseMoveText(notation);
    if (!text.ok())
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", text.error().ToString()));
    rules::Result<rules::Move> move =
        rules::MatchMove(record.variant().board, record.legal_moves(), *text);
    if (!move.ok())
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", move.error().ToString()));
    if (std::optional<rules::Error> error = record.Apply(*move)) {
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", error->ToString()));
    }
  }
  return absl::OkStatus();
}

bool SameGame(const v1::GameState& state, int64_t seconds, int32_t nanos) {
  return state.created_at().seconds() == seconds && state.created_at().nanos() == nanos;
}

}  // namespace

absl::StatusOr<rules::GameRecord> ReplayGame(const v1::GameState& state) {
  absl::StatusOr<rules::Variant> variant = ConfigureVariant(state.variant(), state.options());
  if (!variant.ok()) return Corrupt(state, std::string(variant.status().message()));
  rules::Result<rules::Position> start = rules::ParseFen(*variant, state.initial_fen());
  if (!start.ok()) return Corrupt(state, "initial FEN: " + start.error().ToString());
  rules::GameRecord record(*variant, *start);
  if (absl::Status status = ApplyMoves(state, 0, record); !status.ok()) return status;
  return record;
}

std::shared_ptr<const ReplayCache::Entry> ReplayCache::Find(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(game_id);
  if (it == entries_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second.second);
  return it->second.first;
}

absl::StatusOr<rules::GameRecord> ReplayCache::Replay(const v1::GameState& state) {
  std::shared_ptr<const Entry> entry = capacity_ > 0 ? Find(state.game_id()) : nullptr;
  bool usable = entry != nullptr && SameGame(state, entry->created_seconds, entry->created_nanos) &&
                static_cast<int>(entry->moves.size()) <= state.moves_size();
  for (std::size_t i = 0; usable && i < entry->moves.size(); ++i) {
    usable = entry->moves[i] == state.moves(static_cast<int>(i));
  }
  if (!usable) {
    absl::StatusOr<rules::GameRecord> record = ReplayGame(state);
    if (record.ok()) Remember(state, *record);
    return record;
  }
  rules::GameRecord record = *entry->record;
  if (static_cast<int>(entry->moves.size()) == state.moves_size()) return record;
  if (absl::Status status = ApplyMoves(state, static_cast<int>(entry->moves.size()), record);
      !status.ok()) {
    return status;
  }
  Remember(state, record);
  return record;
}

void ReplayCache::Remember(const v1::GameState& state, const rules::GameRecord& record) {
  if (capacity_ == 0) return;
  auto entry = std::make_shared<Entry>();
  entry->created_seconds = state.created_at().seconds();
  entry->created_nanos = state.created_at().nanos();
  entry->moves.assign(state.moves().begin(), state.moves().end());
  entry->record = std::make_shared<const rules::GameRecord>(record);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(state.game_id());
  if (it != entries_.end()) {
    it->second.first = std::move(entry);
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

}  // namespace draughts::game_state
