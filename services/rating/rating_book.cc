#include "rating/rating_book.h"

#include <google/protobuf/util/time_util.h>

#include <set>

#include "rating/result_rules.h"

namespace draughts::rating {
namespace {

v1::Outcome OutcomeFor(v1::GameResult result, v1::Color side) {
  const double score = Score(result, side);
  if (score > 0.75) return v1::OUTCOME_WIN;
  if (score < 0.25) return v1::OUTCOME_LOSS;
  return v1::OUTCOME_DRAW;
}

v1::RatingChange Change(const std::string& player_id, v1::Color color, const std::string& month,
                        int before, int after) {
  v1::RatingChange change;
  change.set_player_id(player_id);
  change.set_color(color);
  change.set_month(month);
  change.set_elo_before(before);
  change.set_elo_after(after);
  return change;
}

void AddHistory(const v1::ResultRecord& record, v1::Color color, const v1::RatingChange* change,
                std::vector<HistoryRow>& history) {
  const bool white = color == v1::COLOR_WHITE;
  const v1::Seat& seat = white ? record.white() : record.black();
  if (seat.kind() != v1::SEAT_KIND_PERSON) return;
  HistoryRow row;
  row.player_id = seat.player_id();
  v1::HistoryEntry& entry = row.entry;
  entry.set_game_id(record.game_id());
  entry.set_variant(record.variant());
  *entry.mutable_finished_at() = record.finished_at();
  entry.set_color(color);
  entry.set_outcome(OutcomeFor(record.result(), color));
  entry.set_reason(record.reason());
  *entry.mutable_opponent() = white ? record.black() : record.white();
  if (change != nullptr) {
    entry.set_elo_changed(true);
    entry.set_elo_before(change->elo_before());
    entry.set_elo_after(change->elo_after());
  }
  history.push_back(std::move(row));
}

}  // namespace

std::string MonthOfRecord(const v1::ResultRecord& record) {
  return MonthOf(google::protobuf::util::TimeUtil::TimestampToMicroseconds(record.finished_at()));
}

std::vector<RatingKey> KeysTouched(const std::vector<const v1::ResultRecord*>& records) {
  std::set<RatingKey> keys;
  for (const v1::ResultRecord* record : records) {
    if (!ChangesElo(*record)) continue;
    const std::string month = MonthOfRecord(*record);
    keys.insert({record->variant(), month, record->white().player_id()});
    keys.insert({record->variant(), month, record->black().player_id()});
  }
  return {keys.begin(), keys.end()};
}

std::vector<std::vector<v1::RatingChange>> ApplyGames(
    const std::vector<const v1::ResultRecord*>& records, const EloSettings& settings,
    std::map<RatingKey, BookEntry>& book, std::vector<HistoryRow>& history) {
  std::vector<std::vector<v1::RatingChange>> changes(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const v1::ResultRecord& record = *records[i];
    if (ChangesElo(record)) {
      const std::string month = MonthOfRecord(record);
      auto entry = [&](const v1::Seat& seat) -> BookEntry& {
        auto [it, added] = book.try_emplace(RatingKey{record.variant(), month, seat.player_id()});
        if (added) it->second.standing.elo = settings.initial;
        it->second.display_name = seat.display_name();
        it->second.dirty = true;
        return it->second;
      };
      BookEntry& white = entry(record.white());
      BookEntry& black = entry(record.black());
      const Standing white_before = white.standing;
      const Standing black_before = black.standing;
      white.standing =
          AfterGame(white_before, black_before.elo, Score(record.result(), v1::COLOR_WHITE));
      black.standing =
          AfterGame(black_before, white_before.elo, Score(record.result(), v1::COLOR_BLACK));
      changes[i].push_back(Change(record.white().player_id(), v1::COLOR_WHITE, month,
                                  white_before.elo, white.standing.elo));
      changes[i].push_back(Change(record.black().player_id(), v1::COLOR_BLACK, month,
                                  black_before.elo, black.standing.elo));
    }
    const bool changed = !changes[i].empty();
    AddHistory(record, v1::COLOR_WHITE, changed ? &changes[i][0] : nullptr, history);
    AddHistory(record, v1::COLOR_BLACK, changed ? &changes[i][1] : nullptr, history);
  }
  return changes;
}

}  // namespace draughts::rating
