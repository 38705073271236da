#pragma once

// Static evaluation of a quiet position (no capture pending), for one board
// layout. Per-square tables are built once from EvalParams; the structure
// terms are bit-parallel shifts of the layout (rules/layout.h), so a call
// costs a few dozen word operations plus a loop over the men.
//
// Every term is computed for both colours with the same code, mirrored, so
// a position and its colour-swapped mirror image get opposite scores (the
// unit tests check this on every rule set).

#include <algorithm>
#include <array>
#include <cstdint>

#include "engine/eval_params.h"
#include "rules/bitboard.h"
#include "rules/geometry.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"

namespace draughts::engine {

template <class L>
class Evaluator {
 public:
  using Bits = typename L::Bits;
  using Board = rules::internal::Board<L>;

  explicit Evaluator(const EvalParams& params) : p_(params) { BuildTables(); }

  const EvalParams& params() const { return p_; }

  // From the point of view of the side to move.
  int Evaluate(const Board& b, bool white_to_move) const {
    const int white_view = EvaluateForWhite(b);
    return white_to_move ? white_view : -white_view;
  }

  int EvaluateForWhite(const Board& b) const {
    const Bits empty = b.Empty();
    const Bits wm = b.white & ~b.kings;
    const Bits bm = b.black & ~b.kings;
    const Bits wk = b.white & b.kings;
    const Bits bk = b.black & b.kings;
    const int wm_n = rules::PopCount(wm);
    const int bm_n = rules::PopCount(bm);
    const int wk_n = rules::PopCount(wk);
    const int bk_n = rules::PopCount(bk);

    if (wm_n + bm_n == 0 && wk_n == 1 && bk_n == 1) return 0;  // king against king

    // Game phase in 0..64: 64 with every man on the board, 0 with none.
    const int phase = std::min(64, 64 * (wm_n + bm_n) / std::max(1, 2 * p_.men_per_side));

    int mg = 0;
    int eg = 0;
    int both = p_.man * (wm_n - bm_n) + p_.king * (wk_n - bk_n);

    SideTerms<true>(b, wm, wk, empty, bm_n, bk_n, mg, eg, both);
    {
      int mg_b = 0, eg_b = 0, both_b = 0;
      SideTerms<false>(b, bm, bk, empty, wm_n, wk_n, mg_b, eg_b, both_b);
      mg -= mg_b;
      eg -= eg_b;
      both -= both_b;
    }
    int score = both + (mg * phase + eg * (64 - phase)) / 64;
    return ScaleDrawish(score, wm_n, wk_n, bm_n, bk_n);
  }

 private:
  static constexpr int kBits = L::kBits;
  static constexpr int kN = L::kSize;
  using rules_Direction = rules::Direction;

  // The terms of one side, added to mg / eg / both (tapered or not).
  template <bool kWhite>
  void SideTerms(const Board& b, Bits men, Bits kings, Bits empty, int opp_men, int opp_kings,
                 int& mg, int& eg, int& both) const {
    constexpr int c = kWhite ? 0 : 1;
    constexpr rules::Direction kFL = kWhite ? rules::kUpLeft : rules::kDownLeft;
    constexpr rules::Direction kFR = kWhite ? rules::kUpRight : rules::kDownRight;
    constexpr rules::Direction kBL = rules::Reverse(kFR);  // behind, on the left of the diagram
    constexpr rules::Direction kBR = rules::Reverse(kFL);
    const Bits own = kWhite ? b.white : b.black;
    const Bits opp = kWhite ? b.black : b.white;

    // Per-square values of men and kings.
    for (Bits m = men; m;) {
      const int bit = rules::LowestBit(m);
      m &= m - 1;
      mg += man_mg_[c][bit];
      eg += man_eg_[c][bit];
      if (runaway_[c][bit] != 0 && (cone_[c][bit] & opp) == 0) {
        // No opponent piece stands where it could stop this man in time; a
        // flying king can still come from afar, so that case counts half.
        both += (p_.flying_kings && opp_kings > 0) ? runaway_[c][bit] / 2 : runaway_[c][bit];
      }
    }
    for (Bits k = kings; k;) {
      const int bit = rules::LowestBit(k);
      k &= k - 1;
      both += king_sq_[bit];
    }

    // Back row guards keep the opponent's men from crowning; they matter
    // less as the opponent runs out of men.
    if (opp_men > 0) {
      both += p_.back_rank_guard * rules::PopCount(men & back_rank_[c]) * std::min(opp_men, 6) / 6;
    }

    // Formations. A man with a piece of its own diagonally behind is
    // supported; with both back squares covered (or off the board) no
    // opponent can jump it from the front.
    const Bits behind_left_own = L::template Step<rules::Reverse(kBL)>(own);
    const Bits behind_right_own = L::template Step<rules::Reverse(kBR)>(own);
    const Bits supported = men & (behind_left_own | behind_right_own);
    const Bits protected_men =
        men & (behind_left_own | ~has_neighbor_[kBL]) & (behind_right_own | ~has_neighbor_[kBR]);
    mg += p_.supported * rules::PopCount(supported);
    mg += p_.protected_man * rules::PopCount(protected_men);
    mg += p_.outpost * rules::PopCount(protected_men & opp_half_[c]);
    // A hole: an empty square of our half right behind two of our men,
    // the square an opponent exchange aims at.
    const Bits holes = empty & own_half_[c] & L::template Step<kBL>(men) &
                       L::template Step<kBR>(men) & has_neighbor_[kFL] & has_neighbor_[kFR];
    mg += p_.hole * rules::PopCount(holes);

    // Wings: men all on one side leave the other side to the opponent.
    if (p_.wing_imbalance != 0) {
      const int diff =
          std::abs(rules::PopCount(men & left_wing_) - rules::PopCount(men & ~left_wing_));
      if (diff > 2) mg += p_.wing_imbalance * (diff - 2);
    }

    // Mobility: quiet moves available (an approximation of the move count
    // that ignores pending captures).
    const int man_moves = rules::PopCount(L::template Step<kFL>(men) & empty) +
                          rules::PopCount(L::template Step<kFR>(men) & empty);
    both += p_.man_mobility * man_moves;
    if (kings) {
      both +=
          p_.king_mobility *
          (KingSteps<rules::kUpLeft>(kings, empty) + KingSteps<rules::kUpRight>(kings, empty) +
           KingSteps<rules::kDownLeft>(kings, empty) + KingSteps<rules::kDownRight>(kings, empty));
    }
  }

  template <rules::Direction D>
  int KingSteps(Bits kings, Bits empty) const {
    Bits ray = L::template Step<D>(kings) & empty;
    if (!p_.flying_kings) return rules::PopCount(ray);
    int n = 0;
    while (ray) {
      n += rules::PopCount(ray);
      ray = L::template Step<D>(ray) & empty;
    }
    return n;
  }

  // Endings a material count misjudges: a lone flying king holds a draw
  // against two or three pieces (the long diagonal), equal numbers of kings
  // cannot win, and a one-step king against a lone king is no win either.
  int ScaleDrawish(int score, int wm, int wk, int bm, int bk) const {
    const int w = wm + wk;
    const int bl = bm + bk;
    if (wm + bm == 0 && wk == bk) return score / 8;
    if (p_.flying_kings) {
      const int holds = kN <= 8 ? 2 : 3;
      if (bl == 1 && bk == 1 && wk >= 1 && w <= holds && score > 0) return score / 8;
      if (w == 1 && wk == 1 && bk >= 1 && bl <= holds && score < 0) return score / 8;
      if (wm + bm == 0 && std::abs(wk - bk) <= 1) return score / 4;
    }
    return score;
  }

  void BuildTables() {
    const rules::BoardSize board = L::kBoard;
    for (int d = 0; d < 4; ++d) has_neighbor_[d] = 0;
    for (int c = 0; c < 2; ++c) {
      back_rank_[c] = own_half_[c] = opp_half_[c] = 0;
      man_mg_[c].fill(0);
      man_eg_[c].fill(0);
      runaway_[c].fill(0);
      cone_[c].fill(0);
    }
    king_sq_.fill(0);
    left_wing_ = 0;

    const int king_premium = p_.king - p_.man;
    for (int square = 1; square <= L::kSquares; ++square) {
      const int bit = L::BitOfSquare(square);
      const Bits one = rules::BitAt<Bits>(bit);
      const rules::RowColumn rc = rules::SquareToRowColumn(board, square);
      const int edge_distance = std::min(rc.column, kN - 1 - rc.column);
      static constexpr int kRowStep[4] = {-1, -1, 1,
                                          1};  // kUpLeft, kUpRight, kDownLeft, kDownRight
      static constexpr int kColStep[4] = {-1, 1, -1, 1};
      for (int d = 0; d < 4; ++d) {
        if (rules::RowColumnToSquare(board, {rc.row + kRowStep[d], rc.column + kColStep[d]}) != 0)
          has_neighbor_[d] |= one;
      }
      if (rc.column < kN / 2) left_wing_ |= one;

      int king = p_.king_centre * std::min(edge_distance, std::min(rc.row, kN - 1 - rc.row));
      // The long diagonal runs from the bottom-left corner to the top-right.
      if (rc.row + rc.column == kN - 1) king += p_.king_main_diagonal;
      king_sq_[bit] = static_cast<std::int16_t>(king);

      for (int c = 0; c < 2; ++c) {
        const bool white = c == 0;
        const int advance = white ? kN - 1 - rc.row : rc.row;  // 0 on its own back row
        if (advance == 0) back_rank_[c] |= one;
        if (advance < kN / 2)
          own_half_[c] |= one;
        else
          opp_half_[c] |= one;

        int mg = p_.advance_mg * advance;
        if (edge_distance == 0)
          mg += p_.edge_man_mg;
        else if (advance >= 1 && advance <= kN - 3)
          mg += p_.centre_mg * std::min(edge_distance, 2) / 2;
        int eg = p_.advance_eg * advance;
        // Close to the crowning row a man is worth more in the ending.
        if (advance >= kN - 4) eg += p_.advance_eg * (advance - (kN - 5));
        man_mg_[c][bit] = static_cast<std::int16_t>(mg);
        man_eg_[c][bit] = static_cast<std::int16_t>(eg);

        const int rows_to_go = kN - 1 - advance;
        if (rows_to_go >= 1 && rows_to_go <= 3) {
          runaway_[c][bit] =
              static_cast<std::int16_t>(king_premium * p_.runaway_percent / 100 / (rows_to_go + 1));
          // Squares from which an opponent piece could stop or take this
          // man before it crowns: the widening triangle in front of it.
          Bits cone = 0;
          for (int k = 1; k <= rows_to_go; ++k) {
            const int row = white ? rc.row - k : rc.row + k;
            for (int col = rc.column - k; col <= rc.column + k; ++col) {
              const int s = rules::RowColumnToSquare(board, {row, col});
              if (s != 0) cone |= rules::BitAt<Bits>(L::BitOfSquare(s));
            }
          }
          cone_[c][bit] = cone;
        }
      }
    }
  }

  EvalParams p_;
  std::array<std::array<std::int16_t, kBits>, 2> man_mg_{};
  std::array<std::array<std::int16_t, kBits>, 2> man_eg_{};
  std::array<std::array<std::int16_t, kBits>, 2> runaway_{};
  std::array<std::array<Bits, kBits>, 2> cone_{};
  std::array<std::int16_t, kBits> king_sq_{};
  std::array<Bits, 2> back_rank_{};
  std::array<Bits, 2> own_half_{};
  std::array<Bits, 2> opp_half_{};
  std::array<Bits, 4> has_neighbor_{};  // indexed by rules::Direction
  Bits left_wing_ = 0;
};

}  // namespace draughts::engine

// The full 8x8 board (Turkish) has its own evaluation.
#include "engine/orthogonal_evaluator.h"  // IWYU pragma: export
