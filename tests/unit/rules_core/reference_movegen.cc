#include "reference_movegen.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "rules/geometry.h"

namespace draughts::rules::testing {
namespace {

struct Piece {
  bool present = false;
  bool white = false;
  bool king = false;
};

struct Found {
  int from = 0;
  std::vector<int> landings;
  std::vector<int> taken;
  bool promotes = false;
  bool by_king = false;
};

class Reference {
 public:
  Reference(const Variant& v, const Position& p) : v_(v), position_(p), board_(v.board) {
    n_ = BoardDimension(board_);
    full_ = AllSquaresPlayable(board_);
    if (full_) {
      // The full board: up, down, left, right, one square at a time.
      static constexpr int kFullDr[4] = {-1, 1, 0, 0};
      static constexpr int kFullDc[4] = {0, 0, -1, 1};
      std::copy(kFullDr, kFullDr + 4, dr_);
      std::copy(kFullDc, kFullDc + 4, dc_);
    } else {
      std::copy(kDr, kDr + 8, dr_);
      std::copy(kDc, kDc + 8, dc_);
    }
    cells_.assign(SquareCount(board_) + 1, Piece{});
    for (const SetupPiece& sp : p.ToSetup().pieces)
      cells_[sp.square] = {true, sp.color == Color::kWhite, sp.kind == PieceKind::kKing};
    white_ = p.side_to_move() == Color::kWhite;
  }

  std::vector<std::string> Moves() {
    std::vector<Found> captures;
    bool any_king = false;
    for (int s = 1; s <= SquareCount(board_); ++s) any_king = any_king || cells_[s].king;
    // Breakthrough: a king on the board has ended the game.
    if (v_.goal == Goal::kFirstKing && any_king) return {};
    for (int s = 1; s <= SquareCount(board_); ++s) {
      if (!Own(s)) continue;
      origin_ = s;
      std::vector<int> landings;
      std::vector<int> taken;
      Search(s, cells_[s].king, false, -1, landings, taken, captures);
    }
    // Precedence, one criterion after the other.
    KeepBest(captures, [&](const Found& f) -> long {
      const long n = static_cast<long>(f.taken.size());
      const long k = KingsTaken(f);
      if (v_.capture_choice == CaptureChoice::kMajority) return n;
      if (v_.capture_choice == CaptureChoice::kValue) return 1000 * n + 999 * k;  // king: 1.999 men
      return 0;
    });
    if (v_.capture_priority.with_king)
      KeepBest(captures, [](const Found& f) -> long { return f.by_king; });
    if (v_.capture_priority.most_kings)
      KeepBest(captures, [&](const Found& f) -> long { return KingsTaken(f); });
    if (v_.capture_priority.earliest_king) {
      // Lexicographic on "is a king" per jump: compare as strings.
      std::string best;
      for (const Found& f : captures) best = std::max(best, KingPattern(f));
      std::erase_if(captures, [&](const Found& f) { return KingPattern(f) != best; });
    }
    std::vector<std::string> texts;
    std::set<std::string> seen;
    for (const Found& f : captures) {
      std::string text = Text(f);
      if (v_.capture_identity != CaptureIdentity::kPath && !seen.insert(text).second) continue;
      texts.push_back(text);
    }
    if (captures.empty() || !v_.mandatory_capture) {
      for (int s = 1; s <= SquareCount(board_); ++s) {
        if (!Own(s)) continue;
        for (int d = 0; d < 4; ++d) {
          // Men step forward; on the full board sideways too.
          if (!cells_[s].king && !Forward(d) && !(full_ && dr_[d] == 0)) continue;
          // Variant::king_move_limit: this king has moved its limit in a row.
          if (cells_[s].king && v_.king_move_limit > 0 && position_.KingMoveBarred(s)) continue;
          int t = s;
          while (true) {
            t = Next(t, d);
            if (t == 0 || cells_[t].present) break;
            Found f{s, {t}, {}, !cells_[s].king && OnPromotionRow(t)};
            texts.push_back(Text(f));
            if (!cells_[s].king || v_.king_range == KingRange::kShort) break;
          }
        }
      }
    }
    std::sort(texts.begin(), texts.end());
    return texts;
  }

 private:
  // Diagonal directions, then orthogonal ones to the next square of the
  // same colour (two rows or columns away).
  static constexpr int kDr[8] = {-1, -1, 1, 1, -2, 2, 0, 0};
  static constexpr int kDc[8] = {-1, 1, -1, 1, 0, 0, -2, 2};
  // On the full board the four directions come in opposite pairs.
  int Back(int d) const { return full_ ? d ^ 1 : d < 4 ? 3 - d : d ^ 1; }

  template <class Key>
  static void KeepBest(std::vector<Found>& captures, Key key) {
    if (captures.empty()) return;
    long best = key(captures.front());
    for (const Found& f : captures) best = std::max(best, key(f));
    std::erase_if(captures, [&](const Found& f) { return key(f) != best; });
  }
  long KingsTaken(const Found& f) const {
    long k = 0;
    for (int t : f.taken) k += cells_[t].king;
    return k;
  }
  std::string KingPattern(const Found& f) const {
    std::string p;
    for (int t : f.taken) p += cells_[t].king ? '1' : '0';
    // Only where the kings are matters: "10" and "100" meet theirs alike.
    while (!p.empty() && p.back() == '0') p.pop_back();
    return p;
  }

  bool Own(int s) const { return cells_[s].present && cells_[s].white == white_; }
  bool Enemy(int s) const { return cells_[s].present && cells_[s].white != white_; }
  // The moving piece has left its square.
  bool Free(int s) const { return !cells_[s].present || s == origin_; }
  bool Forward(int d) const { return white_ ? dr_[d] < 0 : dr_[d] > 0; }
  bool OnPromotionRow(int s) const {
    return SquareToRowColumn(board_, s).row == (white_ ? 0 : n_ - 1);
  }
  int Next(int s, int d) const {
    const RowColumn rc = SquareToRowColumn(board_, s);
    return RowColumnToSquare(board_, {rc.row + dr_[d], rc.column + dc_[d]});
  }
  static bool Contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  }

  bool AtOnce() const { return v_.captured_removal == CapturedRemoval::kAtOnce; }
  // Free to cross or land on: empty, the mover's origin, or (pieces removed
  // as they are jumped) a square already taken.
  bool Passable(int s, const std::vector<int>& taken) const {
    return Free(s) || (AtOnce() && Contains(taken, s));
  }

  // Jumps available from `s`: (direction, jumped piece, landing squares).
  // `came` is the direction of the previous jump (-1: none).
  std::vector<std::tuple<int, int, std::vector<int>>> Jumps(int s, bool king, int came,
                                                            const std::vector<int>& taken) const {
    std::vector<std::tuple<int, int, std::vector<int>>> result;
    const int directions = v_.orthogonal_captures ? 8 : 4;
    for (int d = 0; d < directions; ++d) {
      // Men: forward always, sideways (along the row) too, backward if allowed.
      if (!king && !v_.men_capture_backward && !Forward(d) && dr_[d] != 0) continue;
      const bool flying = king && v_.king_range == KingRange::kFlying;
      // A flying king may not turn straight back, unless pieces leave at
      // once and the rules allow it.
      if (flying && came >= 0 && d == Back(came) && !(AtOnce() && v_.king_may_turn_back)) continue;
      int t = Next(s, d);
      if (flying)
        while (t != 0 && Passable(t, taken)) t = Next(t, d);
      if (t == 0 || !Enemy(t) || Contains(taken, t)) continue;
      if (!king && !v_.men_capture_kings && cells_[t].king) continue;
      std::vector<int> lands;
      for (int l = Next(t, d); l != 0 && Passable(l, taken); l = Next(l, d)) {
        lands.push_back(l);
        if (!flying || v_.king_landing == KingLanding::kRightBehind) break;
      }
      if (!lands.empty()) result.push_back({d, t, lands});
    }
    return result;
  }

  void Search(int s, bool king, bool crowned, int came, std::vector<int>& landings,
              std::vector<int>& taken, std::vector<Found>& out) {
    const auto jumps = Jumps(s, king, came, taken);
    if (jumps.empty()) {
      if (!taken.empty()) {
        const bool was_king = king && !crowned;
        out.push_back(
            {origin_, landings, taken, crowned || (!king && OnPromotionRow(s)), was_king});
      }
      return;
    }
    for (const auto& [d, over, lands] : jumps) {
      taken.push_back(over);
      // A capture that can go on must: keep only landings that continue,
      // unless none does.
      std::vector<int> go_on;
      for (int l : lands) {
        const bool crowns = !king && OnPromotionRow(l) &&
                            v_.promotion_in_capture == PromotionInCapture::kContinuesAsKing;
        if (!Jumps(l, king || crowns, d, taken).empty()) go_on.push_back(l);
      }
      for (int l : go_on.empty() ? lands : go_on) {
        landings.push_back(l);
        if (!king && OnPromotionRow(l) &&
            v_.promotion_in_capture == PromotionInCapture::kEndsMove) {
          out.push_back({origin_, landings, taken, true, false});
        } else if (!king && OnPromotionRow(l) &&
                   v_.promotion_in_capture == PromotionInCapture::kContinuesAsKing) {
          Search(l, true, true, d, landings, taken, out);
        } else {
          Search(l, king, crowned, d, landings, taken, out);
        }
        landings.pop_back();
      }
      taken.pop_back();
    }
  }

  std::string Text(const Found& f) const {
    const bool capture = !f.taken.empty();
    std::string text = std::to_string(f.from);
    if (v_.capture_identity == CaptureIdentity::kOrder && capture) {
      text += "x" + std::to_string(f.landings.back()) + " takes ";
      for (std::size_t i = 0; i < f.taken.size(); ++i)
        text += (i ? "," : "") + std::to_string(f.taken[i]);
    } else if (v_.capture_identity == CaptureIdentity::kPieceSet || !capture) {
      text += (capture ? "x" : "-") + std::to_string(f.landings.back());
      if (capture) {
        std::vector<int> set = f.taken;
        std::sort(set.begin(), set.end());
        text += " takes {";
        for (std::size_t i = 0; i < set.size(); ++i)
          text += (i ? "," : "") + std::to_string(set[i]);
        text += "}";
      }
    } else {
      for (int l : f.landings) text += "x" + std::to_string(l);
      text += " takes ";
      for (std::size_t i = 0; i < f.taken.size(); ++i)
        text += (i ? "," : "") + std::to_string(f.taken[i]);
    }
    if (f.promotes) text += " =K";
    return text;
  }

  const Variant& v_;
  const Position& position_;
  BoardSize board_;
  int n_ = 0;
  bool full_ = false;  // every square in play, orthogonal moves
  int dr_[8] = {};
  int dc_[8] = {};
  std::vector<Piece> cells_;
  bool white_ = true;
  int origin_ = 0;
};

}  // namespace

std::vector<std::string> ReferenceMoves(const Variant& variant, const Position& position) {
  return Reference(variant, position).Moves();
}

}  // namespace draughts::rules::testing
