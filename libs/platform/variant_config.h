// The rules a game is played by: a built-in rule set adjusted by the table
// options (common.proto VariantOptions). Every service that holds a
// variant id and options (game_state replaying a game, matchmaking checking
// a table before it seats anyone, bot searching a position) builds the
// rules here, so a table is refused the same way wherever it is seen.
//
// Library draughts_platform_rules, apart from draughts_platform so that a
// service with no board (rating, chat) does not link the rules library.
#ifndef DRAUGHTS_PLATFORM_VARIANT_CONFIG_H_
#define DRAUGHTS_PLATFORM_VARIANT_CONFIG_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "draughts/v1/common.pb.h"
#include "rules/variant.h"

namespace draughts::platform {

// INVALID_ARGUMENT for an unknown rule set or an option it does not support
// (mandatory_capture off and the 40-move count in total are English-table
// options, seed 003; move_limit must not be negative).
absl::StatusOr<rules::Variant> ConfigureVariant(std::string_view variant_id,
                                                const v1::VariantOptions& options);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_VARIANT_CONFIG_H_
