#include "rating/rating_service.h"

#include <google/protobuf/util/time_util.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"
#include "platform/status.h"
#include "platform/status_macros.h"
#include "rating/rating_pages.h"
#include "rating/result_rules.h"

namespace draughts::rating {
namespace {

constexpr int kLeaderboardDefaultPage = 50;
constexpr int kHistoryDefaultPage = 20;
constexpr int kMaxPage = 100;

absl::StatusOr<int> PageSize(int requested, int default_size) {
  if (requested < 0) return absl::InvalidArgumentError("page_size is negative");
  if (requested == 0) return default_size;
  return std::min(requested, kMaxPage);
}

}  // namespace

RatingServiceImpl::RatingServiceImpl(ArchiveStore* archive, RatingServiceOptions options)
    : archive_(archive), options_(std::move(options)) {
  if (!options_.now) options_.now = [] { return absl::Now(); };
}

RatingServiceImpl::RatingServiceImpl(ArchiveStore* archive, PdnSettings pdn_settings)
    : RatingServiceImpl(archive, [&] {
        RatingServiceOptions options;
        options.pdn = std::move(pdn_settings);
        return options;
      }()) {}

absl::StatusOr<std::string> RatingServiceImpl::MonthOrCurrent(const std::string& month) const {
  if (month.empty()) return MonthOf(absl::ToUnixMicros(options_.now()));
  if (!IsValidMonth(month)) {
    return absl::InvalidArgumentError(absl::StrCat("month \"", month, "\" is not \"YYYY-MM\""));
  }
  return month;
}

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
  absl::StatusOr<std::string> pdn = ArchivedGamePdn(found->record, options_.pdn);
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

absl::Status RatingServiceImpl::DoRecordResult(const v1::RecordResultRequest& request,
                                               v1::RecordResultResponse& response) {
  const v1::ResultRecord& record = request.record();
  DRAUGHTS_RETURN_IF_ERROR(CheckCompleteRecord(record));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RecordedGame> recorded,
                            archive_->Record({record}, options_.now()));
  RecordedGame& game = recorded.front();
  ArchiveMetrics* metrics = options_.metrics;
  switch (game.kind) {
    case RecordedGame::Kind::kConflict:
      return absl::FailedPreconditionError(
          absl::StrCat("a different record was already applied for game ", record.game_id(),
                       ": the first one stands"));
    case RecordedGame::Kind::kDuplicate:
      if (metrics != nullptr) metrics->DuplicateSkipped();
      response.set_duplicate(true);
      break;
    case RecordedGame::Kind::kNew:
      if (metrics != nullptr) {
        metrics->Archived();
        metrics->ResultApplied(game.elo_changed);
        metrics->RatingUpdates(static_cast<int64_t>(game.changes.size()));
      }
      break;
  }
  response.set_applied(game.elo_changed);
  for (v1::RatingChange& change : game.changes) *response.add_changes() = std::move(change);
  return absl::OkStatus();
}

absl::Status RatingServiceImpl::DoGetRating(const v1::GetRatingRequest& request,
                                            v1::GetRatingResponse& response) {
  if (request.player_id().empty()) return absl::InvalidArgumentError("player_id is empty");
  if (request.variant().empty()) return absl::InvalidArgumentError("variant is empty");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string month, MonthOrCurrent(request.month()));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<v1::LeaderboardEntry> found,
                            archive_->FindRating(request.player_id(), request.variant(), month));
  if (found.has_value()) {
    *response.mutable_rating() = std::move(*found->mutable_rating());
    response.set_rank(found->rank());
    return absl::OkStatus();
  }
  v1::Rating& rating = *response.mutable_rating();
  rating.set_player_id(request.player_id());
  rating.set_variant(request.variant());
  rating.set_month(month);
  rating.set_elo(options_.elo.initial);
  return absl::OkStatus();
}

absl::Status RatingServiceImpl::DoGetLeaderboard(const v1::GetLeaderboardRequest& request,
                                                 v1::GetLeaderboardResponse& response) {
  if (request.variant().empty()) return absl::InvalidArgumentError("variant is empty");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string month, MonthOrCurrent(request.month()));
  DRAUGHTS_ASSIGN_OR_RETURN(int page_size, PageSize(request.page_size(), kLeaderboardDefaultPage));
  std::optional<LeaderboardCursor> after;
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(
        after, ParseLeaderboardToken(request.page_token(), request.variant(), month));
  }
  // One line more than the page says whether another page follows.
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<v1::LeaderboardEntry> entries,
                            archive_->Leaderboard(request.variant(), month, after, page_size + 1));
  const bool more = static_cast<int>(entries.size()) > page_size;
  if (more) entries.resize(page_size);
  if (more) {
    const v1::LeaderboardEntry& last = entries.back();
    response.set_next_page_token(LeaderboardToken(
        request.variant(), month,
        {last.rating().elo(), last.rating().games(), last.rating().player_id(), last.rank()}));
  }
  for (v1::LeaderboardEntry& entry : entries) *response.add_entries() = std::move(entry);
  if (!request.player_id().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<v1::LeaderboardEntry> own,
                              archive_->FindRating(request.player_id(), request.variant(), month));
    if (own.has_value()) *response.mutable_player() = std::move(*own);
  }
  return absl::OkStatus();
}

absl::Status RatingServiceImpl::DoGetHistory(const v1::GetHistoryRequest& request,
                                             v1::GetHistoryResponse& response) {
  if (request.player_id().empty()) return absl::InvalidArgumentError("player_id is empty");
  DRAUGHTS_ASSIGN_OR_RETURN(int page_size, PageSize(request.page_size(), kHistoryDefaultPage));
  std::optional<HistoryCursor> after;
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(
        after, ParseHistoryToken(request.page_token(), request.player_id(), request.variant()));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<v1::HistoryEntry> entries,
      archive_->History(request.player_id(), request.variant(), after, page_size + 1));
  const bool more = static_cast<int>(entries.size()) > page_size;
  if (more) entries.resize(page_size);
  if (more) {
    const v1::HistoryEntry& last = entries.back();
    response.set_next_page_token(
        HistoryToken(request.player_id(), request.variant(),
                     {google::protobuf::util::TimeUtil::TimestampToMicroseconds(last.finished_at()),
                      last.game_id()}));
  }
  for (v1::HistoryEntry& entry : entries) *response.add_entries() = std::move(entry);
  return absl::OkStatus();
}

grpc::Status RatingServiceImpl::GetArchivedGame(grpc::ServerContext*,
                                                const v1::GetArchivedGameRequest* request,
                                                v1::GetArchivedGameResponse* response) {
  return platform::ToGrpcStatus(DoGetArchivedGame(*request, *response));
}

grpc::Status RatingServiceImpl::RecordResult(grpc::ServerContext*,
                                             const v1::RecordResultRequest* request,
                                             v1::RecordResultResponse* response) {
  return platform::ToGrpcStatus(DoRecordResult(*request, *response));
}

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContext*, const v1::GetRatingRequest* request,
                                          v1::GetRatingResponse* response) {
  return platform::ToGrpcStatus(DoGetRating(*request, *response));
}

grpc::Status RatingServiceImpl::GetLeaderboard(grpc::ServerContext*,
                                               const v1::GetLeaderboardRequest* request,
                                               v1::GetLeaderboardResponse* response) {
  return platform::ToGrpcStatus(DoGetLeaderboard(*request, *response));
}

grpc::Status RatingServiceImpl::GetHistory(grpc::ServerContext*,
                                           const v1::GetHistoryRequest* request,
                                           v1::GetHistoryResponse* response) {
  return platform::ToGrpcStatus(DoGetHistory(*request, *response));
}

}  // namespace draughts::rating
