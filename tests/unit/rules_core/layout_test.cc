#include "rules/layout.h"

#include <gtest/gtest.h>

#include "rules/geometry.h"

namespace draughts::rules {
namespace {

// Each diagonal step of the bit layout must agree with (row, column)
// arithmetic on every square, and stepping off the board must never land on
// a playable square (that would be a wrap-around).
template <class L>
void CheckLayout() {
  constexpr int dr[4] = {-1, -1, 1, 1};
  constexpr int dc[4] = {-1, 1, -1, 1};
  for (int s = 1; s <= L::kSquares; ++s) {
    const RowColumn rc = SquareToRowColumn(L::kBoard, s);
    ASSERT_EQ(RowColumnToSquare(L::kBoard, rc), s);
    ASSERT_EQ(L::SquareOfBit(L::BitOfSquare(s)), s);
    for (int d = 0; d < 4; ++d) {
      const int expected = RowColumnToSquare(L::kBoard, {rc.row + dr[d], rc.column + dc[d]});
      const auto stepped =
          L::Step(BitAt<typename L::Bits>(L::BitOfSquare(s)), static_cast<Direction>(d)) &
          L::kPlayable;
      if (expected == 0) {
        EXPECT_EQ(stepped, 0u) << "square " << s << " direction " << d;
      } else {
        ASSERT_NE(stepped, 0u) << "square " << s << " direction " << d;
        EXPECT_EQ(L::SquareOfBit(LowestBit(stepped)), expected);
      }
    }
  }
  EXPECT_EQ(PopCount(L::kPlayable), L::kSquares);
}

TEST(Layout, StepsMatchCoordinates8x8) {
  CheckLayout<Layout8>();
}
TEST(Layout, StepsMatchCoordinates10x10) {
  CheckLayout<Layout10>();
}
TEST(Layout, StepsMatchCoordinates12x12) {
  CheckLayout<Layout12>();
}

TEST(Geometry, UsualNumbering) {
  // Square 1 is b8/b10 (row 0, column 1); the bottom-left corner is 29 /
  // 46 / 67.
  EXPECT_EQ(SquareToRowColumn(BoardSize::k10x10, 1), (RowColumn{0, 1}));
  EXPECT_EQ(SquareToRowColumn(BoardSize::k10x10, 46), (RowColumn{9, 0}));
  EXPECT_EQ(SquareToRowColumn(BoardSize::k8x8, 29), (RowColumn{7, 0}));
  EXPECT_EQ(SquareToRowColumn(BoardSize::k12x12, 67), (RowColumn{11, 0}));
  EXPECT_EQ(RowColumnToSquare(BoardSize::k8x8, {0, 0}), 0);  // light square
  EXPECT_EQ(RowColumnToSquare(BoardSize::k8x8, {8, 1}), 0);  // off the board
  EXPECT_FALSE(IsValidSquare(BoardSize::k8x8, 33));
  EXPECT_TRUE(IsValidSquare(BoardSize::k12x12, 72));
}

TEST(Bitboard, WideHelpers) {
  const Wide b = BitAt<Wide>(3) | BitAt<Wide>(70);
  EXPECT_EQ(PopCount(b), 2);
  EXPECT_EQ(LowestBit(b), 3);
  EXPECT_EQ(LowestBit(BitAt<Wide>(76)), 76);
  Wide c = b;
  EXPECT_EQ(PopLowest(c), BitAt<Wide>(3));
  EXPECT_EQ(c, BitAt<Wide>(70));
}

}  // namespace
}  // namespace draughts::rules
