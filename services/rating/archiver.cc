#include "rating/archiver.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"

namespace draughts::rating {
namespace {

// Codes after which the same write can succeed later (the store came back,
// a lock was released); the others say the data itself is refused.
bool IsTransient(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kDataLoss:  // a stored row that cannot be read back
      return false;
    default:
      return true;
  }
}

}  // namespace

Archiver::Archiver(ArchiveStore* store, ArchiveMetrics* metrics, std::function<absl::Time()> now)
    : store_(store), metrics_(metrics), now_(std::move(now)) {
  if (!now_) now_ = [] { return absl::Now(); };
}

HandledEntry Archiver::Malformed(const ResultEntry& entry, const std::string& reason,
                                 absl::Status status) {
  platform::LogWarn(
      "results entry dropped: not archived",
      {{"entry", entry.id}, {"game", entry.game_id}, {"reason", reason}, {"status", status}});
  if (metrics_ != nullptr) metrics_->Malformed(reason);
  return {EntryOutcome::kMalformed, std::move(status)};
}

HandledEntry Archiver::Handle(const ResultEntry& entry) {
  return HandleBatch({entry}).front();
}

std::vector<HandledEntry> Archiver::HandleBatch(const std::vector<ResultEntry>& entries) {
  std::vector<HandledEntry> handled(entries.size());
  std::vector<v1::ResultRecord> records;
  std::vector<size_t> index;
  for (size_t i = 0; i < entries.size(); ++i) {
    const ResultEntry& entry = entries[i];
    if (!entry.data.has_value()) {
      handled[i] = Malformed(entry, "no_data",
                             absl::InvalidArgumentError("entry has no data field (deleted or "
                                                        "foreign)"));
      continue;
    }
    v1::ResultRecord record;
    if (!record.ParseFromString(*entry.data)) {
      handled[i] = Malformed(entry, "unparsable",
                             absl::InvalidArgumentError("data is not a serialized ResultRecord"));
      continue;
    }
    if (absl::Status checked = CheckFinishedRecord(record); !checked.ok()) {
      handled[i] = Malformed(entry, "not_finished", std::move(checked));
      continue;
    }
    if (absl::Status checked = CheckCompleteRecord(record); !checked.ok()) {
      handled[i] = Malformed(entry, "incomplete", std::move(checked));
      continue;
    }
    if (!entry.game_id.empty() && entry.game_id != record.game_id()) {
      // The record is self-consistent; the entry's label is only a hint.
      platform::LogWarn(
          "results entry game_id differs from its record's; archiving the record's",
          {{"entry", entry.id}, {"field", entry.game_id}, {"record", record.game_id()}});
    }
    records.push_back(std::move(record));
    index.push_back(i);
  }
  if (!records.empty()) Record(entries, index, records, handled);
  return handled;
}

void Archiver::Record(const std::vector<ResultEntry>& entries, const std::vector<size_t>& index,
                      const std::vector<v1::ResultRecord>& records,
                      std::vector<HandledEntry>& handled) {
  absl::StatusOr<std::vector<RecordedGame>> recorded = store_->Record(records, now_());
  if (recorded.ok()) {
    for (size_t r = 0; r < records.size(); ++r) {
      handled[index[r]] = Recorded(entries[index[r]], records[r], (*recorded)[r]);
    }
    return;
  }
  if (IsTransient(recorded.status())) {
    if (metrics_ != nullptr) metrics_->StoreFailure();
    for (size_t i : index) handled[i] = {EntryOutcome::kRetry, recorded.status()};
    return;
  }
  if (records.size() == 1) {
    handled[index[0]] = Malformed(entries[index[0]], "refused_by_store", recorded.status());
    return;
  }
  // One entry spoils the batch: record them one by one so only it is dropped.
  for (size_t r = 0; r < records.size(); ++r) {
    Record(entries, {index[r]}, {records[r]}, handled);
  }
}

HandledEntry Archiver::Recorded(const ResultEntry& entry, const v1::ResultRecord& record,
                                const RecordedGame& game) {
  switch (game.kind) {
    case RecordedGame::Kind::kNew:
      if (metrics_ != nullptr) {
        metrics_->Archived();
        metrics_->ResultApplied(game.elo_changed);
        metrics_->RatingUpdates(static_cast<int64_t>(game.changes.size()));
      }
      platform::LogDebug(
          "game recorded",
          {{"game", record.game_id()}, {"entry", entry.id}, {"elo_changed", game.elo_changed}});
      return {EntryOutcome::kArchived, absl::OkStatus()};
    case RecordedGame::Kind::kDuplicate:
      if (metrics_ != nullptr) {
        metrics_->Duplicate();
        metrics_->DuplicateSkipped();
      }
      return {EntryOutcome::kDuplicate, absl::OkStatus()};
    case RecordedGame::Kind::kConflict:
      break;
  }
  platform::LogWarn("a different record for a game already archived: kept the first",
                    {{"game", record.game_id()}, {"entry", entry.id}});
  if (metrics_ != nullptr) metrics_->Conflict();
  return {EntryOutcome::kConflict, absl::OkStatus()};
}

}  // namespace draughts::rating
