#pragma once

// The fixed positions of the benchmark: an opening, a middlegame and an
// endgame for each seed rule set, the start position for the others. Changing this list changes the
// node signature, so add positions rather than edit them.

#include <string_view>
#include <vector>

namespace draughts::bench {

// In place of a FEN: the rule set's start position.
inline constexpr std::string_view kStartFen = "start";

struct BenchPosition {
  std::string_view variant;  // rules::Variant::id
  std::string_view label;    // "opening", "middlegame", "endgame"
  std::string_view fen;
  int depth;  // fixed search depth for the node signature
};

const std::vector<BenchPosition>& BenchPositions();

}  // namespace draughts::bench
