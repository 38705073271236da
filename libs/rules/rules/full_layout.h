#pragma once

// The bit layout of the full 8x8 board (BoardSize::kFull8x8, Turkish
// draughts): all 64 squares in one 64-bit word, bit = square - 1, so bit
// 8 * row + column with row 0 at the top (Black's back row). Steps along a
// column are shifts by 8, which fall off the word at the top and bottom
// edges; steps along a row are shifts by 1, masked so that they do not
// wrap from one row into the next.
//
// It offers what the generic code (Board, Apply, the sinks, perft, the
// engine's search) reads from a layout; the move generator for it is the
// orthogonal one (orthogonal_movegen.h). Diagonal steps do not exist here.

#include <cstdint>

#include "rules/bitboard.h"
#include "rules/geometry.h"
#include "rules/layout.h"

namespace draughts::rules {

struct FullLayout8 {
  using Bits = std::uint64_t;
  static constexpr BoardSize kBoard = BoardSize::kFull8x8;
  static constexpr int kSize = 8;
  static constexpr int kSquares = 64;
  static constexpr int kBits = 64;

  static constexpr int BitOfSquare(int square) { return square - 1; }
  static constexpr int SquareOfBit(int bit) { return bit + 1; }

  static constexpr Bits RowMask(int row) { return Bits{0xFF} << (8 * row); }
  static constexpr Bits kPlayable = ~Bits{0};
  // White moves up (towards square 1) and is crowned on the top row.
  static constexpr Bits PromotionRow(bool white) { return white ? RowMask(0) : RowMask(7); }

  static constexpr Bits kLeftColumn = 0x0101010101010101ull;
  static constexpr Bits kRightColumn = kLeftColumn << 7;

  template <Direction D>
  static constexpr Bits Step(Bits b) {
    static_assert(D >= kUp, "the full board has orthogonal steps only");
    if constexpr (D == kUp) return b >> 8;
    if constexpr (D == kDown) return b << 8;
    if constexpr (D == kLeft) return (b & ~kLeftColumn) >> 1;
    if constexpr (D == kRight) return (b & ~kRightColumn) << 1;
  }
  static constexpr Bits Step(Bits b, Direction d) {
    switch (d) {
      case kUp:
        return Step<kUp>(b);
      case kDown:
        return Step<kDown>(b);
      case kLeft:
        return Step<kLeft>(b);
      case kRight:
        return Step<kRight>(b);
      default:
        return 0;
    }
  }
};

}  // namespace draughts::rules
