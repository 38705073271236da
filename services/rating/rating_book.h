// The bookkeeping both stores share when they record games: the standings
// a batch of new games touches, the Elo changes applied in order, and the
// history rows they leave. Pure: the store loads the standings (locked)
// and writes back what this computes.
#ifndef DRAUGHTS_RATING_RATING_BOOK_H_
#define DRAUGHTS_RATING_RATING_BOOK_H_

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "draughts/v1/events.pb.h"
#include "draughts/v1/rating.pb.h"
#include "rating/elo.h"

namespace draughts::rating {

// One player's rating row: a rule set and a month.
struct RatingKey {
  std::string variant;
  std::string month;
  std::string player_id;

  friend bool operator<(const RatingKey& a, const RatingKey& b) {
    return std::tie(a.variant, a.month, a.player_id) < std::tie(b.variant, b.month, b.player_id);
  }
};

struct BookEntry {
  Standing standing;
  std::string display_name;
  // Changed by this batch: to be written back.
  bool dirty = false;
};

// A player's history line for one game.
struct HistoryRow {
  std::string player_id;
  v1::HistoryEntry entry;
};

// The month of a record's finished_at.
std::string MonthOfRecord(const v1::ResultRecord& record);

// The rating rows the games that change Elo among `records` touch, sorted
// (lock them in this order: two batches then never wait on each other in a
// cycle).
std::vector<RatingKey> KeysTouched(const std::vector<const v1::ResultRecord*>& records);

// Applies `records` in order: for each that changes Elo, both standings
// (missing ones start at settings.initial) move by AfterGame and are marked
// dirty, and the result holds White's and Black's changes. `book` must hold
// what the store has for every key KeysTouched returns. Appends the history
// rows of every PERSON seat to `history`.
std::vector<std::vector<v1::RatingChange>> ApplyGames(
    const std::vector<const v1::ResultRecord*>& records, const EloSettings& settings,
    std::map<RatingKey, BookEntry>& book, std::vector<HistoryRow>& history);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RATING_BOOK_H_
