#pragma once

// Perft of a rule set's start position against a published list, under the
// list's counting convention (variant_perft_counts.h).

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "rules/perft.h"
#include "test_support.h"

namespace draughts::rules::testing {

// The built-in rule set with another capture identity (the published list's).
inline Variant Counted(std::string_view id, CaptureIdentity identity) {
  Variant v = GetVariant(id);
  v.capture_identity = identity;
  return v;
}

template <std::size_t N>
void ExpectPerft(const Variant& v, const std::array<std::uint64_t, N>& counts, int from_depth,
                 int to_depth, std::size_t table_bytes = 0) {
  const Position start = Position::Initial(v);
  for (int depth = from_depth; depth <= to_depth; ++depth) {
    EXPECT_EQ(Perft(v, start, depth, {.hash_bytes = table_bytes}), counts[depth - 1])
        << v.id << " depth " << depth;
  }
}

}  // namespace draughts::rules::testing
