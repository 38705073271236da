#pragma once

// The padded bit layout ("ghost squares", as in Scan for 10x10): the H = N/2
// playable squares of each row take consecutive bits, and one unused bit
// follows every second row. Then, on every row,
//   down-left  = +H      down-right = +H+1
//   up-right   = -H      up-left    = -(H+1)
// and a step off the left or right edge lands on a ghost bit, which is
// never empty nor occupied, so diagonal steps are plain shifts.
// Square s (1-based) of row r = (s-1)/H has bit (s-1) + r/2.
//
// Layout<N, Bits> is the compile-time description used by the templated
// move generator; Bits is uint64_t for 8x8 (35 bits) and 10x10 (54 bits)
// and Wide for 12x12 (77 bits).

#include <array>
#include <cstdint>

#include "rules/bitboard.h"
#include "rules/geometry.h"

namespace draughts::rules {

// Diagonal directions, then (Frisian captures) orthogonal ones: an
// orthogonal step goes to the next square of the same colour along the row
// or the column, two columns or two rows away.
enum Direction : int {
  kUpLeft = 0,
  kUpRight = 1,
  kDownLeft = 2,
  kDownRight = 3,
  kUp = 4,
  kDown = 5,
  kLeft = 6,
  kRight = 7,
};

constexpr Direction Reverse(Direction d) {
  return d < kUp ? static_cast<Direction>(3 - d) : static_cast<Direction>(d ^ 1);
}

template <int N, typename BitsT>
struct Layout {
  using Bits = BitsT;
  static constexpr BoardSize kBoard = static_cast<BoardSize>(N);
  static constexpr int kSize = N;
  static constexpr int kHalf = N / 2;
  static constexpr int kSquares = N * N / 2;
  static constexpr int kBits = kSquares + kHalf - 1;  // including ghosts
  static_assert(kBits <= static_cast<int>(8 * sizeof(Bits)));

  // 0-based square index -> bit.
  static constexpr int BitOfIndex(int index) { return index + index / kHalf / 2; }
  // 1-based square number -> bit.
  static constexpr int BitOfSquare(int square) { return BitOfIndex(square - 1); }

  // bit -> 1-based square number, 0 for ghosts.
  static constexpr std::array<std::uint8_t, kBits> kSquareOfBit = [] {
    std::array<std::uint8_t, kBits> table{};
    for (int i = 0; i < kSquares; ++i) table[BitOfIndex(i)] = static_cast<std::uint8_t>(i + 1);
    return table;
  }();
  static constexpr int SquareOfBit(int bit) { return kSquareOfBit[bit]; }

  static constexpr Bits RowMask(int row) {
    Bits m = 0;
    for (int i = row * kHalf; i < (row + 1) * kHalf; ++i) m |= BitAt<Bits>(BitOfIndex(i));
    return m;
  }
  static constexpr Bits kPlayable = [] {
    Bits m = 0;
    for (int i = 0; i < kSquares; ++i) m |= BitAt<Bits>(BitOfIndex(i));
    return m;
  }();
  // White moves up (towards square 1) and is crowned on the top row.
  static constexpr Bits PromotionRow(bool white) { return white ? RowMask(0) : RowMask(N - 1); }

  // The first and the last square of every row: a step along the row must
  // not leave it (the next bit is the next row's, not a ghost).
  static constexpr Bits kFirstOfRow = [] {
    Bits m = 0;
    for (int r = 0; r < N; ++r) m |= BitAt<Bits>(BitOfIndex(r * kHalf));
    return m;
  }();
  static constexpr Bits kLastOfRow = [] {
    Bits m = 0;
    for (int r = 0; r < N; ++r) m |= BitAt<Bits>(BitOfIndex(r * kHalf + kHalf - 1));
    return m;
  }();
  // Two rows hold 2 * kHalf squares and one ghost.
  static constexpr int kTwoRows = 2 * kHalf + 1;

  // Diagonal steps need no mask; orthogonal ones are masked to the board.
  template <Direction D>
  static constexpr Bits Step(Bits b) {
    if constexpr (D == kUpLeft) return b >> (kHalf + 1);
    if constexpr (D == kUpRight) return b >> kHalf;
    if constexpr (D == kDownLeft) return b << kHalf;
    if constexpr (D == kDownRight) return b << (kHalf + 1);
    if constexpr (D == kUp) return b >> kTwoRows;
    if constexpr (D == kDown) return (b << kTwoRows) & kPlayable;
    if constexpr (D == kLeft) return (b & ~kFirstOfRow) >> 1;
    if constexpr (D == kRight) return (b & ~kLastOfRow) << 1;
  }
  static constexpr Bits Step(Bits b, Direction d) {
    switch (d) {
      case kUpLeft:
        return Step<kUpLeft>(b);
      case kUpRight:
        return Step<kUpRight>(b);
      case kDownLeft:
        return Step<kDownLeft>(b);
      case kDownRight:
        return Step<kDownRight>(b);
      case kUp:
        return Step<kUp>(b);
      case kDown:
        return Step<kDown>(b);
      case kLeft:
        return Step<kLeft>(b);
      case kRight:
        return Step<kRight>(b);
    }
    return 0;
  }
};

using Layout8 = Layout<8, std::uint64_t>;
using Layout10 = Layout<10, std::uint64_t>;
using Layout12 = Layout<12, Wide>;

// Bits on the widest layout word of a square, for any board (the public
// Position stores Wide bit sets in the layout of its board).
// The full board (full_layout.h) has no ghosts: bit = square - 1.
constexpr int BitOfSquare(BoardSize b, int square) {
  if (AllSquaresPlayable(b)) return square - 1;
  const int half = BoardDimension(b) / 2;
  return (square - 1) + (square - 1) / half / 2;
}

}  // namespace draughts::rules
