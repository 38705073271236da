#include "fake_result_source.h"

#include "absl/strings/str_format.h"

namespace draughts::rating::testing {

std::string FakeStream::Add(std::optional<std::string> data, const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  // Zero-padded so that ids sort like Redis's.
  ResultEntry entry{absl::StrFormat("%013d-0", entries_.size() + 1), std::move(data), game_id};
  entries_.push_back(entry);
  return entry.id;
}

void FakeStream::Delete(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  for (ResultEntry& entry : entries_) {
    if (entry.id == id) {
      entry.data.reset();
      entry.game_id.clear();
    }
  }
}

void FakeStream::FailWith(absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  failure_ = std::move(status);
}

std::vector<std::string> FakeStream::Pending(const std::string& consumer) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> ids;
  for (const auto& [id, pending] : pending_) {
    if (consumer.empty() || pending.consumer == consumer) ids.push_back(id);
  }
  return ids;
}

int FakeStream::Deliveries(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = deliveries_.find(id);
  return it == deliveries_.end() ? 0 : it->second;
}

int64_t FakeStream::Undelivered() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(entries_.size() - next_undelivered_);
}

const ResultEntry* FakeResultSource::Find(const std::string& id) const {
  for (const ResultEntry& entry : stream_->entries_) {
    if (entry.id == id) return &entry;
  }
  return nullptr;
}

absl::Status FakeResultSource::CreateGroup() {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  if (!stream_->group_created_) {
    stream_->group_created_ = true;
    stream_->next_undelivered_ = stream_->entries_.size();  // "$"
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ResultEntry>> FakeResultSource::ReadPending(const std::string& after_id,
                                                                       int count) {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  if (!stream_->group_created_) return absl::InternalError("NOGROUP");
  std::vector<ResultEntry> out;
  for (auto& [id, pending] : stream_->pending_) {
    if (static_cast<int>(out.size()) >= count) break;
    if (pending.consumer != consumer_ || (after_id != "0" && id <= after_id)) continue;
    ++pending.deliveries;
    ++stream_->deliveries_[id];
    out.push_back(*Find(id));
  }
  return out;
}

absl::StatusOr<std::vector<ResultEntry>> FakeResultSource::ReadNew(int count, absl::Duration) {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  if (!stream_->group_created_) return absl::InternalError("NOGROUP");
  std::vector<ResultEntry> out;
  while (static_cast<int>(out.size()) < count &&
         stream_->next_undelivered_ < stream_->entries_.size()) {
    const ResultEntry& entry = stream_->entries_[stream_->next_undelivered_++];
    stream_->pending_[entry.id] = {consumer_, *stream_->now_, 1};
    ++stream_->deliveries_[entry.id];
    out.push_back(entry);
  }
  return out;
}

absl::StatusOr<ClaimedEntries> FakeResultSource::ClaimIdle(const std::string& cursor,
                                                           absl::Duration min_idle, int count) {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  if (!stream_->group_created_) return absl::InternalError("NOGROUP");
  ClaimedEntries claimed;
  auto it = cursor == "0-0" ? stream_->pending_.begin() : stream_->pending_.lower_bound(cursor);
  while (it != stream_->pending_.end()) {
    if (static_cast<int>(claimed.entries.size()) >= count) {
      claimed.next_cursor = it->first;
      return claimed;
    }
    const ResultEntry* entry = Find(it->first);
    if (!entry->data.has_value()) {
      claimed.entries.push_back(*entry);
      it = stream_->pending_.erase(it);
      continue;
    }
    if (*stream_->now_ - it->second.delivered_at < min_idle) {
      ++it;
      continue;
    }
    it->second = {consumer_, *stream_->now_, it->second.deliveries + 1};
    ++stream_->deliveries_[it->first];
    claimed.entries.push_back(*entry);
    ++it;
  }
  claimed.next_cursor = "0-0";
  return claimed;
}

absl::Status FakeResultSource::Ack(const std::vector<std::string>& ids) {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  for (const std::string& id : ids) stream_->pending_.erase(id);
  return absl::OkStatus();
}

absl::StatusOr<GroupBacklog> FakeResultSource::Backlog() {
  std::lock_guard<std::mutex> lock(stream_->mu_);
  if (!stream_->failure_.ok()) return stream_->failure_;
  return GroupBacklog{static_cast<int64_t>(stream_->pending_.size()),
                      static_cast<int64_t>(stream_->entries_.size() - stream_->next_undelivered_)};
}

}  // namespace draughts::rating::testing
