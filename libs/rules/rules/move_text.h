#pragma once

// A move as written, before it is matched against a position: "32-28",
// "28x19", "28x19x10" (every landing square), with ':' tolerated in place
// of 'x'. Matching it against the legal moves is in move_notation.h.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rules/result.h"
#include "rules/text_cursor.h"

namespace draughts::rules {

// Bounds the squares a capture path may list; the longest legal capture on a
// 12x12 board lands far fewer times than this.
inline constexpr std::size_t kMaxMoveTextSquares = 64;
inline constexpr int kMaxMoveTextSquare = 255;

struct MoveText {
  // First the origin, then the destination or every landing square in order.
  // Always at least two entries; exactly two for a quiet move.
  std::vector<int> squares;
  bool capture = false;

  int from() const { return squares.front(); }
  int to() const { return squares.back(); }

  friend bool operator==(const MoveText&, const MoveText&) = default;
};

// Leading and trailing whitespace is ignored; none is allowed inside. Errors
// carry the offset of the offending character plus `base_offset`, so a caller
// parsing a slice of a larger text (PDN) reports offsets into the whole.
Result<MoveText> ParseMoveText(std::string_view text, std::size_t base_offset = 0);

// Reads a move at the cursor and stops at the first character that cannot
// continue it (left for the caller: the PDN reader decides what may follow).
Result<MoveText> ReadMoveText(text::Cursor& in);

// "32-28", "28x19" or "28x19x10".
std::string FormatMoveText(const MoveText& move);

}  // namespace draughts::rules
