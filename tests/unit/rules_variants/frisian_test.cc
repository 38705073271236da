// Frisian rules on hand-made positions (10x10: row r holds squares
// 5r+1..5r+5, in columns 1,3,5,7,9 on even rows and 0,2,4,6,8 on odd rows;
// an orthogonal neighbour is the next square of the same colour, two
// columns or two rows away).

#include <gtest/gtest.h>

#include "rules/game.h"
#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using testing::FromFen;
using testing::GetVariant;
using testing::SetTexts;
using Texts = std::vector<std::string>;

Texts Moves(std::string_view id, std::string_view fen) {
  const Variant v = GetVariant(id);
  return SetTexts(LegalMoves(v, FromFen(v, fen)));
}

TEST(Frisian, MenCaptureAlongTheRow) {
  // Man 33 (row 6, col 5) jumps 32 (col 3) to 31 (col 1).
  EXPECT_EQ(Moves("frisian", "W:W33:B32"), (Texts{"33x31 takes {32}"}));
  EXPECT_EQ(Moves("international", "W:W33:B32"), (Texts{"33-28", "33-29"}));
}

TEST(Frisian, AKingIsWorthMoreThanAMan) {
  // Man 33 takes the king 32 sideways, or the man 23 upwards (to 13).
  EXPECT_EQ(Moves("frisian", "W:W33:BK32,23"), (Texts{"33x31 takes {32}"}));
}

TEST(Frisian, TwoMenAreWorthMoreThanAKing) {
  // Upwards it goes on from 13 over 8 to 2 (crowned there): two men.
  EXPECT_EQ(Moves("frisian", "W:W33:BK32,23,8"), (Texts{"33x2 takes {8,23} =K"}));
}

TEST(Frisian, OnEqualValueTheKingCaptures) {
  // Man 33 can take 32 (to 31); king 50 can take 40 up its column, landing
  // on 30, 20 or 10 (19 blocks the way back to 32 from there). One man
  // each: the king must.
  EXPECT_EQ(Moves("frisian", "W:W19,33,K50:B32,40"),
            (Texts{"50x10 takes {40}", "50x20 takes {40}", "50x30 takes {40}"}));
}

TEST(Frisian, KingsMoveOnlyDiagonally) {
  // King 28 (row 5, col 4) alone: its quiet moves are the diagonal ones.
  const Variant v = GetVariant("frisian");
  for (const Move& m : LegalMoves(v, FromFen(v, "W:WK28:B1"))) {
    const RowColumn a = SquareToRowColumn(v.board, m.from);
    const RowColumn b = SquareToRowColumn(v.board, m.to);
    EXPECT_EQ(std::abs(a.row - b.row), std::abs(a.column - b.column)) << m.to;
  }
}

TEST(Frisian, AKingMovesAtMostThreeTimesInARowWhileMenRemain) {
  const Variant v = GetVariant("frisian");
  GameRecord game(v, FromFen(v, "W:WK46,45:B1,2"));
  for (std::string_view move : {"46-41", "1-7", "41-46", "2-8", "46-41", "7-12"}) {
    auto next = game.Play(move);
    ASSERT_TRUE(next.ok()) << move << ": " << next.error().ToString();
    game = *next;
  }
  EXPECT_EQ(game.position().king_run(Color::kWhite), (Position::KingRun{41, 3}));
  // The king on 41 may not move a fourth time: only the man may.
  EXPECT_EQ(SetTexts(game.legal_moves()), (Texts{"45-40"}));
  // Another piece's move frees it.
  game = *game.Play("45-40");
  game = *game.Play("8-13");
  EXPECT_TRUE(game.Play("41-46").ok());
}

TEST(Frisian, NoLimitWithKingsOnly) {
  const Variant v = GetVariant("frisian");
  GameRecord game(v, FromFen(v, "W:WK46:B1,2"));
  for (std::string_view move : {"46-41", "1-7", "41-46", "2-8", "46-41", "7-12"})
    game = *game.Play(move);
  EXPECT_TRUE(game.Play("41-46").ok());
}

}  // namespace
}  // namespace draughts::rules
