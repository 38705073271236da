#include "fake_archive_store.h"

#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <algorithm>
#include <tuple>

namespace draughts::rating::testing {
namespace {

using google::protobuf::util::TimeUtil;

bool Better(const v1::Rating& a, const v1::Rating& b) {
  return std::make_tuple(-a.elo(), -a.games(), a.player_id()) <
         std::make_tuple(-b.elo(), -b.games(), b.player_id());
}

}  // namespace

absl::StatusOr<std::vector<RecordedGame>> FakeArchiveStore::Record(
    const std::vector<v1::ResultRecord>& records, absl::Time archived_at) {
  std::lock_guard<std::mutex> lock(mu_);
  insert_calls_ += static_cast<int>(records.size());
  if (!failure_.ok()) return failure_;
  for (const v1::ResultRecord& record : records) {
    auto refused = refused_.find(record.game_id());
    if (refused != refused_.end()) return refused->second;
  }
  // Work on copies: a batch is all or nothing.
  auto games = games_;
  auto changes_by_game = changes_;
  auto book = book_;
  auto history = history_;
  std::vector<RecordedGame> recorded(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const v1::ResultRecord& record = records[i];
    auto [it, inserted] = games.try_emplace(record.game_id(), ArchivedRecord{record, archived_at});
    RecordedGame& game = recorded[i];
    if (!inserted) {
      const bool same =
          google::protobuf::util::MessageDifferencer::Equals(it->second.record, record);
      game.kind = same ? RecordedGame::Kind::kDuplicate : RecordedGame::Kind::kConflict;
      if (same) {
        game.changes = changes_by_game[record.game_id()];
        game.elo_changed = !game.changes.empty();
      }
      continue;
    }
    std::vector<std::vector<v1::RatingChange>> changes =
        ApplyGames({&record}, settings_, book, history);
    game.kind = RecordedGame::Kind::kNew;
    game.changes = changes.front();
    game.elo_changed = !game.changes.empty();
    changes_by_game[record.game_id()] = game.changes;
  }
  games_ = std::move(games);
  changes_ = std::move(changes_by_game);
  book_ = std::move(book);
  history_ = std::move(history);
  return recorded;
}

absl::StatusOr<std::optional<ArchivedRecord>> FakeArchiveStore::Find(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  auto it = games_.find(game_id);
  if (it == games_.end()) return std::optional<ArchivedRecord>();
  return std::optional<ArchivedRecord>(it->second);
}

std::vector<v1::LeaderboardEntry> FakeArchiveStore::Board(const std::string& variant,
                                                          const std::string& month) const {
  std::vector<v1::Rating> ratings;
  for (const auto& [key, entry] : book_) {
    if (key.variant != variant || key.month != month) continue;
    v1::Rating& rating = ratings.emplace_back();
    rating.set_player_id(key.player_id);
    rating.set_display_name(entry.display_name);
    rating.set_variant(variant);
    rating.set_month(month);
    rating.set_elo(entry.standing.elo);
    rating.set_games(entry.standing.games);
    rating.set_wins(entry.standing.wins);
    rating.set_draws(entry.standing.draws);
    rating.set_losses(entry.standing.losses);
  }
  std::sort(ratings.begin(), ratings.end(), Better);
  std::vector<v1::LeaderboardEntry> board;
  for (size_t i = 0; i < ratings.size(); ++i) {
    v1::LeaderboardEntry& entry = board.emplace_back();
    entry.set_rank(static_cast<int>(i) + 1);
    *entry.mutable_rating() = ratings[i];
  }
  return board;
}

absl::StatusOr<std::optional<v1::LeaderboardEntry>> FakeArchiveStore::FindRating(
    const std::string& player_id, const std::string& variant, const std::string& month) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  for (v1::LeaderboardEntry& entry : Board(variant, month)) {
    if (entry.rating().player_id() == player_id) {
      return std::optional<v1::LeaderboardEntry>(std::move(entry));
    }
  }
  return std::optional<v1::LeaderboardEntry>();
}

absl::StatusOr<std::vector<v1::LeaderboardEntry>> FakeArchiveStore::Leaderboard(
    const std::string& variant, const std::string& month,
    const std::optional<LeaderboardCursor>& after, int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  std::vector<v1::LeaderboardEntry> page;
  int rank = after.has_value() ? after->rank : 0;
  for (v1::LeaderboardEntry& entry : Board(variant, month)) {
    if (after.has_value()) {
      v1::Rating cursor;
      cursor.set_elo(after->elo);
      cursor.set_games(after->games);
      cursor.set_player_id(after->player_id);
      if (!Better(cursor, entry.rating())) continue;
    }
    if (static_cast<int>(page.size()) == limit) break;
    entry.set_rank(++rank);
    page.push_back(std::move(entry));
  }
  return page;
}

absl::StatusOr<std::vector<v1::HistoryEntry>> FakeArchiveStore::History(
    const std::string& player_id, const std::string& variant,
    const std::optional<HistoryCursor>& after, int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  auto key = [](const v1::HistoryEntry& e) {
    return std::make_tuple(TimeUtil::TimestampToMicroseconds(e.finished_at()), e.game_id());
  };
  std::vector<v1::HistoryEntry> rows;
  for (const HistoryRow& row : history_) {
    if (row.player_id != player_id) continue;
    if (!variant.empty() && row.entry.variant() != variant) continue;
    if (after.has_value() &&
        !(key(row.entry) < std::make_tuple(after->finished_at_micros, after->game_id))) {
      continue;
    }
    rows.push_back(row.entry);
  }
  std::sort(rows.begin(), rows.end(),
            [&](const v1::HistoryEntry& a, const v1::HistoryEntry& b) { return key(b) < key(a); });
  if (static_cast<int>(rows.size()) > limit) rows.resize(limit);
  return rows;
}

void FakeArchiveStore::FailWith(absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  failure_ = std::move(status);
}

void FakeArchiveStore::RefuseGame(const std::string& game_id, absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  refused_[game_id] = std::move(status);
}

size_t FakeArchiveStore::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return games_.size();
}

int FakeArchiveStore::insert_calls() const {
  std::lock_guard<std::mutex> lock(mu_);
  return insert_calls_;
}

}  // namespace draughts::rating::testing
