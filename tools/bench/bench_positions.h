#pragma once

// The fixed positions of the benchmark: for each built-in rule set an
// opening, a middlegame and an endgame. Changing this list changes the
// node signature, so add positions rather than edit them.

#include <string_view>
#include <vector>

namespace draughts::bench {

struct BenchPosition {
  std::string_view variant;  // rules::Variant::id
  std::string_view label;    // "opening", "middlegame", "endgame"
  std::string_view fen;
  int depth;  // fixed search depth for the node signature
};

const std::vector<BenchPosition>& BenchPositions();

}  // namespace draughts::bench
