// The read side of PgArchiveStore: a player's rating and rank, leaderboard
// pages and history pages, each one statement over its index
// (migrations/0002_create_ratings.sql).
#include <google/protobuf/util/time_util.h>

#include <pqxx/binarystring>
#include <pqxx/result>
#include <pqxx/transaction_base>

#include "rating/pg_archive_store.h"

namespace draughts::rating {
namespace {

using google::protobuf::util::TimeUtil;

// The rank is the number of lines before the player's, plus one; the
// leaderboard index serves the count.
constexpr const char* kFindRatingSql = R"sql(
SELECT r.display_name, r.elo, r.games, r.wins, r.draws, r.losses,
  1 + (SELECT count(*) FROM ratings o
       WHERE o.variant = r.variant AND o.month = r.month
         AND (o.elo > r.elo OR (o.elo = r.elo AND (o.games > r.games
              OR (o.games = r.games AND o.player_id < r.player_id)))))
FROM ratings r WHERE r.variant = $1 AND r.month = $2 AND r.player_id = $3)sql";

constexpr const char* kLeaderboardSql = R"sql(
SELECT player_id, display_name, elo, games, wins, draws, losses
FROM ratings
WHERE variant = $1 AND month = $2
  AND (NOT $3::boolean OR elo < $4 OR (elo = $4 AND (games < $5
       OR (games = $5 AND player_id > $6))))
ORDER BY elo DESC, games DESC, player_id
LIMIT $7)sql";

constexpr const char* kHistorySql = R"sql(
SELECT game_id, variant, (extract(epoch FROM finished_at) * 1000000)::bigint, color, outcome,
  reason, opponent, elo_changed, elo_before, elo_after
FROM rating_history
WHERE player_id = $1 AND ($2 = '' OR variant = $2)
  AND (NOT $3::boolean
       OR (finished_at, game_id) < ('epoch'::timestamptz + $4::bigint * interval '1 microsecond', $5))
ORDER BY finished_at DESC, game_id DESC
LIMIT $6)sql";

v1::Rating RatingOf(const pqxx::row& row, int first, const std::string& player_id,
                    const std::string& variant, const std::string& month) {
  v1::Rating rating;
  rating.set_player_id(player_id);
  rating.set_display_name(row[first].c_str());
  rating.set_variant(variant);
  rating.set_month(month);
  rating.set_elo(row[first + 1].as<int>());
  rating.set_games(row[first + 2].as<int>());
  rating.set_wins(row[first + 3].as<int>());
  rating.set_draws(row[first + 4].as<int>());
  rating.set_losses(row[first + 5].as<int>());
  return rating;
}

}  // namespace

absl::StatusOr<std::optional<v1::LeaderboardEntry>> PgArchiveStore::FindRating(
    const std::string& player_id, const std::string& variant, const std::string& month) {
  const absl::Time started = absl::Now();
  return Observed(
      "find_rating", started,
      pool_->WithTransactionResult<std::optional<v1::LeaderboardEntry>>(
          [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::optional<v1::LeaderboardEntry>> {
            const pqxx::result rows = tx.exec_params(kFindRatingSql, variant, month, player_id);
            if (rows.empty()) return std::optional<v1::LeaderboardEntry>();
            v1::LeaderboardEntry entry;
            *entry.mutable_rating() = RatingOf(rows[0], 0, player_id, variant, month);
            entry.set_rank(rows[0][6].as<int>());
            return std::optional<v1::LeaderboardEntry>(std::move(entry));
          }));
}

absl::StatusOr<std::vector<v1::LeaderboardEntry>> PgArchiveStore::Leaderboard(
    const std::string& variant, const std::string& month,
    const std::optional<LeaderboardCursor>& after, int limit) {
  const absl::Time started = absl::Now();
  const LeaderboardCursor cursor = after.value_or(LeaderboardCursor{});
  return Observed(
      "leaderboard", started,
      pool_->WithTransactionResult<std::vector<v1::LeaderboardEntry>>(
          [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<v1::LeaderboardEntry>> {
            std::vector<v1::LeaderboardEntry> entries;
            int rank = cursor.rank;
            for (const pqxx::row& row :
                 tx.exec_params(kLeaderboardSql, variant, month, after.has_value(), cursor.elo,
                                cursor.games, cursor.player_id, limit)) {
              v1::LeaderboardEntry& entry = entries.emplace_back();
              entry.set_rank(++rank);
              *entry.mutable_rating() = RatingOf(row, 1, row[0].c_str(), variant, month);
            }
            return entries;
          }));
}

absl::StatusOr<std::vector<v1::HistoryEntry>> PgArchiveStore::History(
    const std::string& player_id, const std::string& variant,
    const std::optional<HistoryCursor>& after, int limit) {
  const absl::Time started = absl::Now();
  const HistoryCursor cursor = after.value_or(HistoryCursor{});
  return Observed(
      "history", started,
      pool_->WithTransactionResult<std::vector<v1::HistoryEntry>>(
          [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<v1::HistoryEntry>> {
            std::vector<v1::HistoryEntry> entries;
            for (const pqxx::row& row :
                 tx.exec_params(kHistorySql, player_id, variant, after.has_value(),
                                cursor.finished_at_micros, cursor.game_id, limit)) {
              v1::HistoryEntry& entry = entries.emplace_back();
              entry.set_game_id(row[0].c_str());
              entry.set_variant(row[1].c_str());
              *entry.mutable_finished_at() =
                  TimeUtil::MicrosecondsToTimestamp(row[2].as<int64_t>());
              v1::Color color = v1::COLOR_UNSPECIFIED;
              v1::Color_Parse(row[3].c_str(), &color);
              entry.set_color(color);
              v1::Outcome outcome = v1::OUTCOME_UNSPECIFIED;
              v1::Outcome_Parse(row[4].c_str(), &outcome);
              entry.set_outcome(outcome);
              v1::ResultReason reason = v1::RESULT_REASON_UNSPECIFIED;
              v1::ResultReason_Parse(row[5].c_str(), &reason);
              entry.set_reason(reason);
              const pqxx::binarystring opponent(row[6]);
              if (!entry.mutable_opponent()->ParseFromArray(opponent.data(),
                                                            static_cast<int>(opponent.size()))) {
                return absl::DataLossError("rating_history.opponent is not a Seat");
              }
              entry.set_elo_changed(row[7].as<bool>());
              entry.set_elo_before(row[8].as<int>());
              entry.set_elo_after(row[9].as<int>());
            }
            return entries;
          }));
}

}  // namespace draughts::rating
