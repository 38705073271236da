#include "egdb/slice.h"

#include <algorithm>

namespace draughts::egdb {

std::string Signature::Name() const {
  return std::to_string(white_men) + "m" + std::to_string(white_kings) + "k-" +
         std::to_string(black_men) + "m" + std::to_string(black_kings) + "k";
}

std::vector<Signature> CanonicalSignatures(int max_pieces) {
  std::vector<Signature> out;
  for (int n = 2; n <= max_pieces; ++n) {
    for (int white = 1; white < n; ++white) {
      const int black = n - white;
      for (int wm = 0; wm <= white; ++wm) {
        for (int bm = 0; bm <= black; ++bm) {
          const Signature s{wm, white - wm, bm, black - bm};
          if (s.IsCanonical()) out.push_back(s);
        }
      }
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Signature& a, const Signature& b) {
    if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
    return a.men() < b.men();
  });
  return out;
}

SliceShape::SliceShape(Signature s, int squares, int half) : signature(s) {
  const std::uint64_t white_men = kBinomial.c[squares - half][s.white_men];
  white_kings = kBinomial.c[squares][s.white_kings];
  black_men = kBinomial.c[squares - half][s.black_men];
  black_kings = kBinomial.c[squares][s.black_kings];
  size = white_men * white_kings * black_men * black_kings;
}

}  // namespace draughts::egdb
