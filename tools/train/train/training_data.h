#pragma once

// One line per sampled position, the file the generator writes and the
// trainer reads (text, so it can be inspected and concatenated):
//
//   <result> <score> <fen>
//
// result: the game's outcome for white (1, 0.5 or 0); score: the search
// score of the generator's engine in the position, from white's point of
// view, in hundredths of a man; fen: rules/fen.h.

#include <iosfwd>
#include <string>
#include <string_view>

#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::train {

struct Sample {
  double result = 0.5;  // for white
  int score = 0;        // for white
  rules::Position position;
};

std::string FormatSample(const Sample& sample);
rules::Result<Sample> ParseSample(const rules::Variant& variant, std::string_view line);

}  // namespace draughts::train
