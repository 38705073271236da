#pragma once

// The learned weights of the pattern evaluation (pattern_features.h) and
// their file format, data/eval/<family>-v1.weights, written by tools/train
// and built into the engine (docs/EVALUATION.md). All integers little-endian:
//
//   8 bytes  magic "DRWEIGHT"
//   u32      format version (kWeightsFormatVersion)
//   u32      family name length, then the name (e.g. "international")
//   u32      board dimension (8 or 10)
//   u64      feature layout hash (PatternLayoutHash: windows, states, scalars)
//   u32      weight count, then that many int16
//   u64      FNV-1a 64 of every byte before it
//
// A file whose version, family, board, layout or checksum does not match
// is refused with a clear error, and the engine keeps its hand-set
// evaluation for that rule set. A file of the first layout (patterns,
// material and the hand-set evaluation only: LegacyPatternLayoutHash) is
// read with the terms added since at 0, so it evaluates as it always did.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::engine {

inline constexpr std::uint32_t kWeightsFormatVersion = 1;

struct PatternWeights {
  std::string family;
  int board_dimension = 0;
  std::vector<std::int16_t> values;  // Shape<L>::kWeightCount of them (once parsed)
};

// The weights family of a rule set, or nullopt when none is trained for it
// (those rule sets keep the hand-set evaluation).
std::optional<std::string_view> PatternFamily(const rules::Variant& variant);

// Identifies the feature layout a board dimension uses; a file made for
// another layout is refused.
std::uint64_t PatternLayoutHash(int board_dimension);
std::uint64_t LegacyPatternLayoutHash(int board_dimension);
// Shape<L>::kWeightCount for that board dimension, 0 if it has no patterns.
int PatternWeightCount(int board_dimension);

std::vector<std::uint8_t> SerializeWeights(const PatternWeights& weights);
rules::Result<PatternWeights> ParseWeights(std::span<const std::uint8_t> bytes,
                                           std::string_view expected_family,
                                           int expected_board_dimension);

// The weights built into this binary for `family` (parsed once), or null
// when none are built in or they fail to parse (BuiltInWeightsError says why).
const PatternWeights* BuiltInWeights(std::string_view family);
std::string BuiltInWeightsError(std::string_view family);

// The bytes of data/eval/<family>-v1.weights as built in (generated at
// configure time, embedded_weights.cc); empty when the file was missing.
std::span<const std::uint8_t> EmbeddedWeightsFile(std::string_view family);

}  // namespace draughts::engine
