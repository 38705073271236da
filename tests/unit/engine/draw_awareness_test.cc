// The search knows the draw rules: a lost side steers into a repetition or
// a no-progress draw, a winning side stays out of them, and a position
// close to a draw rule is scored closer to a draw.

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "rules/move_notation.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using testing::Path;
using testing::PositionOrDie;
using testing::RecordOrDie;
using testing::VariantOrDie;

// English. Red has three kings and a man against Black's lone king: lost
// for Black. The kings shuffle, Red 25<->21 and Black 7<->3, far from each
// other. The record starts with Red to move and Black's king on 7 (call it
// P); after eight plies P has occurred twice and Black, to move with its
// king on 3, can play 3-7 to bring P about a third time: a draw by
// repetition. Its only other move, 3-8, plays on in a lost ending.
constexpr char kShuffleStart[] = "W:WK25,28,K31,K32:BK7";
const std::vector<std::string> kShuffle = {"25-21", "7-3", "21-25", "3-7", "25-21", "7-3", "21-25"};

TEST(EngineDraws, LosingSideTakesRepetitionDraw) {
  const rules::Variant variant = VariantOrDie("english");
  const rules::GameRecord record = RecordOrDie(variant, kShuffleStart, kShuffle);
  ASSERT_FALSE(record.is_over());
  ASSERT_EQ(record.legal_moves().size(), 2u);  // 3-7 and 3-8

  Engine engine(8);
  auto result = engine.Search(record, {.max_depth = 8});
  ASSERT_TRUE(result.ok()) << result.error().ToString();
  EXPECT_EQ(Path(result->best), "3-7");
  EXPECT_EQ(result->info.score_cp, 0);
  auto after = record.Play(result->best);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->outcome().reason, rules::OutcomeReason::kRepetition);

  // Without the game's history there is no repetition to claim and the
  // same position is plainly lost.
  engine.NewGame();
  auto fresh = engine.Search(variant, record.position(), GameHistory{}, {.max_depth = 8});
  ASSERT_TRUE(fresh.ok());
  EXPECT_LT(fresh->info.score_cp, -150);
}

// One ply earlier, Red (winning) is to move: 21-25 would repeat a position
// already seen. A winning side must not walk into a repetition.
TEST(EngineDraws, WinningSideAvoidsRepetition) {
  const rules::Variant variant = VariantOrDie("english");
  std::vector<std::string> moves(kShuffle.begin(), kShuffle.end() - 1);
  const rules::GameRecord record = RecordOrDie(variant, kShuffleStart, moves);
  Engine engine(8);
  auto result = engine.Search(record, {.max_depth = 8});
  ASSERT_TRUE(result.ok());
  EXPECT_NE(Path(result->best), "21-25");
  EXPECT_GT(result->info.score_cp, 150);
}

// International, Black to move, 49 plies without a capture or a man move
// (the 25-move rule draws at 50). Black is lost on material (a king and a
// man against three kings and two men), but any king move completes the
// 50th ply and draws; a man move would restart the count.
TEST(EngineDraws, LosingSideUsesNoProgressRule) {
  const rules::Variant variant = VariantOrDie("international");
  const rules::Position position = PositionOrDie(variant, "B:WK44,K47,K49,36,39:BK3,6");
  GameHistory history;
  history.no_progress_plies = 49;
  Engine engine(8);
  auto result = engine.Search(variant, position, history, {.max_depth = 6});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->best.by_king) << Path(result->best);
  EXPECT_EQ(result->info.score_cp, 0);

  // With the count at zero the same position is lost.
  engine.NewGame();
  auto fresh = engine.Search(variant, position, GameHistory{}, {.max_depth = 6});
  ASSERT_TRUE(fresh.ok());
  EXPECT_LT(fresh->info.score_cp, -200);
}

// The evaluation fades towards a draw as a draw rule approaches. English,
// three kings against one (a win on material, far from the end): with the
// 40-move count fresh the score is about three kings' worth; with 76 of
// the 80 plies gone the search sees the draw coming and scores it close to
// zero (no capture can restart the count in time: the lone king sits in
// the far corner).
TEST(EngineDraws, ScoreFadesAsNoProgressLimitNears) {
  const rules::Variant variant = VariantOrDie("english");
  const rules::Position position = PositionOrDie(variant, "W:WK29,K30,K31:BK4");
  Engine engine(8);
  auto far_result = engine.Search(variant, position, GameHistory{}, {.max_depth = 4});
  GameHistory near;
  near.no_progress_plies = 76;
  engine.NewGame();
  auto near_result = engine.Search(variant, position, near, {.max_depth = 4});
  ASSERT_TRUE(far_result.ok());
  ASSERT_TRUE(near_result.ok());
  ASSERT_GT(far_result->info.score_cp, 200);
  EXPECT_LT(near_result->info.score_cp, far_result->info.score_cp / 2);
}

// The lone-king rule: one king against two kings is drawn after five
// moves each (10 plies). White's kings on 1 and 50 cannot take the king on
// the edge square 26 (nothing lies beyond it), so with one ply of the
// count left every White move ends the game in a draw, and the search
// scores it as one; with the count fresh White keeps a (small) edge.
TEST(EngineDraws, LoneKingCountEndsInDraw) {
  const rules::Variant variant = VariantOrDie("international");
  const rules::Position position = PositionOrDie(variant, "W:WK1,K50:BK26");
  GameHistory history;
  history.lone_king_rule = 1;  // Variant::draw.lone_king[1]: 1-2 pieces, 5 moves
  history.lone_king_plies = 9;
  Engine engine(8);
  auto result = engine.Search(variant, position, history, {.max_depth = 6});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->info.score_cp, 0);

  engine.NewGame();
  auto fresh = engine.Search(variant, position, GameHistory{}, {.max_depth = 6});
  ASSERT_TRUE(fresh.ok());
  EXPECT_GT(fresh->info.score_cp, 0);
}

}  // namespace
}  // namespace draughts::engine
