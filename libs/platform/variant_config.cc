#include "platform/variant_config.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace draughts::platform {
namespace {

// The table options of seed 003 belong to rule sets with the English
// 40-move rule (English checkers and the seed-004 variant that shares its
// draw rules).
bool HasFortyMoveRule(const rules::Variant& variant) {
  return variant.draw.no_progress_moves == 40;
}

// Large enough for any real game; bounds the replay work a game can cause.
constexpr int kMaxMoveLimit = 2000;

}  // namespace

absl::StatusOr<rules::Variant> ConfigureVariant(std::string_view variant_id,
                                                const v1::VariantOptions& options) {
  if (variant_id.empty()) return absl::InvalidArgumentError("variant is empty");
  rules::Result<rules::Variant> found = rules::FindVariant(variant_id);
  if (!found.ok()) return absl::InvalidArgumentError(found.error().ToString());
  rules::Variant variant = *found;
  const std::string name(variant.id);

  if (options.has_mandatory_capture() && !options.mandatory_capture()) {
    if (variant.id != "english") {
      return absl::InvalidArgumentError(
          absl::StrCat("options.mandatory_capture: captures are always compulsory in ", name,
                       " (only English tables may switch them off)"));
    }
    variant.mandatory_capture = false;
  }
  if (options.has_forty_move_rule_in_total() && options.forty_move_rule_in_total()) {
    if (!HasFortyMoveRule(variant)) {
      return absl::InvalidArgumentError(
          absl::StrCat("options.forty_move_rule_in_total: ", name, " has no 40-move rule"));
    }
    variant.draw.no_progress_counting = rules::MoveCounting::kTotal;
  }
  if (options.move_limit() < 0 || options.move_limit() > kMaxMoveLimit) {
    return absl::InvalidArgumentError(absl::StrCat("options.move_limit must be 0 (none) to ",
                                                   kMaxMoveLimit, " plies, got ",
                                                   options.move_limit()));
  }
  variant.draw.move_limit_plies = options.move_limit();
  if (std::optional<rules::Error> error = rules::CheckVariant(variant)) {
    return absl::InternalError(absl::StrCat("rule set ", name, ": ", error->ToString()));
  }
  return variant;
}

}  // namespace draughts::platform
