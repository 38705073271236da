#pragma once

// Board sizes and the usual square numbering, independent of bitboards.
//
// Playable (dark) squares are numbered 1..N row by row from the top-left of
// the diagram, Black at the top: on every board the top row's first
// playable square is in the second column, so square 1 is b8 / b10 / b12
// and the bottom-left corner (a1) is playable. Rows and columns here are
// 0-based from the top-left of that diagram.
//
// The full 8x8 board (Turkish draughts) plays on all 64 squares, numbered
// the same way: row by row from the top-left of the diagram as White sees
// it, so 1 is a8, 8 is h8, 57 is a1 and 64 is h1; Black starts on 9-24
// and White on 41-56.

#include <cstdint>

namespace draughts::rules {

// The values of the diagonal boards are their dimension; kFull8x8 is the
// 8x8 board with every square in play.
enum class BoardSize : std::uint8_t { k8x8 = 8, k10x10 = 10, k12x12 = 12, kFull8x8 = 64 };

// Whether every square is in play (orthogonal games), not only the dark ones.
constexpr bool AllSquaresPlayable(BoardSize b) {
  return b == BoardSize::kFull8x8;
}
constexpr int BoardDimension(BoardSize b) {
  return AllSquaresPlayable(b) ? 8 : static_cast<int>(b);
}
// Numbered squares on one row.
constexpr int SquaresPerRow(BoardSize b) {
  return AllSquaresPlayable(b) ? BoardDimension(b) : BoardDimension(b) / 2;
}
constexpr int SquareCount(BoardSize b) {
  return BoardDimension(b) * SquaresPerRow(b);
}
constexpr bool IsValidSquare(BoardSize b, int square) {
  return square >= 1 && square <= SquareCount(b);
}

struct RowColumn {
  int row = 0;     // 0 = top row (Black's back rank)
  int column = 0;  // 0 = left column
  friend bool operator==(const RowColumn&, const RowColumn&) = default;
};

// Precondition: IsValidSquare(b, square).
constexpr RowColumn SquareToRowColumn(BoardSize b, int square) {
  if (AllSquaresPlayable(b)) return {(square - 1) / 8, (square - 1) % 8};
  const int half = BoardDimension(b) / 2;
  const int row = (square - 1) / half;
  const int index = (square - 1) % half;
  return {row, 2 * index + (row % 2 == 0 ? 1 : 0)};
}

// 0 when (row, column) is off the board or a light square of a diagonal board.
constexpr int RowColumnToSquare(BoardSize b, RowColumn rc) {
  const int n = BoardDimension(b);
  if (rc.row < 0 || rc.row >= n || rc.column < 0 || rc.column >= n) return 0;
  if (AllSquaresPlayable(b)) return rc.row * n + rc.column + 1;
  if ((rc.row + rc.column) % 2 == 0) return 0;
  return rc.row * (n / 2) + rc.column / 2 + 1;
}

}  // namespace draughts::rules
