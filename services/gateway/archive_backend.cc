#include "gateway/archive_backend.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::gateway {

ArchiveBackend::ArchiveBackend(std::unique_ptr<RatingClient> client) : client_(std::move(client)) {}

absl::StatusOr<v1::ArchivedGame> ArchiveBackend::Find(const std::string& game_id) {
  v1::GetArchivedGameRequest request;
  request.set_game_id(game_id);
  platform::CallOptions options;
  options.safe_to_retry = true;  // a read: repeating it changes nothing
  absl::StatusOr<v1::GetArchivedGameResponse> found =
      client_->Call(&RatingClient::Stub::GetArchivedGame, request, options);
  if (absl::IsNotFound(found.status())) {
    return absl::NotFoundError(absl::StrCat(
        "game ", game_id,
        " is not in the archive: unknown, still being played, or just finished (retry in a "
        "moment)"));
  }
  if (absl::IsUnavailable(found.status()) || absl::IsDeadlineExceeded(found.status())) {
    return absl::UnavailableError(
        absl::StrCat("the game archive (rating) is unavailable: ", found.status().message()));
  }
  if (!found.ok()) return found.status();
  return std::move(*found->mutable_game());
}

}  // namespace draughts::gateway
