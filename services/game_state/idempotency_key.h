// Idempotency keys (common.proto, "Retrying safely"): what a well-formed
// one looks like.
#ifndef DRAUGHTS_GAME_STATE_IDEMPOTENCY_KEY_H_
#define DRAUGHTS_GAME_STATE_IDEMPOTENCY_KEY_H_

#include <string_view>

#include "absl/status/status.h"

namespace draughts::game_state {

// INVALID_ARGUMENT unless `key` is 1-64 characters of [A-Za-z0-9_.:-].
absl::Status ValidateIdempotencyKey(std::string_view key);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_IDEMPOTENCY_KEY_H_
