#include "fake_archive_store.h"

namespace draughts::rating::testing {

absl::StatusOr<InsertResult> FakeArchiveStore::Insert(const v1::ResultRecord& record,
                                                      absl::Time archived_at) {
  std::lock_guard<std::mutex> lock(mu_);
  ++insert_calls_;
  if (!failure_.ok()) return failure_;
  InsertResult result;
  auto [it, inserted] = games_.try_emplace(record.game_id(), ArchivedRecord{record, archived_at});
  result.inserted = inserted;
  if (!inserted) result.existing = it->second;
  return result;
}

absl::StatusOr<std::optional<ArchivedRecord>> FakeArchiveStore::Find(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure_.ok()) return failure_;
  auto it = games_.find(game_id);
  if (it == games_.end()) return std::optional<ArchivedRecord>();
  return std::optional<ArchivedRecord>(it->second);
}

void FakeArchiveStore::FailWith(absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  failure_ = std::move(status);
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
