// The rules a game is played by: a built-in rule set adjusted by the table
// options of the CreateGame request (common.proto VariantOptions).
#ifndef DRAUGHTS_GAME_STATE_VARIANT_CONFIG_H_
#define DRAUGHTS_GAME_STATE_VARIANT_CONFIG_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "draughts/v1/common.pb.h"
#include "rules/variant.h"

namespace draughts::game_state {

// INVALID_ARGUMENT for an unknown rule set or an option it does not support
// (mandatory_capture off and the 40-move count in total are English-table
// options, seed 003; move_limit must not be negative).
absl::StatusOr<rules::Variant> ConfigureVariant(std::string_view variant_id,
                                                const v1::VariantOptions& options);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_VARIANT_CONFIG_H_
