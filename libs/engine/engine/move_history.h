#pragma once

// Move-ordering statistics kept from one search to the next within a game:
// the history heuristic (quiet moves that caused cutoffs, by side, origin
// and destination bit). Killers are per search and live in the search.

#include <algorithm>
#include <array>
#include <cstdint>

namespace draughts::engine {

class MoveHistory {
 public:
  static constexpr int kBits = 128;  // every layout fits (12x12 uses 77 bits)
  static constexpr int kMax = 1 << 24;

  void Clear() {
    for (auto& side : table_)
      for (auto& row : side) row.fill(0);
  }
  // Older searches count for less.
  void Age() {
    for (auto& side : table_)
      for (auto& row : side)
        for (auto& v : row) v /= 8;
  }
  int Get(int side, int from, int to) const { return table_[side][from][to]; }
  void Reward(int side, int from, int to, int depth) { Add(side, from, to, depth * depth); }
  void Punish(int side, int from, int to, int depth) { Add(side, from, to, -depth * depth); }

 private:
  void Add(int side, int from, int to, int delta) {
    int& v = table_[side][from][to];
    v = std::clamp(v + delta, -kMax, kMax);
  }
  std::array<std::array<std::array<std::int32_t, kBits>, kBits>, 2> table_{};
};

}  // namespace draughts::engine
