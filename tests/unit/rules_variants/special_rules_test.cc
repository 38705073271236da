// Hand-made positions for the rules that set the new rule sets apart. The
// expected moves are worked out by hand in the comments (squares as in
// RULES.md: 8x8 row r from the top holds squares 4r+1..4r+4, in columns
// 1,3,5,7 on even rows and 0,2,4,6 on odd rows).

#include <gtest/gtest.h>

#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using testing::FromFen;
using testing::GetVariant;
using testing::IdentityTexts;

std::vector<std::string> Moves(std::string_view id, std::string_view fen) {
  const Variant v = GetVariant(id);
  return IdentityTexts(v, LegalMoves(v, FromFen(v, fen)));
}

using Texts = std::vector<std::string>;

// White man 11 (row 2, col 5) takes 7 and lands on 2, on the last row.
// From 2 (row 0, col 3) the diagonal down-left runs 6, 9, 13: 6 is empty,
// 9 black, 13 empty.
constexpr std::string_view kCrownAndGoOn = "W:W11:B7,9,28";

TEST(Russian, ManCrownedMidCaptureGoesOnAsAKing) {
  // Crowned on 2, the new king flies over 6 and takes 9, landing on 13.
  EXPECT_EQ(Moves("russian", kCrownAndGoOn), (Texts{"11x13 takes 7,9 =K"}));
}

TEST(Pool, ManCrownedOnlyWhereTheMoveEnds) {
  // As a man on 2 it cannot take 9 (not adjacent): the move ends, crowned.
  EXPECT_EQ(Moves("pool", kCrownAndGoOn), (Texts{"11x2 takes 7 =K"}));
}

// White man 11 takes 7 landing on 2; black 6 is adjacent to 2 with 9 empty
// behind it.
constexpr std::string_view kPassThrough = "W:W11:B6,7,28";

TEST(Pool, ManThatCanJumpBackFromTheKingRowStaysAMan) {
  // APCA rule 16: it must go on, backwards, and is not crowned.
  EXPECT_EQ(Moves("pool", kPassThrough), (Texts{"11x9 takes 7,6"}));
}

TEST(Brazilian, ManPassesThroughTheLastRow) {
  EXPECT_EQ(Moves("brazilian", kPassThrough), (Texts{"11x9 takes {6,7}"}));
}

TEST(Russian, CrownedManMayLandAnywhereBeyond) {
  // A king from 2: over 6 it may stop on 9 or 13 (nothing to take after).
  EXPECT_EQ(Moves("russian", kPassThrough), (Texts{"11x13 takes 7,6 =K", "11x9 takes 7,6 =K"}));
}

// Two captures: 22x15x6 takes 18 and 10; 31x24 takes 27 alone.
constexpr std::string_view kTwoOrOne = "W:W22,31:B10,18,27";

TEST(Brazilian, MajorityCapture) {
  EXPECT_EQ(Moves("brazilian", kTwoOrOne), (Texts{"22x6 takes {10,18}"}));
}

TEST(Russian, FreeChoiceAmongCaptures) {
  EXPECT_EQ(Moves("russian", kTwoOrOne), (Texts{"22x6 takes 18,10", "31x24 takes 27"}));
}

TEST(Pool, FreeChoiceAmongCaptures) {
  EXPECT_EQ(Moves("pool", kTwoOrOne), (Texts{"22x6 takes 18,10", "31x24 takes 27"}));
}

TEST(Russian, StopsOfAKingBetweenTwoPiecesOnALineAreOneMove) {
  // King 29 (row 7, col 0) up the long diagonal 25, 22, 18, 15, 11, 8, 4:
  // black on 22 and 11. After 22 it may stop on 18 or 15 and then takes 11,
  // landing on 8 or 4: two moves, not four.
  const Variant v = GetVariant("russian");
  const MoveList moves = LegalMoves(v, FromFen(v, "W:WK29:B11,22"));
  EXPECT_EQ(IdentityTexts(v, moves), (Texts{"29x4 takes 22,11", "29x8 takes 22,11"}));
  // Every stop is still accepted when the move is checked.
  Move via_15 = moves[0];
  via_15.landings[0] = 15;
  EXPECT_TRUE(IsLegalMove(v, FromFen(v, "W:WK29:B11,22"), via_15));
}

// ---- Italian, Spanish, Czech: who must capture what --------------------

TEST(Italian, MenMayNotTakeKings) {
  // White man 22 faces a black king on 18 with 15 empty behind it.
  EXPECT_EQ(Moves("italian", "W:W22:BK18,1"), (Texts{"22-17"}));
  EXPECT_EQ(Moves("english", "W:W22:BK18,1"), (Texts{"22x15 takes 18"}));
}

// Man 22 can take 18 (to 15); king 26 can take 23 (to 19): one piece each.
constexpr std::string_view kManOrKing = "W:W22,K26:B18,23";

TEST(Italian, ACaptureByAKingComesFirst) {
  EXPECT_EQ(Moves("italian", kManOrKing), (Texts{"26x19 takes {23}"}));
}

TEST(Spanish, KingOrManMayCaptureWhenTheyTakeAsMany) {
  // No with-king rule; the flying king may stop on 19, 16 or 12.
  EXPECT_EQ(Moves("spanish", kManOrKing), (Texts{"22x15 takes {18}", "26x12 takes {23}",
                                                 "26x16 takes {23}", "26x19 takes {23}"}));
}

TEST(Czech, AKingThatCanCaptureMust) {
  EXPECT_EQ(Moves("czech", kManOrKing),
            (Texts{"26x12 takes {23}", "26x16 takes {23}", "26x19 takes {23}"}));
}

TEST(Czech, OtherwiseFreeChoice) {
  // Two men: 22 takes 18 and 10 (to 6), 31 takes 27 alone.
  EXPECT_EQ(Moves("czech", "W:W22,31:B10,18,27"),
            (Texts{"22x6 takes {10,18}", "31x24 takes {27}"}));
}

// King 26: up-left over the black king 22 (to 17), up-right over the man 23.
constexpr std::string_view kKingOrMan = "W:WK26:BK22,23";

TEST(Italian, TheMostKingsTaken) {
  EXPECT_EQ(Moves("italian", kKingOrMan), (Texts{"26x17 takes {22}"}));
}

TEST(Spanish, TheMostKingsTaken) {
  // The flying king may stop on 17 or 13 beyond the king.
  EXPECT_EQ(Moves("spanish", kKingOrMan), (Texts{"26x13 takes {22}", "26x17 takes {22}"}));
}

TEST(Italian, TheKingMetFirst) {
  // King 27 takes two either way: 23 (man) then 14 (king), to 9; or 24
  // (king) then 16 (man), to 11. Same count, both by a king, one king each:
  // the one meeting the king first.
  EXPECT_EQ(Moves("italian", "W:WK27:B23,K14,K24,16"), (Texts{"27x11 takes {16,24}"}));
  Variant no_order = GetVariant("italian");
  no_order.capture_priority.earliest_king = false;
  const Position p = FromFen(no_order, "W:WK27:B23,K14,K24,16");
  EXPECT_EQ(IdentityTexts(no_order, LegalMoves(no_order, p)),
            (Texts{"27x11 takes {16,24}", "27x9 takes {14,23}"}));
}

// ---- Thai: kings stop right behind, pieces leave at once ---------------

TEST(Thai, KingLandsRightBehindThePieceItTakes) {
  // King 29 up the long diagonal (25, 22, 18, 15, 11, 8, 4): black 18 and
  // 8. It must stop on 15, then takes 8 and stops on 4.
  const Variant thai = GetVariant("thai");
  const MoveList moves = LegalMoves(thai, FromFen(thai, "W:WK29:B18,8"));
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(testing::PathText(moves[0]), "29x15x4 takes 18,8");
}

TEST(Thai, KingMayTurnBackOverTheSquaresItCleared) {
  // King 18 between black 15 (up-right) and 22 (down-left). Having taken
  // one, it turns back across the emptied square and its own origin and
  // takes the other.
  EXPECT_EQ(Moves("thai", "W:WK18:B15,22"), (Texts{"18x11 takes {15,22}", "18x25 takes {15,22}"}));
  // Where pieces stay until the end, the way back is blocked.
  EXPECT_EQ(Moves("czech", "W:WK18:B15,22"),
            (Texts{"18x11 takes {15}", "18x25 takes {22}", "18x29 takes {22}", "18x4 takes {15}",
                   "18x8 takes {15}"}));
}

TEST(Thai, EightMenOnTwoRows) {
  const Variant thai = GetVariant("thai");
  EXPECT_EQ(thai.MenPerSide(), 8);
  const Position start = Position::Initial(thai);
  EXPECT_EQ(start.CountPieces(Color::kWhite), 8);
  EXPECT_FALSE(start.PieceAt(24).has_value());
  EXPECT_TRUE(start.PieceAt(25).has_value());
}

}  // namespace
}  // namespace draughts::rules
