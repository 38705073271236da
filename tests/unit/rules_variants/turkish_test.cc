// Turkish rules on hand-made positions. The full 8x8 board is numbered row
// by row from the top-left as White sees it: row r (0 = Black's back row)
// holds squares 8r+1..8r+8, column c is square 8r+c+1. White moves up
// (towards 1) and is crowned on 1-8; Black moves down, crowned on 57-64.
// Expected moves are derived by hand in the comments.

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using testing::FromFen;
using testing::GetVariant;
using testing::PathTexts;
using Texts = std::vector<std::string>;

Texts Moves(const Variant& v, std::string_view fen) {
  return PathTexts(LegalMoves(v, FromFen(v, fen)));
}
Texts Moves(std::string_view fen) {
  return Moves(GetVariant("turkish"), fen);
}

TEST(Turkish, StartPosition) {
  const Variant v = GetVariant("turkish");
  const Position start = Position::Initial(v);
  // Second and third rows from each side; the back rows stay empty.
  EXPECT_EQ(FormatFen(start), "W:W41-56:B9-24");
  EXPECT_EQ(start.CountPieces(Color::kWhite), 16);
  EXPECT_EQ(start.CountPieces(Color::kBlack), 16);
  EXPECT_EQ(v.MenPerSide(), 16);
  // Only the front men (41-48) move, one square up; sideways is blocked.
  EXPECT_EQ(PathTexts(LegalMoves(v, start)),
            (Texts{"41-33", "42-34", "43-35", "44-36", "45-37", "46-38", "47-39", "48-40"}));
}

TEST(Turkish, MenMoveForwardAndSideways) {
  // Man 36 (row 4, column 3): up to 28, left to 35, right to 37; never
  // back (44) nor diagonally.
  EXPECT_EQ(Moves("W:W36:B1"), (Texts{"36-28", "36-35", "36-37"}));
  // A black man moves down the board.
  EXPECT_EQ(Moves("B:W64:B20"), (Texts{"20-19", "20-21", "20-28"}));
  // On the left column there is no left.
  EXPECT_EQ(Moves("W:W33:B8"), (Texts{"33-25", "33-34"}));
}

TEST(Turkish, MenCaptureForwardAndSidewaysNotBackwardsNorDiagonally) {
  // 37 (right of 36) is taken by jumping to 38; 44 is behind and 27 on a
  // diagonal: neither can be taken.
  EXPECT_EQ(Moves("W:W36:B37,44,27"), (Texts{"36x38 takes 37"}));
  // Forward over 28 to 20.
  EXPECT_EQ(Moves("W:W36:B28"), (Texts{"36x20 takes 28"}));
  // Capturing is compulsory: with the capture there, no quiet move.
  EXPECT_EQ(Moves("W:W36,50:B35"), (Texts{"36x34 takes 35"}));
}

TEST(Turkish, MajorityCaptureCountsMenAndKingsAlike) {
  // Left: the king 35, one piece. Up: the men 28 and 12 (landing on 20,
  // then 4), two pieces. The two men must be taken, and the man ends on
  // the last row, crowned.
  EXPECT_EQ(Moves("W:W36:BK35,28,12"), (Texts{"36x20x4 takes 28,12 =K"}));
  // One against one: free choice.
  EXPECT_EQ(Moves("W:W36:BK35,28"), (Texts{"36x20 takes 28", "36x34 takes 35"}));
}

TEST(Turkish, FlyingKingMovesAlongRowsAndColumns) {
  // King 28 (row 3, column 3) on an otherwise empty board but for the
  // black man 1: 3 squares up, 4 down, 3 left, 4 right.
  const Texts moves = Moves("W:WK28:B1");
  EXPECT_EQ(moves.size(), 14u);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "28-4"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "28-60"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "28-25"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "28-32"), moves.end());
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "28-19"), moves.end());  // diagonal
}

TEST(Turkish, FlyingKingCapturesFromAfarAndLandsAnywhereBeyond) {
  // King 57 (bottom-left corner) up the column: 49, 41 empty, 33 black,
  // then 25, 17, 9, 1 are all possible landings.
  EXPECT_EQ(Moves("W:WK57:B33"),
            (Texts{"57x1 takes 33", "57x17 takes 33", "57x25 takes 33", "57x9 takes 33"}));
}

TEST(Turkish, PiecesLeaveAsTheyAreJumped) {
  // King 35 (row 4, col 2). Up over 27 to 19 (11 blocks going further);
  // right over 21 to 22; down over 38 to 46; left over 44 to 43; then up
  // the column of the first piece: 35 (its origin), 27 (taken, gone), 19
  // (crossed before) are free, so it takes 11 and lands on 3. Five pieces.
  // Taking 11 straight away from 19 (to 3) gives only two.
  EXPECT_EQ(Moves("W:WK35:B27,21,38,44,11"), (Texts{"35x19x22x46x43x3 takes 27,21,38,44,11"}));
  // Were the pieces removed only at the end, 27 would block the last leg:
  // four pieces, the last landing anywhere on 43, 42, 41.
  Variant at_end = GetVariant("turkish");
  at_end.captured_removal = CapturedRemoval::kAtEnd;
  EXPECT_EQ(Moves(at_end, "W:WK35:B27,21,38,44,11"),
            (Texts{"35x19x22x46x41 takes 27,21,38,44", "35x19x22x46x42 takes 27,21,38,44",
                   "35x19x22x46x43 takes 27,21,38,44"}));
}

TEST(Turkish, AKingMayNotTurnStraightBack) {
  // King 36 between 34 and 38 on one row. Over 38 (landing 39 or 40) it
  // may not come back along the row to take 34, nor the other way round:
  // one piece each.
  EXPECT_EQ(Moves("W:WK36:B34,38"), (Texts{"36x33 takes 34", "36x39 takes 38", "36x40 takes 38"}));
  // With the 180-degree turn allowed both are taken.
  Variant turning = GetVariant("turkish");
  turning.king_may_turn_back = true;
  EXPECT_EQ(Moves(turning, "W:WK36:B34,38"),
            (Texts{"36x33x39 takes 34,38", "36x33x40 takes 34,38", "36x39x33 takes 38,34",
                   "36x40x33 takes 38,34"}));
}

TEST(Turkish, AManReachingTheLastRowMidCaptureGoesOnAsAMan) {
  // Man 19 jumps 11 to 3 (the last row), then 4 sideways to 5, and is
  // crowned at the end of the move. As a man it cannot take 13 (below 5,
  // backwards); a man crowned at once would go on as a king down the
  // column over 13.
  EXPECT_EQ(Moves("W:W19:B11,4,13"), (Texts{"19x3x5 takes 11,4 =K"}));
  Variant as_king = GetVariant("turkish");
  as_king.promotion_in_capture = PromotionInCapture::kContinuesAsKing;
  // Crowned on 3, it flies right over 4 and must stop on 5 (the only
  // landing that goes on), then down over 13 to any of 21..61.
  const Texts crowned = Moves(as_king, "W:W19:B11,4,13");
  ASSERT_EQ(crowned.size(), 6u);
  EXPECT_EQ(crowned.front(), "19x3x5x21 takes 11,4,13 =K");
}

TEST(Turkish, SameCaptureByAnotherPathIsAnotherMove) {
  // Every sequence of landings is its own move (the published counts'
  // convention). King 36 takes 38 and may stop on 39 or 40: from 39 it
  // goes up over 31 (to 23, 15 or 7), from 40 over 32 (to 24, 16 or 8).
  const Texts moves = Moves("W:WK36:B38,31,32");
  EXPECT_EQ(moves, (Texts{"36x39x15 takes 38,31", "36x39x23 takes 38,31", "36x39x7 takes 38,31",
                          "36x40x16 takes 38,32", "36x40x24 takes 38,32", "36x40x8 takes 38,32"}));
}

TEST(Turkish, NotationFenAndPdnRoundTrip) {
  const Variant v = GetVariant("turkish");
  const Position p = FromFen(v, "W:WK35:B27,21,38,44,11");
  const MoveList moves = LegalMoves(v, p);
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(FormatMove(moves, moves[0]), "35x3");
  EXPECT_EQ(FormatMovePath(moves[0]), "35x19x22x46x43x3");
  EXPECT_EQ(FormatFen(p.Play(moves[0])), "B:WK3:B");
  // Squares past 64 are refused.
  EXPECT_FALSE(ParseFen(v, "W:W65:B1").ok());

  // A short game through PDN with GameType 30.
  // 1. 46-38 22-30: now 38 jumps 30 (to 22, just vacated) and 14 (to 6).
  const std::string pdn = "[GameType \"30\"]\n1. 46-38 22-30 2. 38x6 *\n";
  auto games = ReadPdn(pdn);
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 1u);
  auto variant = VariantForPdn((*games)[0], GetVariant("international"));
  ASSERT_TRUE(variant.ok());
  EXPECT_EQ(variant->id, "turkish");
  auto record = ReplayPdnGame((*games)[0], GetVariant("international"));
  ASSERT_TRUE(record.ok()) << record.error().ToString();
  const PdnGame written = ToPdnGame(*record);
  auto again = ReplayPdnGame(written, GetVariant("international"));
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_EQ(again->position(), record->position());
  EXPECT_EQ(record->position().CountKings(Color::kWhite), 1);
  EXPECT_EQ(record->position().CountPieces(Color::kBlack), 14);
  ASSERT_TRUE(written.FindTag("GameType") != nullptr);
  EXPECT_EQ(*written.FindTag("GameType"), "30");
}

}  // namespace
}  // namespace draughts::rules
