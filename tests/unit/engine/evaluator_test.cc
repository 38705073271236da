// The static evaluation: colour symmetry, material and the per-rule-set
// weights, and the endgame knowledge that overrides material.

#include "engine/evaluator.h"

#include <gtest/gtest.h>

#include "engine/eval_params.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using testing::Mirror;
using testing::PositionOrDie;
using testing::RandomGames;
using testing::VariantOrDie;

// Evaluation of `position` from the side to move, through the layout of its board.
int Evaluate(const rules::Variant& variant, const rules::Position& position) {
  return rules::internal::WithLayout(position.board(), [&]<class L>() {
    const Evaluator<L> evaluator(EvalParamsFor(variant));
    return evaluator.Evaluate(rules::internal::Board<L>::FromPosition(position),
                              position.side_to_move() == rules::Color::kWhite);
  });
}

TEST(EngineEvaluation, ColourSymmetricOnEveryRuleSet) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    for (const rules::GameRecord& record : RandomGames(variant, 40, 150, 77)) {
      const rules::Position& p = record.position();
      EXPECT_EQ(Evaluate(variant, p), Evaluate(variant, Mirror(variant, p)))
          << variant.id << " " << record.ply_count();
    }
  }
}

TEST(EngineEvaluation, StartPositionIsBalanced) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    EXPECT_EQ(Evaluate(variant, rules::Position::Initial(variant)), 0) << variant.id;
  }
}

TEST(EngineEvaluation, AManMoreIsBetter) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    // Rule sets where pieces are a burden (antidraughts) value them below zero.
    if (EvalParamsFor(variant).man <= 0) continue;
    const rules::Position start = rules::Position::Initial(variant);
    rules::PositionSetup setup = start.ToSetup();
    // Remove Black's first man (square 1, or the first after the empty
    // back row of Turkish).
    const int first = start.ToSetup().pieces.front().square;
    std::erase_if(setup.pieces, [&](const rules::SetupPiece& p) { return p.square == first; });
    ASSERT_EQ(setup.pieces.size() + 1, start.ToSetup().pieces.size()) << variant.id;
    auto fewer = rules::Position::FromSetup(variant, setup);
    ASSERT_TRUE(fewer.ok());
    const int white_view = start.side_to_move() == rules::Color::kWhite
                               ? Evaluate(variant, *fewer)
                               : -Evaluate(variant, *fewer);
    EXPECT_GE(white_view, 60) << variant.id;
    EXPECT_LE(white_view, 160) << variant.id;
  }
}

TEST(EngineEvaluation, KingValueDependsOnTheRules) {
  const EvalParams international = EvalParamsFor(VariantOrDie("international"));
  const EvalParams canadian = EvalParamsFor(VariantOrDie("canadian"));
  const EvalParams english = EvalParamsFor(VariantOrDie("english"));
  const EvalParams flying8 = EvalParamsFor(VariantOrDie("tutorial-8x8"));
  EXPECT_GT(english.king, english.man);
  EXPECT_GT(flying8.king, english.king);        // flying kings are worth more
  EXPECT_GT(international.king, flying8.king);  // and more on a bigger board
  EXPECT_GE(canadian.king, international.king);
  EXPECT_EQ(international.men_per_side, 20);
  EXPECT_EQ(canadian.men_per_side, 30);
}

TEST(EngineEvaluation, KnownDrawnEndings) {
  const rules::Variant international = VariantOrDie("international");
  const rules::Variant english = VariantOrDie("english");
  // One king each: no one can win.
  EXPECT_EQ(Evaluate(international, PositionOrDie(international, "W:WK46:BK5")), 0);
  EXPECT_EQ(Evaluate(english, PositionOrDie(english, "W:WK29:BK4")), 0);
  // A lone flying king holds against two kings: far below two kings' worth.
  const int two_vs_one = Evaluate(international, PositionOrDie(international, "W:WK1,K50:BK26"));
  EXPECT_GT(two_vs_one, 0);
  EXPECT_LT(two_vs_one, 100);
  // Four kings against one win: the full material count stands.
  EXPECT_GT(Evaluate(international, PositionOrDie(international, "W:WK1,K50,K45,K46:BK26")), 600);
  // One-step kings: two against one is a win.
  EXPECT_GT(Evaluate(english, PositionOrDie(english, "W:WK29,K30:BK4")), 100);
}

TEST(EngineEvaluation, FreePathToCrownCountsInTheEnding) {
  const rules::Variant international = VariantOrDie("international");
  // White's man on 12 (row 2, two rows from crowning) runs towards squares
  // 1-3. Black's back-row man on 5 is outside the triangle in front of it
  // (rows 1 and 0, columns 2-4 and 1-5) and cannot stop it; on 2 it is
  // inside and can. Black's man on 45 is the same in both.
  const int free_path = Evaluate(international, PositionOrDie(international, "W:W12,46:B5,45"));
  const int blocked = Evaluate(international, PositionOrDie(international, "W:W12,46:B2,45"));
  EXPECT_GT(free_path, blocked + 20);
}

}  // namespace
}  // namespace draughts::engine
