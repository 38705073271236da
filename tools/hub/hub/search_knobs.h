#pragma once

// The "search" parameter: the engine's search knobs (engine/searcher.h,
// SearchTuning) as "name=value" pairs separated by commas, for matches
// that compare two settings of the same binary, e.g.
//   probcut-margin=80,futility-margin=0
// Names not given keep their defaults; an empty value restores them all.

#include <string>
#include <string_view>

#include "engine/searcher.h"
#include "rules/result.h"

namespace draughts::hub {

rules::Result<engine::SearchTuning> ParseSearchKnobs(std::string_view text);

// The knob names ParseSearchKnobs accepts, space-separated.
std::string SearchKnobNames();

}  // namespace draughts::hub
