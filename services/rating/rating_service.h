// draughts.v1.RatingService: RecordResult (the same recording as the
// results consumer: archive, history and Elo in one store call), GetRating,
// GetLeaderboard, GetHistory, and GetArchivedGame with its PDN. Requests
// are checked in the order rating.proto documents; store errors pass
// through with their codes.
#ifndef DRAUGHTS_RATING_RATING_SERVICE_H_
#define DRAUGHTS_RATING_RATING_SERVICE_H_

#include <functional>
#include <string>

#include "draughts/v1/rating.grpc.pb.h"
#include "rating/archive_metrics.h"
#include "rating/archive_pdn.h"
#include "rating/archive_store.h"
#include "rating/elo.h"

namespace draughts::rating {

struct RatingServiceOptions {
  PdnSettings pdn;
  EloSettings elo;
  // May be null.
  ArchiveMetrics* metrics = nullptr;
  // The current month when a request leaves it empty, and archived_at of
  // RecordResult; null means the system clock.
  std::function<absl::Time()> now;
};

class RatingServiceImpl final : public v1::RatingService::Service {
 public:
  // `archive` must outlive the service.
  RatingServiceImpl(ArchiveStore* archive, RatingServiceOptions options);
  RatingServiceImpl(ArchiveStore* archive, PdnSettings pdn_settings);

  grpc::Status GetArchivedGame(grpc::ServerContext*, const v1::GetArchivedGameRequest*,
                               v1::GetArchivedGameResponse*) override;
  grpc::Status RecordResult(grpc::ServerContext*, const v1::RecordResultRequest*,
                            v1::RecordResultResponse*) override;
  grpc::Status GetRating(grpc::ServerContext*, const v1::GetRatingRequest*,
                         v1::GetRatingResponse*) override;
  grpc::Status GetLeaderboard(grpc::ServerContext*, const v1::GetLeaderboardRequest*,
                              v1::GetLeaderboardResponse*) override;
  grpc::Status GetHistory(grpc::ServerContext*, const v1::GetHistoryRequest*,
                          v1::GetHistoryResponse*) override;

  absl::Status DoGetArchivedGame(const v1::GetArchivedGameRequest& request,
                                 v1::GetArchivedGameResponse& response);
  absl::Status DoRecordResult(const v1::RecordResultRequest& request,
                              v1::RecordResultResponse& response);
  absl::Status DoGetRating(const v1::GetRatingRequest& request, v1::GetRatingResponse& response);
  absl::Status DoGetLeaderboard(const v1::GetLeaderboardRequest& request,
                                v1::GetLeaderboardResponse& response);
  absl::Status DoGetHistory(const v1::GetHistoryRequest& request, v1::GetHistoryResponse& response);

 private:
  // The request's month, or the current one when empty.
  absl::StatusOr<std::string> MonthOrCurrent(const std::string& month) const;

  ArchiveStore* archive_;
  RatingServiceOptions options_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RATING_SERVICE_H_
