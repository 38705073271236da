// Idempotency keys on the gateway's POST routes (docs/WEB_PROTOCOL.md,
// "Retrying safely"): a client sends `Idempotency-Key: <key>` with a
// request that creates something, and a retry with the same key (same
// session) gets the first answer and creates nothing, on any replica.
//
// Two layers make that hold even when a replica dies mid-request: the
// answer is remembered (IdempotencyStore, Redis, 24 h) under the player's
// public id and the key, and the backend call itself carries a key derived
// from the same pair (BackendIdempotencyKey), so a retry that reaches the
// backend again, because the first answer was never remembered, is
// recognised there and answered with the same game.
#ifndef DRAUGHTS_GATEWAY_IDEMPOTENCY_H_
#define DRAUGHTS_GATEWAY_IDEMPOTENCY_H_

#include <google/protobuf/message.h>

#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gateway/http_types.h"

namespace draughts::gateway {

inline constexpr std::string_view kIdempotencyKeyHeader = "Idempotency-Key";
// Set ("true") on an answer that repeats a remembered one.
inline constexpr std::string_view kIdempotentReplayedHeader = "Idempotent-Replayed";
// How long an answer is remembered (common.proto: at least 24 hours).
inline constexpr absl::Duration kIdempotencyKeyLifetime = absl::Hours(24);

// 1-64 characters of [A-Za-z0-9_.:-], as common.proto's idempotency_key.
absl::Status ValidateIdempotencyKey(std::string_view key);

// The idempotency_key for the backend call `operation` ("CreateGame") made
// for (player, client key): always the same for the same triple, different
// (a keyed hash) for any other, so two players' keys never collide and a
// player cannot name another's request. Within game_state's key rules.
std::string BackendIdempotencyKey(std::string_view operation, std::string_view player_id,
                                  std::string_view key);

// A digest of what `request` asks `operation` to do: a retry has the same,
// a different request reusing a key has another. Deterministic.
std::string RequestFingerprint(std::string_view operation,
                               const google::protobuf::Message& request);

// An answer kept for a key.
struct RememberedResponse {
  std::string fingerprint;
  int status = 200;
  std::string body;
};

class IdempotencyStore {
 public:
  virtual ~IdempotencyStore() = default;
  // The answer kept for (player, key), or nullopt.
  virtual absl::StatusOr<std::optional<RememberedResponse>> Find(std::string_view player_id,
                                                                 std::string_view key) = 0;
  // Keeps `response` for (player, key) for kIdempotencyKeyLifetime unless an
  // answer is kept already; returns the one kept (first writer wins).
  virtual absl::StatusOr<RememberedResponse> Remember(std::string_view player_id,
                                                      std::string_view key,
                                                      const RememberedResponse& response) = 0;
};

// Answers a request carrying an idempotency key: the remembered answer if
// the key was used with this fingerprint (marked with the
// Idempotent-Replayed header), INVALID_ARGUMENT if it was used with another,
// else runs `operation` and remembers a 2xx answer (errors are not kept: a
// retry runs again, which the backend key makes safe). When the answer
// cannot be remembered the operation's answer is still returned.
HttpResponse RespondOnce(IdempotencyStore& store, std::string_view player_id, std::string_view key,
                         std::string_view fingerprint, absl::FunctionRef<HttpResponse()> operation);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_IDEMPOTENCY_H_
