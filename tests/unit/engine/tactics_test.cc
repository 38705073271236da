// Forced wins the search must find. Each expected move is worked out from
// the rules in the comment above it, and every "forced" reply is checked
// against the rules library (it is the only legal move), so a change in the
// move generator cannot silently turn a test into a different position.
//
// Square geometry used below (rules/geometry.h): squares are numbered row
// by row from the top-left; on 10x10 square s is row (s-1)/5, and the
// playable column is 2*((s-1)%5)+1 on even rows, 2*((s-1)%5) on odd rows;
// on 8x8 the same with 4 squares a row. White (English: Red) moves up.

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using testing::Path;
using testing::RecordOrDie;
using testing::VariantOrDie;

// Plays `line` from `fen` and checks that every odd ply (the defender's)
// was the only legal move.
void ExpectForcedReplies(const rules::Variant& variant, const std::string& fen,
                         const std::vector<std::string>& line) {
  rules::GameRecord record = RecordOrDie(variant, fen);
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (i % 2 == 1) {
      ASSERT_EQ(record.legal_moves().size(), 1u) << "reply " << line[i] << " is not forced";
      EXPECT_EQ(Path(record.legal_moves().front()), line[i]);
    }
    auto next = record.Play(line[i]);
    ASSERT_TRUE(next.ok()) << line[i] << ": " << next.error().ToString();
    record = *next;
  }
}

// International, White to move. White: 26 27 28 32 34 36 37 38 43,
// Black: 3 4 8 15 16 17 18 19 20 23. A double sacrifice:
//   34-29!  the man on 23 must take it: 23x34 (the only capture; 29 is
//           adjacent to 23 and 34 behind it is now empty).
//   27-21!  now 16 must take: 16x27 (again the only capture).
//   32x21x12x23x14x25: the man on 32 jumps 27 (landing 21), 17 (12),
//           18 (23, emptied by the first capture), 19 (14) and 20 (25).
// White gives two men and takes five. The usual quiet moves win nothing.
TEST(EngineTactics, InternationalDoubleSacrificeShot) {
  const rules::Variant variant = VariantOrDie("international");
  const std::string fen = "W:W26-28,32,34,36-38,43:B3-4,8,15-20,23";
  ExpectForcedReplies(variant, fen, {"34-29", "23x34", "27-21", "16x27"});

  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, fen), {.max_depth = 6});
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(Path(result->best), "34-29");
  ASSERT_GE(result->info.pv.size(), 5u);
  EXPECT_EQ(Path(result->info.pv[4]), "32x21x12x23x14x25");
  EXPECT_GE(result->info.score_cp, 100);  // at least a man up after the dust settles
}

// International, White to move: 32-28! 23x32 (forced; 41 is occupied so
// the capture cannot go on over 37) 37x28x17 takes 32 and 22: two for one.
TEST(EngineTactics, InternationalTwoForOne) {
  const rules::Variant variant = VariantOrDie("international");
  const std::string fen = "W:W32,33,37,41:B3,4,22,23";
  ExpectForcedReplies(variant, fen, {"32-28", "23x32"});
  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, fen), {.max_depth = 4});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Path(result->best), "32-28");
  EXPECT_GE(result->info.score_cp, 100);
}

// English checkers, Black (moving down) to move. Red: 22 23 27 32,
// Black: 5 9 14 15.
//   14-18!  sacrifice: Red must capture (English captures are compulsory)
//           and only 23x14 is possible (22 cannot jump 18: 15 is occupied).
//           Red's man cannot go on from 14 (5 is occupied, 10 empty).
//   9x18x25 the double jump: 9 over 14 to 18, over 22 to 25.
// Black comes out a man up with a man on 25 about to crown. Every other
// move loses a man (14-17 and 15-18 and 15-19 hang a piece) or wins
// nothing (9-13).
TEST(EngineTactics, EnglishSacrificeForDoubleJump) {
  const rules::Variant variant = VariantOrDie("english");
  const std::string fen = "B:W22,23,27,32:B5,9,14,15";
  ExpectForcedReplies(variant, fen, {"14-18", "23x14", "9x18x25"});
  rules::GameRecord after = RecordOrDie(variant, fen, {"14-18", "23x14"});
  ASSERT_EQ(after.legal_moves().size(), 1u);  // the double jump is Black's only move

  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, fen), {.max_depth = 6});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Path(result->best), "14-18");
  EXPECT_GE(result->info.score_cp, 80);
}

// International, king against a man, White to move: WK42, B16. The man on
// the edge square 16 has one move, 16-21. The king wins at once if it stands
// on one of the two diagonals through 21 with the square beyond 21 free:
// 26-21-17-12-8-3 (from 26, landing on 17..3) or 49-43-38-32-27-21-16 (from
// 38, landing on 16 once the man has left it). From 42 the king reaches 26
// and 38 and nothing else on those diagonals: mate in three plies (Black
// has no piece left).
TEST(EngineTactics, KingCatchesLoneMan) {
  const rules::Variant variant = VariantOrDie("international");
  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, "W:WK42:B16"), {.max_depth = 8});
  ASSERT_TRUE(result.ok());
  const std::string best = Path(result->best);
  EXPECT_TRUE(best == "42-26" || best == "42-38") << best;
  EXPECT_EQ(result->info.score_cp, kMateScore - 3);
  EXPECT_EQ(MatePlies(result->info.score_cp), 3);
}

// English, Red to move with three kings and a man against a lone king on
// 10. 18-14 offers the king on 14: Black's only move is 10x17 (the king
// jumps 14 and lands on 17), and then 22x13 takes it: Black has nothing
// left. A mate in three plies that a material-greedy search would miss
// (it gives a king away first).
TEST(EngineTactics, KingSacrificeEndsEnglishEnding) {
  const rules::Variant variant = VariantOrDie("english");
  const std::string fen = "W:WK18,K19,K22,26:BK10";
  ExpectForcedReplies(variant, fen, {"18-14", "10x17"});
  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, fen), {.max_depth = 6});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Path(result->best), "18-14");
  EXPECT_EQ(result->info.score_cp, kMateScore - 3);
}

// The same ending seen from the losing side: the search must know it is
// lost (a mate score against it), not just a few men down.
TEST(EngineTactics, LosingSideSeesForcedLoss) {
  const rules::Variant variant = VariantOrDie("english");
  Engine engine(8);
  auto result = engine.Search(RecordOrDie(variant, "B:WK18,K19,K22,26:BK10"), {.max_depth = 12});
  ASSERT_TRUE(result.ok());
  EXPECT_LT(MatePlies(result->info.score_cp), 0) << result->info.score_cp;
}

// Playing a won king-and-man ending out, engine against engine, ends in a
// win for the stronger side, on every board with flying kings.
TEST(EngineTactics, ConvertsWonEndingAgainstItself) {
  struct Case {
    const char* variant;
    const char* fen;
    rules::GameStatus winner;
  };
  for (const Case& c : {Case{"international", "W:WK42:B16", rules::GameStatus::kWhiteWins},
                        Case{"tutorial-8x8", "W:WK29:B5", rules::GameStatus::kWhiteWins},
                        Case{"canadian", "B:W60:BK1", rules::GameStatus::kBlackWins}}) {
    const rules::Variant variant = VariantOrDie(c.variant);
    rules::GameRecord record = RecordOrDie(variant, c.fen);
    Engine engine(8);
    for (int ply = 0; ply < 40 && !record.is_over(); ++ply) {
      auto result = engine.Search(record, {.max_depth = 8});
      ASSERT_TRUE(result.ok()) << result.error().ToString();
      auto next = record.Play(result->best);
      ASSERT_TRUE(next.ok());
      record = *next;
    }
    EXPECT_EQ(record.outcome().status, c.winner)
        << c.variant << " " << c.fen << ": " << record.outcome().ToString();
  }
}

}  // namespace
}  // namespace draughts::engine
