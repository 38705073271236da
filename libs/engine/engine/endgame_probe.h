#pragma once

// The search's use of endgame databases (libs/egdb): at a node whose
// pieces are all in a loaded slice, the exact result replaces the search
// below it, captures pending or not.
//
// Scores: a draw is 0; a win is kEndgameWinScore minus kPieceWeight per
// piece on the board, minus the ply and the database's distance to
// conversion. So the winner prefers fewer pieces left, then the win that
// converts soonest: both keep the win and make progress (egdb/value.h),
// where a flat "won" score would let the winner shuffle for ever. The loser
// (the same score negated) keeps its pieces and delays: against a fallible
// opponent, the best chances. kPieceWeight exceeds any distance, so piece
// counts compare first. kEndgameWinScore sits below the mate scores
// (search_types.h) and far above any evaluation.
//
// The databases ignore the move-count draw rules; when only kings are left
// (no man move can reset the count) and the conversion needs more plies
// than a running draw rule leaves, the node is scored as the draw it is.

#include <optional>
#include <type_traits>

#include "egdb/database.h"
#include "engine/search_types.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"

namespace draughts::engine {

inline constexpr int kEndgameWinScore = kMateScore - 5000;
inline constexpr int kEndgamePieceWeight = 2 * egdb::code::kMaxPlies;

template <class L>
class EndgameProbe {
 public:
  // The databases cover the two diagonal layouts of 64-bit words.
  static constexpr bool kLayoutSupported =
      std::is_same_v<L, rules::Layout8> || std::is_same_v<L, rules::Layout10>;

  // `db` may be null (no databases); it must be for the searched variant.
  void Reset(const egdb::Database* db) {
    db_ = db;
    max_pieces_ = 0;
    if (db_ == nullptr) return;
    for (int n = 2; n <= egdb::Database::kMaxPieces; ++n) {
      for (const egdb::Signature& s : egdb::CanonicalSignatures(n)) {
        if (s.pieces() == n && db_->FindSlice(s)) max_pieces_ = n;
      }
    }
  }

  bool active() const { return db_ != nullptr; }

  // The exact score of `board` for the side to move at `ply`, or nullopt
  // when its slice is not loaded. `plies_left`: before a draw rule ends
  // the game (DrawRuleTracker::PliesLeft).
  std::optional<int> Score(const rules::internal::Board<L>& board, bool white, int ply,
                           int plies_left) const {
    if constexpr (!kLayoutSupported) {
      return std::nullopt;
    } else {
      if (db_ == nullptr || rules::PopCount(board.white | board.black) > max_pieces_) {
        return std::nullopt;
      }
      const auto value = egdb::code::Decode(db_->ProbeCode<L>(board, white));
      if (!value) return std::nullopt;
      if (value->wdl == egdb::Wdl::kDraw) return 0;
      if ((board.kings & (board.white | board.black)) == (board.white | board.black) &&
          value->plies > plies_left) {
        return 0;
      }
      const int pieces = rules::PopCount(board.white | board.black);
      const int score = kEndgameWinScore - kEndgamePieceWeight * pieces - ply - value->plies;
      return value->wdl == egdb::Wdl::kWin ? score : -score;
    }
  }

 private:
  const egdb::Database* db_ = nullptr;
  int max_pieces_ = 0;
};

}  // namespace draughts::engine
