#include "reference_movegen.h"

#include <algorithm>
#include <set>

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
};

class Reference {
 public:
  Reference(const Variant& v, const Position& p) : v_(v), board_(v.board) {
    n_ = BoardDimension(board_);
    cells_.assign(SquareCount(board_) + 1, Piece{});
    for (const SetupPiece& sp : p.ToSetup().pieces)
      cells_[sp.square] = {true, sp.color == Color::kWhite, sp.kind == PieceKind::kKing};
    white_ = p.side_to_move() == Color::kWhite;
  }

  std::vector<std::string> Moves() {
    std::vector<Found> captures;
    for (int s = 1; s <= SquareCount(board_); ++s) {
      if (!Own(s)) continue;
      origin_ = s;
      std::vector<int> landings;
      std::vector<int> taken;
      Search(s, cells_[s].king, landings, taken, captures);
    }
    if (v_.capture_choice == CaptureChoice::kMajority && !captures.empty()) {
      std::size_t best = 0;
      for (const Found& f : captures) best = std::max(best, f.taken.size());
      std::erase_if(captures, [&](const Found& f) { return f.taken.size() < best; });
    }
    std::vector<std::string> texts;
    std::set<std::string> seen;
    for (const Found& f : captures) {
      std::string text = Text(f);
      if (v_.capture_identity == CaptureIdentity::kPieceSet && !seen.insert(text).second) continue;
      texts.push_back(text);
    }
    if (captures.empty() || !v_.mandatory_capture) {
      for (int s = 1; s <= SquareCount(board_); ++s) {
        if (!Own(s)) continue;
        for (int d = 0; d < 4; ++d) {
          if (!cells_[s].king && !Forward(d)) continue;
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
  static constexpr int kDr[4] = {-1, -1, 1, 1};
  static constexpr int kDc[4] = {-1, 1, -1, 1};

  bool Own(int s) const { return cells_[s].present && cells_[s].white == white_; }
  bool Enemy(int s) const { return cells_[s].present && cells_[s].white != white_; }
  // The moving piece has left its square.
  bool Free(int s) const { return !cells_[s].present || s == origin_; }
  bool Forward(int d) const { return white_ ? kDr[d] < 0 : kDr[d] > 0; }
  bool OnPromotionRow(int s) const {
    return SquareToRowColumn(board_, s).row == (white_ ? 0 : n_ - 1);
  }
  int Next(int s, int d) const {
    const RowColumn rc = SquareToRowColumn(board_, s);
    return RowColumnToSquare(board_, {rc.row + kDr[d], rc.column + kDc[d]});
  }
  static bool Contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  }

  // Jumps available from `s`: (jumped piece, landing squares).
  std::vector<std::pair<int, std::vector<int>>> Jumps(int s, bool king,
                                                      const std::vector<int>& taken) const {
    std::vector<std::pair<int, std::vector<int>>> result;
    for (int d = 0; d < 4; ++d) {
      if (!king && !v_.men_capture_backward && !Forward(d)) continue;
      const bool flying = king && v_.king_range == KingRange::kFlying;
      int t = Next(s, d);
      if (flying)
        while (t != 0 && Free(t)) t = Next(t, d);
      if (t == 0 || !Enemy(t) || Contains(taken, t)) continue;
      std::vector<int> lands;
      for (int l = Next(t, d); l != 0 && Free(l); l = Next(l, d)) {
        lands.push_back(l);
        if (!flying) break;
      }
      if (!lands.empty()) result.push_back({t, lands});
    }
    return result;
  }

  void Search(int s, bool king, std::vector<int>& landings, std::vector<int>& taken,
              std::vector<Found>& out) {
    const auto jumps = Jumps(s, king, taken);
    if (jumps.empty()) {
      if (!taken.empty()) out.push_back({origin_, landings, taken, !king && OnPromotionRow(s)});
      return;
    }
    for (const auto& [over, lands] : jumps) {
      taken.push_back(over);
      // A capture that can go on must: keep only landings that continue,
      // unless none does.
      std::vector<int> go_on;
      for (int l : lands)
        if (!Jumps(l, king, taken).empty()) go_on.push_back(l);
      for (int l : go_on.empty() ? lands : go_on) {
        landings.push_back(l);
        if (!king && OnPromotionRow(l) &&
            v_.promotion_in_capture == PromotionInCapture::kEndsMove) {
          out.push_back({origin_, landings, taken, true});
        } else {
          Search(l, king, landings, taken, out);
        }
        landings.pop_back();
      }
      taken.pop_back();
    }
  }

  std::string Text(const Found& f) const {
    const bool capture = !f.taken.empty();
    std::string text = std::to_string(f.from);
    if (v_.capture_identity == CaptureIdentity::kPieceSet || !capture) {
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
  BoardSize board_;
  int n_ = 0;
  std::vector<Piece> cells_;
  bool white_ = true;
  int origin_ = 0;
};

}  // namespace

std::vector<std::string> ReferenceMoves(const Variant& variant, const Position& position) {
  return Reference(variant, position).Moves();
}

}  // namespace draughts::rules::testing
