#include "rules/move_text.h"

#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

bool IsCaptureSeparator(char c) {
  return c == 'x' || c == 'X' || c == ':';
}

}  // namespace

Result<MoveText> ReadMoveText(text::Cursor& in) {
  MoveText move;
  const std::size_t first_offset = in.Offset();
  auto first = in.ReadNumber("a square number", kMaxMoveTextSquare);
  if (!first.ok()) return first.error();
  if (*first < 1) return MakeError("square numbers start at 1", first_offset);
  move.squares.push_back(*first);
  const char separator = in.Peek();
  if (in.AtEnd() || (separator != '-' && !IsCaptureSeparator(separator))) {
    return MakeError("expected '-' or 'x' after the first square, found " + in.DescribeHere(),
                     in.Offset());
  }
  move.capture = separator != '-';
  while (!in.AtEnd()) {
    const std::size_t separator_offset = in.Offset();
    const char c = in.Peek();
    const bool is_capture_sep = IsCaptureSeparator(c);
    if (c != '-' && !is_capture_sep) break;
    if (is_capture_sep != move.capture) {
      return MakeError("a move mixes '-' and 'x'", separator_offset);
    }
    if (!move.capture && move.squares.size() == 2) {
      return MakeError("a move without capture goes from one square to one other",
                       separator_offset);
    }
    if (move.squares.size() == kMaxMoveTextSquares) {
      return MakeError("a move lists more than " + std::to_string(kMaxMoveTextSquares) + " squares",
                       separator_offset);
    }
    in.Advance();
    const std::size_t square_offset = in.Offset();
    auto square = in.ReadNumber("a square number", kMaxMoveTextSquare);
    if (!square.ok()) return square.error();
    if (*square < 1) return MakeError("square numbers start at 1", square_offset);
    move.squares.push_back(*square);
  }
  // A capture may come back to its origin; a plain move cannot. Refusing
  // it also keeps "1-1" (and "01-1") from being a move that would be written
  // back as the PDN result "1-1".
  if (!move.capture && move.squares[0] == move.squares[1]) {
    return MakeError("a move without capture must leave its square", first_offset);
  }
  return move;
}

Result<MoveText> ParseMoveText(std::string_view text, std::size_t base_offset) {
  text::Cursor in(text, base_offset);
  in.SkipSpaces();
  auto move = ReadMoveText(in);
  if (!move.ok()) return move;
  in.SkipSpaces();
  if (!in.AtEnd()) {
    return MakeError("unexpected " + in.DescribeHere() + " after the move", in.Offset());
  }
  return move;
}

std::string FormatMoveText(const MoveText& move) {
  std::string out;
  for (std::size_t i = 0; i < move.squares.size(); ++i) {
    if (i > 0) out += move.capture ? 'x' : '-';
    out += std::to_string(move.squares[i]);
  }
  return out;
}

}  // namespace draughts::rules
