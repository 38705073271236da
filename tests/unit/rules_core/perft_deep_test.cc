// Deep perft counts (label perft-deep): run in the Release tree by
// scripts/test. The deepest published depths are left to the benchmark
// (tests/bench/perft/run.sh).

#include <gtest/gtest.h>

#include "perft_counts.h"
#include "rules/perft.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using ::draughts::rules::testing::GetVariant;

constexpr std::size_t kTableBytes = std::size_t{64} << 20;

std::uint64_t Count(std::string_view id, int depth, std::size_t table_bytes) {
  const Variant v = GetVariant(id);
  return Perft(v, Position::Initial(v), depth, {.hash_bytes = table_bytes});
}

// Without a table: the move generator alone.
TEST(PerftDeep, International10) {
  EXPECT_EQ(Count("international", 10, 0), testing::kInternationalPerft[9]);
}
TEST(PerftDeep, English11) {
  EXPECT_EQ(Count("english", 11, 0), testing::kEnglishPerft[10]);
}
TEST(PerftDeep, Canadian8) {
  EXPECT_EQ(Count("canadian", 8, 0), testing::kCanadianPerft[7]);
}

// With a table, deeper.
TEST(PerftDeep, International11WithTable) {
  EXPECT_EQ(Count("international", 11, kTableBytes), testing::kInternationalPerft[10]);
}
TEST(PerftDeep, English12WithTable) {
  EXPECT_EQ(Count("english", 12, kTableBytes), testing::kEnglishPerft[11]);
}

}  // namespace
}  // namespace draughts::rules
