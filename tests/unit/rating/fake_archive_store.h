// The archive, ratings and history in memory, with the PostgreSQL
// adapter's contract: the first record of a game id is kept, a batch is
// all or nothing, a failure writes nothing. The Elo bookkeeping is the
// service's own (rating_book.h), as in the adapter.
#ifndef DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_
#define DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rating/archive_store.h"
#include "rating/rating_book.h"

namespace draughts::rating::testing {

class FakeArchiveStore final : public ArchiveStore {
 public:
  explicit FakeArchiveStore(EloSettings settings = {}) : settings_(settings) {}

  absl::StatusOr<std::vector<RecordedGame>> Record(const std::vector<v1::ResultRecord>& records,
                                                   absl::Time archived_at) override;
  absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) override;
  absl::StatusOr<std::optional<v1::LeaderboardEntry>> FindRating(const std::string& player_id,
                                                                 const std::string& variant,
                                                                 const std::string& month) override;
  absl::StatusOr<std::vector<v1::LeaderboardEntry>> Leaderboard(
      const std::string& variant, const std::string& month,
      const std::optional<LeaderboardCursor>& after, int limit) override;
  absl::StatusOr<std::vector<v1::HistoryEntry>> History(const std::string& player_id,
                                                        const std::string& variant,
                                                        const std::optional<HistoryCursor>& after,
                                                        int limit) override;

  // Every call fails with `status` until it is set back to OK.
  void FailWith(absl::Status status);
  // Record calls whose batch holds this game id fail with `status`.
  void RefuseGame(const std::string& game_id, absl::Status status);
  size_t size() const;
  int insert_calls() const;

 private:
  // The month's lines, best first.
  std::vector<v1::LeaderboardEntry> Board(const std::string& variant,
                                          const std::string& month) const;

  EloSettings settings_;
  mutable std::mutex mu_;
  absl::Status failure_;
  std::map<std::string, absl::Status> refused_;
  std::map<std::string, ArchivedRecord> games_;
  std::map<std::string, std::vector<v1::RatingChange>> changes_;
  std::map<RatingKey, BookEntry> book_;
  std::vector<HistoryRow> history_;
  int insert_calls_ = 0;
};

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_
