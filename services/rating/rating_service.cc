#include "rating/rating_service.h"

#include <google/protobuf/util/time_util.h>

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/status.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

grpc::Status NotBuiltYet(const char* call) {
  return grpc::Status(grpc::StatusCode::UNIMPLEMENTED,
                      absl::StrCat(call,
                                   ": Elo ratings are not built yet (issue 12); the rating "
                                   "service serves only GetArchivedGame for now"));
}

}  // namespace

RatingServiceImpl::RatingServiceImpl(ArchiveStore* archive, PdnSettings pdn_settings)
    : archive_(archive), pdn_settings_(std::move(pdn_settings)) {}

absl::Status RatingServiceImpl::DoGetArchivedGame(const v1::GetArchivedGameRequest& request,
                                                  v1::GetArchivedGameResponse& response) {
  if (request.game_id().empty()) return absl::InvalidArgumentError("game_id is empty");
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<ArchivedRecord> found, archive_->Find(request.game_id()));
  if (!found.has_value()) {
    return absl::NotFoundError(absl::StrCat(
        "no finished game ", request.game_id(),
        " in the archive (unknown, still being played, or its result not consumed yet)"));
  }
  v1::ArchivedGame& game = *response.mutable_game();
  *game.mutable_archived_at() = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(
      absl::ToUnixMicros(found->archived_at));
  absl::StatusOr<std::string> pdn = ArchivedGamePdn(found->record, pdn_settings_);
  if (pdn.ok()) {
    game.set_pdn(*std::move(pdn));
  } else {
    // The record is still worth returning; only its PDN cannot be made.
    platform::LogError("archived game has no PDN",
                       {{"game", request.game_id()}, {"status", pdn.status()}});
  }
  *game.mutable_record() = std::move(found->record);
  return absl::OkStatus();
}

grpc::Status RatingServiceImpl::GetArchivedGame(grpc::ServerContext*,
                                                const v1::GetArchivedGameRequest* request,
                                                v1::GetArchivedGameResponse* response) {
  return platform::ToGrpcStatus(DoGetArchivedGame(*request, *response));
}

grpc::Status RatingServiceImpl::RecordResult(grpc::ServerContext*, const v1::RecordResultRequest*,
                                             v1::RecordResultResponse*) {
  return NotBuiltYet("RecordResult");
}

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContext*, const v1::GetRatingRequest*,
                                          v1::GetRatingResponse*) {
  return NotBuiltYet("GetRating");
}

grpc::Status RatingServiceImpl::GetLeaderboard(grpc::ServerContext*,
                                               const v1::GetLeaderboardRequest*,
                                               v1::GetLeaderboardResponse*) {
  return NotBuiltYet("GetLeaderboard");
}

grpc::Status RatingServiceImpl::GetHistory(grpc::ServerContext*, const v1::GetHistoryRequest*,
                                           v1::GetHistoryResponse*) {
  return NotBuiltYet("GetHistory");
}

}  // namespace draughts::rating
