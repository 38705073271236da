#include "bot/position_request.h"

#include "absl/strings/str_cat.h"
#include "platform/variant_config.h"
#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::bot {

absl::StatusOr<rules::GameRecord> BuildGameRecord(
    std::string_view variant_id, const v1::VariantOptions& options, std::string_view fen,
    const google::protobuf::RepeatedPtrField<std::string>& moves) {
  absl::StatusOr<rules::Variant> variant = platform::ConfigureVariant(variant_id, options);
  if (!variant.ok()) return variant.status();
  rules::GameRecord record(*variant);
  if (!fen.empty()) {
    rules::Result<rules::Position> start = rules::ParseFen(*variant, fen);
    if (!start.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("fen: ", start.error().ToString()));
    }
    record = rules::GameRecord(*variant, *start);
  }
  for (int i = 0; i < moves.size(); ++i) {
    const std::string& text = moves.Get(i);
    if (record.is_over()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", text, "): the game is already over"));
    }
    rules::Result<rules::Move> move = rules::ParseMove(*variant, record.position(), text);
    if (!move.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", text, "): ", move.error().ToString()));
    }
    if (std::optional<rules::Error> error = record.Apply(*move)) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", text, "): ", error->ToString()));
    }
  }
  if (record.is_over() || record.legal_moves().empty()) {
    return absl::FailedPreconditionError("the game is over: the side to move has no move to play");
  }
  return record;
}

}  // namespace draughts::bot
