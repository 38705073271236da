// Hand-made positions, one per rule. Every expected list was worked out on
// paper from the rules (the reasoning is in the comments; board diagrams
// with the square numbers are in geometry.h's convention: square 1 is b8 /
// b10 / b12, rows counted from the top). None was copied from the
// generator's output.
//
// 10x10:                              8x8:
//    .  1  .  2  .  3  .  4  .  5        .  1  .  2  .  3  .  4
//    6  .  7  .  8  .  9  . 10  .        5  .  6  .  7  .  8  .
//    . 11  . 12  . 13  . 14  . 15        .  9  . 10  . 11  . 12
//   16  . 17  . 18  . 19  . 20  .       13  . 14  . 15  . 16  .
//    . 21  . 22  . 23  . 24  . 25        . 17  . 18  . 19  . 20
//   26  . 27  . 28  . 29  . 30  .       21  . 22  . 23  . 24  .
//    . 31  . 32  . 33  . 34  . 35        . 25  . 26  . 27  . 28
//   36  . 37  . 38  . 39  . 40  .       29  . 30  . 31  . 32  .
//    . 41  . 42  . 43  . 44  . 45
//   46  . 47  . 48  . 49  . 50  .

#include <algorithm>

#include <gtest/gtest.h>

#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using ::draughts::rules::testing::FromFen;
using ::draughts::rules::testing::GetVariant;
using ::draughts::rules::testing::PathTexts;
using ::draughts::rules::testing::SetTexts;
using ::draughts::rules::testing::Sorted;

std::vector<std::string> Paths(std::string_view variant_id, std::string_view fen) {
  const Variant v = GetVariant(variant_id);
  return PathTexts(LegalMoves(v, FromFen(v, fen)));
}

std::vector<std::string> Sets(std::string_view variant_id, std::string_view fen) {
  const Variant v = GetVariant(variant_id);
  return SetTexts(LegalMoves(v, FromFen(v, fen)));
}

// --- majority capture, a man counts as much as a king --------------------

TEST(MajorityCapture, TwoMenBeatOneKing) {
  // 33x22 takes the black king on 28 (one piece). 47 jumps 42 to 38, then
  // 32 to 27 (33 is white, so no other way on): two men. Majority: only the
  // two-piece capture is legal, although the single one takes a king.
  EXPECT_EQ(Paths("international", "W:W33,47:BK28,42,32"), Sorted({"47x38x27 takes 42,32"}));
}

TEST(MajorityCapture, OneKingEqualsOneMan) {
  // Same without the man on 32: both captures take one piece, so both are
  // legal (a king is not worth more than a man).
  EXPECT_EQ(Paths("international", "W:W33,47:BK28,42"),
            Sorted({"33x22 takes 28", "47x38 takes 42"}));
}

TEST(MajorityCapture, FreeChoiceKeepsShorterCaptures) {
  // tutorial-8x8 (free choice). King 29: 25 is jumped; of the landings 22,
  // 18, 15, 11, 8, 4 only 18 continues (over 14 to 9 or 5), so the king must
  // land there. Man 24 takes 19 (one piece) and is still allowed.
  EXPECT_EQ(Paths("tutorial-8x8", "W:W24,K29:B25,14,19"),
            Sorted({"24x15 takes 19", "29x18x5 takes 25,14", "29x18x9 takes 25,14"}));
  // Under majority the one-piece capture disappears.
  Variant majority = GetVariant("tutorial-8x8");
  majority.capture_choice = CaptureChoice::kMajority;
  EXPECT_EQ(PathTexts(LegalMoves(majority, FromFen(majority, "W:W24,K29:B25,14,19"))),
            Sorted({"29x18x5 takes 25,14", "29x18x9 takes 25,14"}));
}

// --- flying kings: distance, landing choice, forced continuation ---------

TEST(FlyingKing, CapturesAtDistanceAndLandsAnywhereBeyond) {
  // King 46 slides over 41 and 37, jumps 32, may stop on 28, 23, 19, 14,
  // 10 or 5; nothing else to take from any of them.
  EXPECT_EQ(Paths("international", "W:WK46:B32"),
            Sorted({"46x10 takes 32", "46x14 takes 32", "46x19 takes 32", "46x23 takes 32",
                    "46x28 takes 32", "46x5 takes 32"}));
}

TEST(FlyingKing, OnlyLandingsThatContinue) {
  // 46 jumps 41; of the landings 37, 32, 28, 23, 19, 14, 10, 5 only 32 sees
  // another piece (27, up-left, with 21 and 16 empty behind it). The king
  // must land on 32, then on 21 or 16.
  EXPECT_EQ(Paths("international", "W:WK46:B41,27"),
            Sorted({"46x32x16 takes 41,27", "46x32x21 takes 41,27"}));
}

TEST(FlyingKing, SameDiagonalTwoPiecesIsOneMovePerDestination) {
  // 46 jumps 32, may land on 28 or 23 and from both take 19, landing on 14,
  // 10 or 5. International: landing on 28 or on 23 in between gives the same
  // move (same pieces, same origin and destination): three moves.
  EXPECT_EQ(Sets("international", "W:WK46:B32,19"),
            Sorted({"46x10 takes {19,32}", "46x14 takes {19,32}", "46x5 takes {19,32}"}));
}

TEST(FlyingKing, EveryPathIsAMoveInTutorialRules) {
  // The same shape on 8x8 (tutorial-8x8 counts every path): king 29 jumps
  // 25, may land on 22 or 18 before 15, then lands on 11, 8 or 4 beyond it
  // (from 22 and 18 nothing else is in reach): 2 x 3 = 6 moves.
  EXPECT_EQ(Paths("tutorial-8x8", "W:WK29:B25,15"),
            Sorted({"29x18x11 takes 25,15", "29x18x4 takes 25,15", "29x18x8 takes 25,15",
                    "29x22x11 takes 25,15", "29x22x4 takes 25,15", "29x22x8 takes 25,15"}));
}

TEST(FlyingKing, JumpedPiecesStayAndBlock) {
  // King 39 and four black men around 28 (22, 23, 32, 33), plus 44.
  // 39x50 takes 44 alone. 39 up-left: 33, landing 28 only (22 behind it).
  // From 28: over 22 to 17/11/6, over 23 to 19/14/10/5, over 32 to 37/41/46;
  // from none of these is anything left in reach: ten two-piece captures,
  // which beat 39x50. With pieces removed at once (Turkish rules) the king
  // could go 28x17 and back down over the empty 22, 28, 33, 39 to take 44;
  // here 22 and 33 stay on the board until the end and block that.
  EXPECT_EQ(Paths("international", "W:WK39:B22,23,32,33,44"),
            Sorted({"39x28x11 takes 33,22", "39x28x14 takes 33,23", "39x28x17 takes 33,22",
                    "39x28x19 takes 33,23", "39x28x10 takes 33,23", "39x28x37 takes 33,32",
                    "39x28x41 takes 33,32", "39x28x46 takes 33,32", "39x28x5 takes 33,23",
                    "39x28x6 takes 33,22"}));
}

// --- men and promotion ---------------------------------------------------

TEST(Promotion, ManPassingTheLastRowStaysAMan) {
  // International: 13 jumps 8 to 2 (White's promotion row), then backwards
  // over 7 to 11. The move ends on 11: no promotion.
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W13:B8,7");
  const MoveList moves = LegalMoves(v, p);
  EXPECT_EQ(PathTexts(moves), Sorted({"13x2x11 takes 8,7"}));
  ASSERT_EQ(moves.size(), 1u);
  const Position after = p.Play(moves[0]);
  EXPECT_EQ(after.PieceAt(11), (SetupPiece{11, Color::kWhite, PieceKind::kMan}));
  EXPECT_EQ(after.CountPieces(Color::kBlack), 0);
}

TEST(Promotion, ManEndingOnTheLastRowIsCrowned) {
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W13:B8");
  const MoveList moves = LegalMoves(v, p);
  EXPECT_EQ(PathTexts(moves), Sorted({"13x2 takes 8 =K"}));
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(p.Play(moves[0]).PieceAt(2), (SetupPiece{2, Color::kWhite, PieceKind::kKing}));
}

TEST(Promotion, CrowningEndsTheCaptureInTutorialRules) {
  // tutorial-8x8: 11 jumps 7 to 2 and is crowned; its men capture
  // backwards, so 2x9 over 6 would follow, but promotion ends the turn.
  EXPECT_EQ(Paths("tutorial-8x8", "W:W11:B7,6"), Sorted({"11x2 takes 7 =K"}));
  // With pass-through promotion the man would go on and not be crowned.
  Variant pass = GetVariant("tutorial-8x8");
  pass.promotion_in_capture = PromotionInCapture::kPassThrough;
  EXPECT_EQ(PathTexts(LegalMoves(pass, FromFen(pass, "W:W11:B7,6"))), Sorted({"11x2x9 takes 7,6"}));
}

TEST(Promotion, CrowningEndsAnEnglishCapture) {
  // English, Black to move (Black moves down). 23 jumps 26 to 30, Black's
  // crowning row: the new king could jump 25 to 21 but the move ends.
  EXPECT_EQ(Paths("english", "B:W26,25:B23"), Sorted({"23x30 takes 26 =K"}));
  // Same in tutorial rules, where a man could also have gone on backwards.
  EXPECT_EQ(Paths("tutorial-8x8", "B:W26,25:B23"), Sorted({"23x30 takes 26 =K"}));
}

TEST(MenDirection, EnglishMenDoNotCaptureBackwards) {
  // White man 18 with black men behind it on 22 and 23 (25 and 27 empty):
  // English men capture forward only, so only the two quiet moves remain.
  EXPECT_EQ(Paths("english", "W:W18:B22,23"), Sorted({"18-14", "18-15"}));
}

TEST(MenDirection, TutorialMenCaptureBackwards) {
  // Same position in tutorial rules: 18x25 over 22 and 18x27 over 23; from
  // 25 and 27 nothing more. Free choice: both.
  EXPECT_EQ(Paths("tutorial-8x8", "W:W18:B22,23"), Sorted({"18x25 takes 22", "18x27 takes 23"}));
}

TEST(MenDirection, BlackMenMoveDown) {
  // Black man 10 steps down to 14 or 15; 25 steps to 29 or 30, Black's
  // crowning row. The white man on 5 is out of reach.
  EXPECT_EQ(Paths("english", "B:W5:B10,25"), Sorted({"10-14", "10-15", "25-29 =K", "25-30 =K"}));
}

// --- mandatory capture off -----------------------------------------------

TEST(MandatoryCapture, OffAllowsQuietMovesBesideCaptures) {
  // White 22 can take 18 (landing 15) or step to 17; 30 steps to 25 or 26.
  Variant v = GetVariant("english");
  const std::string_view fen = "W:W22,30:B18";
  EXPECT_EQ(PathTexts(LegalMoves(v, FromFen(v, fen))), Sorted({"22x15 takes 18"}));
  v.mandatory_capture = false;
  const Position p = FromFen(v, fen);
  EXPECT_EQ(PathTexts(LegalMoves(v, p)), Sorted({"22-17", "22x15 takes 18", "30-25", "30-26"}));
  EXPECT_EQ(CountLegalMoves(v, p), 4);
  EXPECT_TRUE(HasCapture(v, p));
}

// --- duplicates: same set of pieces vs every path ------------------------

TEST(Duplicates, InternationalRingIsOneMove) {
  // Man 38 and black men 32, 22, 23, 33 around 28; 27, 18 and 29 empty.
  // Either way round the ring (38x27x18x29x38 or 38x29x18x27x38) takes the
  // same four men and ends on the origin, which counts as empty. The man
  // cannot then jump 32 or 33 a second time. One move.
  const Variant v = GetVariant("international");
  const MoveList moves = LegalMoves(v, FromFen(v, "W:W38:B32,22,23,33"));
  EXPECT_EQ(SetTexts(moves), Sorted({"38x38 takes {22,23,32,33}"}));
}

TEST(Duplicates, EnglishKingRingIsTwoMoves) {
  // English king 26 and black men 22, 14, 15, 23 (17, 10, 19 empty): round
  // the ring either way and back home. Every path is its own move.
  EXPECT_EQ(Paths("english", "W:WK26:B22,14,15,23"),
            Sorted({"26x17x10x19x26 takes 22,14,15,23", "26x19x10x17x26 takes 23,15,14,22"}));
}

TEST(Duplicates, TutorialManRingIsTwoMoves) {
  // The same ring taken by a tutorial-8x8 man (men capture backwards).
  EXPECT_EQ(Paths("tutorial-8x8", "W:W26:B22,14,15,23"),
            Sorted({"26x17x10x19x26 takes 22,14,15,23", "26x19x10x17x26 takes 23,15,14,22"}));
}

// --- 12x12 ---------------------------------------------------------------
//    .  1  .  2  .  3  .  4  .  5  .  6
//    7  .  8  .  9  . 10  . 11  . 12  .
//    . 13  . 14  . 15  . 16  . 17  . 18
//   19  . 20  . 21  . 22  . 23  . 24  .
//    . 25  . 26  . 27  . 28  . 29  . 30
//   31  . 32  . 33  . 34  . 35  . 36  .
//    . 37  . 38  . 39  . 40  . 41  . 42
//   43  . 44  . 45  . 46  . 47  . 48  .
//    . 49  . 50  . 51  . 52  . 53  . 54
//   55  . 56  . 57  . 58  . 59  . 60  .
//    . 61  . 62  . 63  . 64  . 65  . 66
//   67  . 68  . 69  . 70  . 71  . 72  .

TEST(Board12, EdgesAndLongDiagonal) {
  // Man 43 on the left edge: only 37. Man 42 on the right edge: only 36.
  // King 67 runs the whole long diagonal 61, 56, 50, 45, 39, 34, 28, 23, 17,
  // 12, 6 (11 squares).
  EXPECT_EQ(Paths("canadian", "W:W43,42,K67:B7,18"),
            Sorted({"42-36", "43-37", "67-12", "67-17", "67-23", "67-28", "67-34", "67-39", "67-45",
                    "67-50", "67-56", "67-6", "67-61"}));
}

TEST(Board12, NoCaptureOverTheEdge) {
  // King 67 takes 17 at distance and lands on 12 or 6. From 12, 18 is
  // adjacent down-right but on the edge: nothing beyond. Man 48 has black
  // 42 up-right, also on the edge. Capture is mandatory: two moves.
  EXPECT_EQ(Paths("canadian", "W:W48,K67:B17,18,42"), Sorted({"67x12 takes 17", "67x6 takes 17"}));
}

TEST(Board12, ManPassesThroughLastRow) {
  // Canadian = international rules on 12x12: man 15 takes 9 landing on 2
  // (top row), then backwards 8 landing on 13: it stays a man.
  EXPECT_EQ(Paths("canadian", "W:W15:B9,8"), Sorted({"15x2x13 takes 9,8"}));
}

// --- queries agree with the full generator -------------------------------

TEST(Queries, CapturesOnlyAndCounts) {
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W33,47,40:BK28,42");
  MoveList captures;
  GenerateCaptures(v, p, captures);
  EXPECT_EQ(PathTexts(captures), Sorted({"33x22 takes 28", "47x38 takes 42"}));
  EXPECT_TRUE(HasCapture(v, p));
  EXPECT_EQ(CountLegalMoves(v, p), 2);

  const Position quiet = FromFen(v, "W:W33:B3");
  GenerateCaptures(v, quiet, captures);
  EXPECT_TRUE(captures.empty());
  EXPECT_FALSE(HasCapture(v, quiet));
  EXPECT_EQ(CountLegalMoves(v, quiet), 2);  // 33-28, 33-29
}

TEST(Queries, NoPiecesNoMoves) {
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W:B3");
  EXPECT_TRUE(LegalMoves(v, p).empty());
  EXPECT_EQ(CountLegalMoves(v, p), 0);
}

TEST(Queries, WrongBoardGivesNoMoves) {
  const Variant intl = GetVariant("international");
  const Variant english = GetVariant("english");
  const Position p = Position::Initial(english);
  EXPECT_TRUE(LegalMoves(intl, p).empty());
  EXPECT_EQ(CountLegalMoves(intl, p), 0);
  EXPECT_FALSE(HasCapture(intl, p));
}

TEST(Queries, IsLegalMoveMatchesBySetForInternational) {
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W38:B32,22,23,33");
  const MoveList moves = LegalMoves(v, p);
  ASSERT_EQ(moves.size(), 1u);
  Move other_way = moves[0];
  std::reverse(other_way.landings.begin(), other_way.landings.begin() + 3);
  std::reverse(other_way.captured.begin(), other_way.captured.begin() + 4);
  EXPECT_TRUE(IsLegalMove(v, p, other_way));
  Move wrong = moves[0];
  wrong.captured[0] = 27;
  EXPECT_FALSE(IsLegalMove(v, p, wrong));
}

}  // namespace
}  // namespace draughts::rules
