#include "engine/eval_params.h"

#include "rules/geometry.h"

namespace draughts::engine {

EvalParams EvalParamsFor(const rules::Variant& variant) {
  EvalParams p;
  p.flying_kings = variant.king_range == rules::KingRange::kFlying;
  const int n = rules::BoardDimension(variant.board);
  p.men_per_side = variant.MenPerSide();

  if (p.flying_kings) {
    // A flying king controls whole diagonals: three to three and a half men
    // on 10x10, less on 8x8 where there is less room, more on 12x12.
    // Self-play at equal nodes preferred 350 to 300 on 10x10 (+25 +-14 Elo
    // over 400 games) and 375 to 325 on 12x12 (+55 +-27); docs/BENCHMARKS.md.
    p.king = n <= 8 ? 250 : n == 10 ? 350 : 375;
    p.king_main_diagonal = n <= 8 ? 8 : 12;
    p.king_mobility = 1;
    p.king_centre = 1;
  } else {
    // A one-step king is worth roughly one and a half men in English checkers.
    p.king = 150;
    p.king_main_diagonal = 0;
    p.king_mobility = 3;
    p.king_centre = 4;
  }

  if (n <= 8) {
    // Few men: each guard of the back row and each central square matter more,
    // wings less.
    p.back_rank_guard = 10;
    p.centre_mg = 5;
    p.wing_imbalance = 0;
    p.outpost = 4;
  } else {
    p.back_rank_guard = 5;
    p.centre_mg = 4;
    p.wing_imbalance = -2;
    p.outpost = 6;
    // Room to manoeuvre decides more of a 10x10 game: mobility 4 beat 2 by
    // +40 +-20 Elo in self-play (6 was no better than 4). On 8x8 it did not
    // help (English: -17 +-19).
    p.man_mobility = 4;
  }

  if (rules::AllSquaresPlayable(variant.board)) {
    // Turkish draughts (the only full-board rule set): a king sweeps whole
    // rows and columns; the Turkish federation's learning guide ("Turkish
    // draughts (Dama): rules of game and learning guide", section 3) values
    // it at five men. Men move sideways too, so mobility
    // counts less per move, and its evaluation (orthogonal_evaluator.h)
    // reads advance, centre, cover from behind and beside.
    p.king = 500;
    p.king_centre = 2;
    p.king_mobility = 2;
    p.man_mobility = 1;
    p.advance_mg = 2;
    p.advance_eg = 6;
    p.centre_mg = 3;
    p.edge_man_mg = -3;
    p.protected_man = 4;
    p.supported = 2;
    p.back_rank_guard = 0;
    p.wing_imbalance = 0;
    p.king_main_diagonal = 0;
    return p;
  }

  // Men that cannot capture backwards are easy prey once passed: advancing
  // them early is a larger risk.
  if (!variant.men_capture_backward) p.advance_mg = 0;

  // Men that may not take kings (Italian) make a king safer still.
  if (!variant.men_capture_kings) p.king += 25;
  // Thai: fewer men (two rows), and a king that must stop right behind its
  // prey is easier to trap than a free-landing flying king.
  if (variant.king_landing == rules::KingLanding::kRightBehind) p.king -= 25;

  switch (variant.goal) {
    case rules::Goal::kCaptureOrBlock:
      break;
    case rules::Goal::kLoseEverything:
      // Antidraughts: every piece is a burden and every move a chance for
      // the opponent to hand over more; fewer pieces and fewer moves are
      // better. Structure terms would only steer towards keeping men.
      p.man = -100;
      p.king = -150;
      p.advance_mg = 0;
      p.advance_eg = 0;
      p.centre_mg = 0;
      p.edge_man_mg = 0;
      p.back_rank_guard = 0;
      p.king_centre = 0;
      p.king_main_diagonal = 0;
      p.supported = 0;
      p.protected_man = 0;
      p.hole = 0;
      p.outpost = 0;
      p.wing_imbalance = 0;
      p.man_mobility = -2;
      p.king_mobility = -1;
      p.runaway_percent = 0;
      break;
    case rules::Goal::kFirstKing:
      // Breakthrough: the first king ends the game, so a man that nothing
      // can stop is close to a win and the back row is the last defence.
      p.king = 1000;
      p.advance_mg = 3;
      p.advance_eg = 8;
      p.back_rank_guard = 12;
      p.runaway_percent = 100;
      break;
  }
  return p;
}

}  // namespace draughts::engine
