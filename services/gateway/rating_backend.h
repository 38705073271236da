// The gateway's reads of ratings, leaderboards and histories
// (draughts.v1.RatingService) through the archive's client, as absl::Status
// of the same code. Thread-safe (the client is).
#ifndef DRAUGHTS_GATEWAY_RATING_BACKEND_H_
#define DRAUGHTS_GATEWAY_RATING_BACKEND_H_

#include "absl/status/statusor.h"
#include "draughts/v1/rating.grpc.pb.h"
#include "gateway/archive_backend.h"

namespace draughts::gateway {

class RatingBackend {
 public:
  // `client` outlives this.
  explicit RatingBackend(RatingClient* client) : client_(client) {}

  absl::StatusOr<v1::GetRatingResponse> GetRating(const v1::GetRatingRequest& request);
  absl::StatusOr<v1::GetLeaderboardResponse> GetLeaderboard(
      const v1::GetLeaderboardRequest& request);
  absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request);

 private:
  RatingClient* client_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_RATING_BACKEND_H_
