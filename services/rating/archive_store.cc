#include "rating/archive_store.h"

#include "platform/status_macros.h"

namespace draughts::rating {

absl::StatusOr<InsertResult> ArchiveStore::Insert(const v1::ResultRecord& record,
                                                  absl::Time archived_at) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RecordedGame> recorded, Record({record}, archived_at));
  InsertResult result;
  result.inserted = recorded.front().kind == RecordedGame::Kind::kNew;
  if (!result.inserted) {
    DRAUGHTS_ASSIGN_OR_RETURN(result.existing, Find(record.game_id()));
  }
  return result;
}

}  // namespace draughts::rating
