#include "bench_positions.h"

namespace draughts::bench {

// The middlegames come from the engine's own Medium-level self-play (seed
// 11, recorded once and frozen here); the endgames are set up by hand with
// kings on both sides. Depths keep the whole run to a few seconds in a
// Release build.
const std::vector<BenchPosition>& BenchPositions() {
  static const std::vector<BenchPosition> positions = {
      {"international", "opening", "W:W31-50:B1-20", 10},
      {"international", "middlegame",
       "W:W25,27-28,32,34,37-38,40,42-43,46,48-50:B1-3,5,9-10,12,14,16,18-19,23-24,26", 10},
      {"international", "endgame", "W:W33,38,39,K47:B12,17,19,K4", 10},
      {"canadian", "opening", "W:W43-72:B1-30", 9},
      {"canadian", "middlegame",
       "W:W40,44-45,48,52-53,56-59,61-62,65-72:B1-6,8-10,13-14,16,18,22,25,27-29,33,36", 9},
      {"canadian", "endgame", "W:W40,45,51,K70:B10,16,22,K3", 9},
      {"english", "opening", "B:W21-32:B1-12", 12},
      {"english", "middlegame", "B:W12,21,23,27-32:B1-5,7,11,18,20", 12},
      {"english", "endgame", "B:WK3,7,20,23,26,31:B1,4,11,16,K32", 12},
      {"tutorial-8x8", "opening", "W:W21-32:B1-12", 11},
      {"tutorial-8x8", "middlegame", "W:W20,26,28-31:B2-4,8,18-19", 11},
      {"tutorial-8x8", "endgame", "W:W6,28-30:B8,19-20,22", 11},
      // The other rule sets from their start position (kStartFen), so every
      // rule set's move generation and evaluation is part of the signature.
      {"russian", "opening", kStartFen, 11},
      {"brazilian", "opening", kStartFen, 11},
      {"pool", "opening", kStartFen, 11},
      {"spanish", "opening", kStartFen, 11},
      {"czech", "opening", kStartFen, 11},
      {"italian", "opening", kStartFen, 11},
      {"thai", "opening", kStartFen, 12},
      {"turkish", "opening", kStartFen, 9},
      {"frisian", "opening", kStartFen, 9},
      {"antidraughts", "opening", kStartFen, 10},
      {"breakthrough", "opening", kStartFen, 10},
  };
  return positions;
}

}  // namespace draughts::bench
