#pragma once

// The weights of the evaluation, derived from the rule set: a flying king
// is worth far more than a one-step king, a bigger board makes kings
// stronger still and the wings matter more, and men that capture backwards
// make an advanced man less of a liability. Scores are in hundredths of a
// man. "mg" weights apply with every man still on the board, "eg" weights
// with none; the evaluation blends them by the number of men left.

#include "rules/variant.h"

namespace draughts::engine {

struct EvalParams {
  int man = 100;
  int king = 300;

  int advance_mg = 1;          // per row a man has advanced
  int advance_eg = 4;          // (kings are decisive: run for the last row)
  int centre_mg = 4;           // a man away from the side columns, middle rows
  int edge_man_mg = -4;        // a man on a side column
  int back_rank_guard = 6;     // a man on its own back row, while the opponent has men
  int king_centre = 4;         // per step a king stands away from the side columns
  int king_main_diagonal = 0;  // a flying king on the long diagonal
  int supported = 1;           // a man with a piece of its own right behind it
  int protected_man = 3;       // a man that cannot be jumped from the front
  int hole = -4;               // an empty square in our half behind two of our men
  int outpost = 6;             // a protected man in the opponent's half
  int wing_imbalance = -2;     // per man of difference between the wings, beyond two
  int man_mobility = 2;        // per quiet man move
  int king_mobility = 1;       // per quiet king move
  // A man whose way to the last row no opponent piece can block gets this
  // share (percent) of the king-man difference, more the closer it is.
  int runaway_percent = 60;

  bool flying_kings = true;
  int men_per_side = 20;  // for the game phase: men left / men at the start
};

EvalParams EvalParamsFor(const rules::Variant& variant);

}  // namespace draughts::engine
