#include "hub/search_knobs.h"

#include <array>
#include <charconv>
#include <utility>

namespace draughts::hub {
namespace {

struct Knob {
  std::string_view name;
  int engine::SearchTuning::*field;
  int min;
  int max;
};

constexpr std::array kKnobs = {
    Knob{"threat-budget", &engine::SearchTuning::threat_budget, 0, 8},
    Knob{"lmr-min-index", &engine::SearchTuning::lmr_min_index, 1, 64},
    Knob{"lmr-min-depth", &engine::SearchTuning::lmr_min_depth, 1, 64},
    Knob{"lmr-deep-index", &engine::SearchTuning::lmr_deep_index, 1, 64},
    Knob{"lmr-deep-depth", &engine::SearchTuning::lmr_deep_depth, 1, 64},
    Knob{"probcut-margin", &engine::SearchTuning::probcut_margin, 0, 2000},
    Knob{"probcut-min-depth", &engine::SearchTuning::probcut_min_depth, 2, 64},
    Knob{"probcut-reduction", &engine::SearchTuning::probcut_reduction, 1, 16},
    Knob{"futility-margin", &engine::SearchTuning::futility_margin, 0, 2000},
    Knob{"futility-max-depth", &engine::SearchTuning::futility_max_depth, 0, 16},
};

}  // namespace

rules::Result<engine::SearchTuning> ParseSearchKnobs(std::string_view text) {
  engine::SearchTuning tuning;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view pair = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t equals = pair.find('=');
    if (equals == std::string_view::npos) {
      return rules::MakeError("search knob '" + std::string(pair) + "' has no '=value'");
    }
    const std::string_view name = pair.substr(0, equals);
    const std::string_view value = pair.substr(equals + 1);
    const Knob* knob = nullptr;
    for (const Knob& k : kKnobs) {
      if (k.name == name) knob = &k;
    }
    if (knob == nullptr) {
      return rules::MakeError("unknown search knob '" + std::string(name) +
                              "' (known: " + SearchKnobNames() + ")");
    }
    int number = 0;
    const char* end = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), end, number);
    if (ec != std::errc() || ptr != end || number < knob->min || number > knob->max) {
      return rules::MakeError("search knob " + std::string(name) + " must be " +
                              std::to_string(knob->min) + ".." + std::to_string(knob->max) +
                              ", got '" + std::string(value) + "'");
    }
    tuning.*(knob->field) = number;
  }
  return tuning;
}

std::string SearchKnobNames() {
  std::string names;
  for (const Knob& k : kKnobs) {
    if (!names.empty()) names += ' ';
    names += k.name;
  }
  return names;
}

}  // namespace draughts::hub
