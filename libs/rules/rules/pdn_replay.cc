#include "rules/pdn_replay.h"

#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

std::string WhereMove(const PdnMove& move, std::size_t index) {
  std::string out;
  if (move.line > 0) {
    out = "line " + std::to_string(move.line) + ", column " + std::to_string(move.column) + ": ";
  }
  return out + "move " + std::to_string(index + 1) + " (" + FormatMoveText(move.move) + "): ";
}

}  // namespace

Result<Variant> VariantForPdn(const PdnGame& game, const Variant& fallback) {
  const std::string* tag = game.FindTag("GameType");
  if (tag == nullptr) return fallback;
  const std::optional<int> type = game.GameType();
  if (!type)
    return MakeError("GameType \"" + text::Excerpt(*tag) + "\" is not a number", game.offset);
  for (const Variant& variant : AllVariants()) {
    if (variant.pdn_game_type != 0 && variant.pdn_game_type == *type) return variant;
  }
  return MakeError("GameType " + std::to_string(*type) + " is not a supported rule set",
                   game.offset);
}

Result<GameRecord> ReplayPdnGame(const PdnGame& game, const Variant& fallback) {
  auto variant = VariantForPdn(game, fallback);
  if (!variant.ok()) return variant.error();
  std::optional<GameRecord> record;
  if (const std::string* fen = game.FindTag("FEN")) {
    auto start = ParseFen(*variant, *fen);
    if (!start.ok()) {
      return MakeError("FEN tag \"" + text::Excerpt(*fen) + "\": " + start.error().ToString(),
                       game.offset);
    }
    record.emplace(*variant, *start);
  } else {
    record.emplace(*variant);
  }
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const PdnMove& written = game.moves[i];
    if (record->is_over()) {
      return MakeError(
          WhereMove(written, i) + "the game is already over (" + record->outcome().ToString() + ")",
          written.offset);
    }
    auto move = MatchMove(record->variant().board, record->legal_moves(), written.move);
    if (!move.ok()) return MakeError(WhereMove(written, i) + move.error().message, written.offset);
    if (auto error = record->Apply(*move)) {
      return MakeError(WhereMove(written, i) + error->message, written.offset);
    }
  }
  return std::move(*record);
}

PdnResult ToPdnResult(const Outcome& outcome) {
  switch (outcome.status) {
    case GameStatus::kWhiteWins:
      return PdnResult::kWhiteWins;
    case GameStatus::kBlackWins:
      return PdnResult::kBlackWins;
    case GameStatus::kDraw:
      return PdnResult::kDraw;
    case GameStatus::kOngoing:
      break;
  }
  return PdnResult::kUnknown;
}

PdnGame ToPdnGame(const GameRecord& record, std::vector<PdnTag> tags) {
  PdnGame game;
  game.tags = std::move(tags);
  const Variant& variant = record.variant();
  if (variant.pdn_game_type != 0) game.SetTag("GameType", std::to_string(variant.pdn_game_type));
  if (!(record.start() == Position::Initial(variant)))
    game.SetTag("FEN", FormatFen(record.start()));
  game.result = ToPdnResult(record.outcome());
  game.first_move_by_second_player = record.start().side_to_move() != variant.first_to_move;
  const std::vector<Position> positions = record.positions();
  MoveList legal;
  for (std::size_t i = 0; i < record.moves().size(); ++i) {
    GenerateMoves(variant, positions[i], legal);
    const Move& move = record.moves()[i];
    const bool full_path = FormatMove(legal, move) != FormatMoveText(ToMoveText(move, false));
    game.moves.push_back(PdnMove{ToMoveText(move, full_path), "", 0, 0, 0});
  }
  return game;
}

}  // namespace draughts::rules
