#include "gateway/rating_changes.h"

#include "absl/time/time.h"

namespace draughts::gateway {

absl::StatusOr<std::optional<v1::HistoryEntry>> FindHistoryEntry(RatingBackend& ratings,
                                                                 const std::string& player_id,
                                                                 const std::string& variant,
                                                                 const std::string& game_id,
                                                                 int pages) {
  v1::GetHistoryRequest ask;
  ask.set_player_id(player_id);
  ask.set_variant(variant);
  ask.set_page_size(100);
  for (int page = 0; page < pages; ++page) {
    absl::StatusOr<v1::GetHistoryResponse> history = ratings.GetHistory(ask);
    if (!history.ok()) return history.status();
    for (const v1::HistoryEntry& entry : history->entries()) {
      if (entry.game_id() == game_id) return entry;
    }
    if (history->next_page_token().empty()) break;
    ask.set_page_token(history->next_page_token());
  }
  return std::nullopt;
}

v1::RatingChange RatingChangeOf(const v1::HistoryEntry& entry, const std::string& player_id,
                                v1::Color color) {
  v1::RatingChange change;
  change.set_player_id(player_id);
  change.set_color(color);
  change.set_month(absl::FormatTime("%Y-%m", absl::FromUnixSeconds(entry.finished_at().seconds()),
                                    absl::UTCTimeZone()));
  change.set_elo_before(entry.elo_before());
  change.set_elo_after(entry.elo_after());
  return change;
}

}  // namespace draughts::gateway
