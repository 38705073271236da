// The gateway's calls to the game archive (draughts.v1.RatingService
// GetArchivedGame) through the platform's typed client, as absl::Status of
// the same code. Thread-safe (the client is).
#ifndef DRAUGHTS_GATEWAY_ARCHIVE_BACKEND_H_
#define DRAUGHTS_GATEWAY_ARCHIVE_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/rating.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using RatingClient = platform::GrpcClient<v1::RatingService>;

class ArchiveBackend {
 public:
  explicit ArchiveBackend(std::unique_ptr<RatingClient> client);

  // NOT_FOUND (with a message a person can act on) while the game is
  // unknown, still being played, or its result not archived yet.
  absl::StatusOr<v1::ArchivedGame> Find(const std::string& game_id);

  // The same service's other reads (rating_backend.h) share this client.
  RatingClient* client() { return client_.get(); }

 private:
  std::unique_ptr<RatingClient> client_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ARCHIVE_BACKEND_H_
