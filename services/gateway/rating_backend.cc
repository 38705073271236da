#include "gateway/rating_backend.h"

#include "absl/strings/str_cat.h"

namespace draughts::gateway {
namespace {

template <typename Response, typename Request, typename Method>
absl::StatusOr<Response> Read(RatingClient* client, Method method, const Request& request) {
  platform::CallOptions options;
  options.safe_to_retry = true;  // reads: repeating one changes nothing
  absl::StatusOr<Response> answer = client->Call(method, request, options);
  if (absl::IsUnavailable(answer.status()) || absl::IsDeadlineExceeded(answer.status())) {
    return absl::UnavailableError(
        absl::StrCat("the rating service is unavailable: ", answer.status().message()));
  }
  return answer;
}

}  // namespace

absl::StatusOr<v1::GetRatingResponse> RatingBackend::GetRating(
    const v1::GetRatingRequest& request) {
  return Read<v1::GetRatingResponse>(client_, &RatingClient::Stub::GetRating, request);
}

absl::StatusOr<v1::GetLeaderboardResponse> RatingBackend::GetLeaderboard(
    const v1::GetLeaderboardRequest& request) {
  return Read<v1::GetLeaderboardResponse>(client_, &RatingClient::Stub::GetLeaderboard, request);
}

absl::StatusOr<v1::GetHistoryResponse> RatingBackend::GetHistory(
    const v1::GetHistoryRequest& request) {
  return Read<v1::GetHistoryResponse>(client_, &RatingClient::Stub::GetHistory, request);
}

}  // namespace draughts::gateway
