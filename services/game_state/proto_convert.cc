#include "game_state/proto_convert.h"

#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::game_state {
namespace {

void FillPath(const rules::Move& move, google::protobuf::RepeatedField<int32_t>* path,
              google::protobuf::RepeatedField<int32_t>* captured) {
  path->Add(move.from);
  for (std::uint8_t square : move.landing_squares()) path->Add(square);
  for (std::uint8_t square : move.captured_squares()) captured->Add(square);
}

v1::ResultReason RuleDrawReason(const rules::GameRecord& record) {
  const rules::Variant& variant = record.variant();
  switch (record.outcome().reason) {
    case rules::OutcomeReason::kRepetition:
      return v1::RESULT_REASON_THREEFOLD_REPETITION;
    case rules::OutcomeReason::kNoProgress:
      return variant.draw.no_progress_moves == 40 ? v1::RESULT_REASON_FORTY_MOVE_RULE
                                                  : v1::RESULT_REASON_TWENTY_FIVE_MOVE_RULE;
    case rules::OutcomeReason::kLoneKing: {
      const int rule = record.lone_king_rule();
      const bool sixteen =
          rule >= 0 && variant.draw.lone_king[static_cast<std::size_t>(rule)].moves_per_side == 16;
      return sixteen ? v1::RESULT_REASON_SIXTEEN_MOVE_RULE : v1::RESULT_REASON_FIVE_MOVE_RULE;
    }
    case rules::OutcomeReason::kMoveLimit:
      return v1::RESULT_REASON_MOVE_LIMIT;
    default:
      return v1::RESULT_REASON_UNSPECIFIED;
  }
}

}  // namespace

v1::Color ToProto(rules::Color color) {
  return color == rules::Color::kWhite ? v1::COLOR_WHITE : v1::COLOR_BLACK;
}

std::optional<rules::Color> FromProto(v1::Color color) {
  if (color == v1::COLOR_WHITE) return rules::Color::kWhite;
  if (color == v1::COLOR_BLACK) return rules::Color::kBlack;
  return std::nullopt;
}

v1::Color OpponentOf(v1::Color color) {
  if (color == v1::COLOR_WHITE) return v1::COLOR_BLACK;
  if (color == v1::COLOR_BLACK) return v1::COLOR_WHITE;
  return v1::COLOR_UNSPECIFIED;
}

v1::GameResult WinFor(v1::Color winner) {
  return winner == v1::COLOR_WHITE ? v1::GAME_RESULT_WHITE_WINS : v1::GAME_RESULT_BLACK_WINS;
}

v1::LegalMove ToLegalMove(const rules::Move& move) {
  v1::LegalMove out;
  out.set_notation(rules::FormatMovePath(move));
  out.set_from_square(move.from);
  out.set_to_square(move.to);
  FillPath(move, out.mutable_path(), out.mutable_captured());
  out.set_promotes(move.promotes);
  return out;
}

v1::MovePlayed DescribeMove(const rules::MoveList& legal, const rules::Move& move,
                            rules::Color color, const rules::Position& position_after) {
  v1::MovePlayed out;
  out.set_color(ToProto(color));
  out.set_notation(rules::FormatMove(legal, move));
  FillPath(move, out.mutable_path(), out.mutable_captured());
  out.set_promoted(move.promotes);
  out.set_fen_after(rules::FormatFen(position_after));
  return out;
}

ProtoOutcome ToProto(const rules::GameRecord& record) {
  const rules::Outcome& outcome = record.outcome();
  ProtoOutcome out;
  switch (outcome.status) {
    case rules::GameStatus::kOngoing:
      return out;
    case rules::GameStatus::kWhiteWins:
      out.result = v1::GAME_RESULT_WHITE_WINS;
      break;
    case rules::GameStatus::kBlackWins:
      out.result = v1::GAME_RESULT_BLACK_WINS;
      break;
    case rules::GameStatus::kDraw:
      out.result = v1::GAME_RESULT_DRAW;
      break;
  }
  switch (outcome.reason) {
    case rules::OutcomeReason::kNoPieces:
      out.reason = v1::RESULT_REASON_NO_PIECES;
      break;
    case rules::OutcomeReason::kNoLegalMoves:
      out.reason = v1::RESULT_REASON_NO_MOVES;
      break;
    case rules::OutcomeReason::kResignation:
      out.reason = v1::RESULT_REASON_RESIGNATION;
      break;
    case rules::OutcomeReason::kAgreement:
      out.reason = v1::RESULT_REASON_DRAW_AGREED;
      break;
    case rules::OutcomeReason::kTimeForfeit:
      out.reason = v1::RESULT_REASON_TIMEOUTS;
      break;
    case rules::OutcomeReason::kAbandonment:
      out.reason = v1::RESULT_REASON_ABANDONED;
      break;
    default:
      out.reason = RuleDrawReason(record);
      break;
  }
  return out;
}

}  // namespace draughts::game_state
