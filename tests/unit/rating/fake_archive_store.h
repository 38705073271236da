// The archive in memory, with the PostgreSQL adapter's contract: the first
// record of a game id is kept, a failure writes nothing.
#ifndef DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_
#define DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_

#include <map>
#include <mutex>
#include <string>

#include "rating/archive_store.h"

namespace draughts::rating::testing {

class FakeArchiveStore final : public ArchiveStore {
 public:
  absl::StatusOr<InsertResult> Insert(const v1::ResultRecord& record,
                                      absl::Time archived_at) override;
  absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) override;

  // Every call fails with `status` until it is set back to OK.
  void FailWith(absl::Status status);
  size_t size() const;
  int insert_calls() const;

 private:
  mutable std::mutex mu_;
  absl::Status failure_;
  std::map<std::string, ArchivedRecord> games_;
  int insert_calls_ = 0;
};

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_UNIT_RATING_FAKE_ARCHIVE_STORE_H_
