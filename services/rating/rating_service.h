// draughts.v1.RatingService. Built so far: GetArchivedGame, the archive of
// finished games that the results consumer (results_consumer.h) fills.
// The Elo calls (RecordResult, GetRating, GetLeaderboard, GetHistory) are
// issue 12's and answer UNIMPLEMENTED until then.
#ifndef DRAUGHTS_RATING_RATING_SERVICE_H_
#define DRAUGHTS_RATING_RATING_SERVICE_H_

#include "draughts/v1/rating.grpc.pb.h"
#include "rating/archive_pdn.h"
#include "rating/archive_store.h"

namespace draughts::rating {

class RatingServiceImpl final : public v1::RatingService::Service {
 public:
  // `archive` must outlive the service.
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

 private:
  absl::Status DoGetArchivedGame(const v1::GetArchivedGameRequest& request,
                                 v1::GetArchivedGameResponse& response);

  ArchiveStore* archive_;
  PdnSettings pdn_settings_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RATING_SERVICE_H_
