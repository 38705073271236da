#include "rating/archiver.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/message_differencer.h"
#include "platform/logging.h"

namespace draughts::rating {
namespace {

bool IsFinished(v1::GameResult result) {
  return result == v1::GAME_RESULT_WHITE_WINS || result == v1::GAME_RESULT_BLACK_WINS ||
         result == v1::GAME_RESULT_DRAW;
}

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

absl::Status CheckFinishedRecord(const v1::ResultRecord& record) {
  if (record.game_id().empty()) return absl::InvalidArgumentError("record has no game_id");
  if (!IsFinished(record.result())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", record.game_id(), " is not finished (result ",
        v1::GameResult_Name(record.result()).empty() ? absl::StrCat(record.result())
                                                     : v1::GameResult_Name(record.result()),
        ")"));
  }
  if (record.variant().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("game ", record.game_id(), " has no variant"));
  }
  return absl::OkStatus();
}

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
  if (!entry.data.has_value()) {
    return Malformed(entry, "no_data",
                     absl::InvalidArgumentError("entry has no data field (deleted or foreign)"));
  }
  v1::ResultRecord record;
  if (!record.ParseFromString(*entry.data)) {
    return Malformed(entry, "unparsable",
                     absl::InvalidArgumentError("data is not a serialized ResultRecord"));
  }
  if (absl::Status checked = CheckFinishedRecord(record); !checked.ok()) {
    return Malformed(entry, "not_finished", std::move(checked));
  }
  if (!entry.game_id.empty() && entry.game_id != record.game_id()) {
    // The record is self-consistent; the entry's label is only a hint.
    platform::LogWarn(
        "results entry game_id differs from its record's; archiving the record's",
        {{"entry", entry.id}, {"field", entry.game_id}, {"record", record.game_id()}});
  }

  absl::StatusOr<InsertResult> inserted = store_->Insert(record, now_());
  if (!inserted.ok()) {
    if (!IsTransient(inserted.status())) {
      return Malformed(entry, "refused_by_store", inserted.status());
    }
    if (metrics_ != nullptr) metrics_->StoreFailure();
    return {EntryOutcome::kRetry, inserted.status()};
  }
  if (inserted->inserted) {
    if (metrics_ != nullptr) metrics_->Archived();
    platform::LogDebug("game archived", {{"game", record.game_id()}, {"entry", entry.id}});
    return {EntryOutcome::kArchived, absl::OkStatus()};
  }
  if (inserted->existing.has_value() &&
      google::protobuf::util::MessageDifferencer::Equals(inserted->existing->record, record)) {
    if (metrics_ != nullptr) metrics_->Duplicate();
    return {EntryOutcome::kDuplicate, absl::OkStatus()};
  }
  platform::LogWarn("a different record for a game already archived: kept the first",
                    {{"game", record.game_id()}, {"entry", entry.id}});
  if (metrics_ != nullptr) metrics_->Conflict();
  return {EntryOutcome::kConflict, absl::OkStatus()};
}

}  // namespace draughts::rating
