#include "engine/eval_params.h"

#include "rules/geometry.h"

namespace draughts::engine {

EvalParams EvalParamsFor(const rules::Variant& variant) {
  EvalParams p;
  p.flying_kings = variant.king_range == rules::KingRange::kFlying;
  const int n = rules::BoardDimension(variant.board);
  p.men_per_side = variant.MenPerSide();

  if (p.flying_kings) {
    // A flying king controls whole diagonals: about three men on 10x10
    // (the usual figure in international draughts), a little less on 8x8
    // where there is less room, more on 12x12.
    p.king = n <= 8 ? 250 : n == 10 ? 300 : 325;
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
  }

  // Men that cannot capture backwards are easy prey once passed: advancing
  // them early is a larger risk.
  if (!variant.men_capture_backward) p.advance_mg = 0;
  return p;
}

}  // namespace draughts::engine
