// What any engine (built-in or external) answers for one position.
#ifndef DRAUGHTS_BOT_CHOICE_H_
#define DRAUGHTS_BOT_CHOICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace draughts::bot {

struct Choice {
  // Every landing square for captures ("28x19x10"), so game-state never
  // finds it ambiguous.
  std::string move;
  int depth = 0;
  int64_t nodes = 0;
  // Hundredths of a man from the mover's side (see ChooseMoveResponse.eval).
  int eval = 0;
  std::vector<std::string> principal_variation;
  absl::Duration elapsed;
  // "easy", "medium", "hard" or the external engine's id: the metrics label.
  std::string engine;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_CHOICE_H_
