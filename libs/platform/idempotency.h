// Retrying safely (common.proto, "Retrying safely"): a mutating call carries
// an idempotency key, and its first request is remembered by a fingerprint
// so a retry (same key, same request) gets the first answer while a
// different request reusing the key is refused instead of silently
// answered with someone else's result.
#ifndef DRAUGHTS_PLATFORM_IDEMPOTENCY_H_
#define DRAUGHTS_PLATFORM_IDEMPOTENCY_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace draughts::platform {

// INVALID_ARGUMENT unless `key` is 1-64 characters of [A-Za-z0-9_.:-]: the
// key ends up inside Redis keys and ids, so it is kept short and plain.
absl::Status ValidateIdempotencyKey(std::string_view key);

// A 32-byte digest (BLAKE2b) of the deterministic serialization of
// `request`, to store beside the first answer. Deterministic so that the
// same request always gives the same digest within one build (map fields
// in any order); not a stable format across proto changes, so compare
// fingerprints only while the remembered answer lives.
std::string RequestFingerprint(const google::protobuf::Message& request);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_IDEMPOTENCY_H_
