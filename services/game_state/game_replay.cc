#include "game_state/game_replay.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/variant_config.h"
#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::game_state {
namespace {

absl::Status Corrupt(const v1::GameState& state, const std::string& what) {
  return absl::InternalError(
      absl::StrCat("stored game ", state.game_id(), " does not replay: ", what));
}

}  // namespace

absl::Status ApplyStoredMoves(const v1::GameState& state, int from, rules::GameRecord& record) {
  for (int i = from; i < state.moves_size(); ++i) {
    const std::string& notation = state.moves(i);
    rules::Result<rules::MoveText> text = rules::ParseMoveText(notation);
    if (!text.ok())
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", text.error().ToString()));
    rules::Result<rules::Move> move =
        rules::MatchMove(record.variant().board, record.legal_moves(), *text);
    if (!move.ok())
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", move.error().ToString()));
    if (std::optional<rules::Error> error = record.Apply(*move)) {
      return Corrupt(state, absl::StrCat("move ", i + 1, ": ", error->ToString()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<rules::GameRecord> ReplayGame(const v1::GameState& state) {
  absl::StatusOr<rules::Variant> variant =
      platform::ConfigureVariant(state.variant(), state.options());
  if (!variant.ok()) return Corrupt(state, std::string(variant.status().message()));
  rules::Result<rules::Position> start = rules::ParseFen(*variant, state.initial_fen());
  if (!start.ok()) return Corrupt(state, "initial FEN: " + start.error().ToString());
  rules::GameRecord record(*variant, *start);
  if (absl::Status status = ApplyStoredMoves(state, 0, record); !status.ok()) return status;
  return record;
}

}  // namespace draughts::game_state
