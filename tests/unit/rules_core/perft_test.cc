// Perft counts shallow enough for the sanitizer build (label perft).

#include <gtest/gtest.h>

#include "perft_counts.h"
#include "rules/perft.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using ::draughts::rules::testing::GetVariant;

template <std::size_t N>
void ExpectCounts(std::string_view id, const std::array<std::uint64_t, N>& counts, int max_depth) {
  const Variant v = GetVariant(id);
  const Position start = Position::Initial(v);
  EXPECT_EQ(Perft(v, start, 0), 1u);
  for (int depth = 1; depth <= max_depth; ++depth)
    EXPECT_EQ(Perft(v, start, depth), counts[depth - 1]) << id << " depth " << depth;
}

TEST(Perft, InternationalToDepth8) {
  ExpectCounts("international", testing::kInternationalPerft, 8);
}
TEST(Perft, EnglishToDepth9) {
  ExpectCounts("english", testing::kEnglishPerft, 9);
}
TEST(Perft, CanadianToDepth7) {
  ExpectCounts("canadian", testing::kCanadianPerft, 7);
}

TEST(Perft, HashTableGivesTheSameCounts) {
  for (std::string_view id : {"international", "english", "canadian", "tutorial-8x8"}) {
    const Variant v = GetVariant(id);
    const Position start = Position::Initial(v);
    // A tiny table forces many replacements and collisions of slots.
    for (std::size_t bytes : {std::size_t{1} << 10, std::size_t{1} << 20}) {
      EXPECT_EQ(Perft(v, start, 6, {.hash_bytes = bytes}), Perft(v, start, 6)) << id;
    }
  }
}

TEST(Perft, DivideSumsToPerft) {
  const Variant v = GetVariant("international");
  const Position start = Position::Initial(v);
  const auto entries = PerftDivide(v, start, 4);
  ASSERT_EQ(entries.size(), 9u);
  std::uint64_t total = 0;
  for (const auto& e : entries) total += e.count;
  EXPECT_EQ(total, testing::kInternationalPerft[3]);
}

TEST(Perft, DivideWithTableMatches) {
  const Variant v = GetVariant("english");
  const Position start = Position::Initial(v);
  const auto plain = PerftDivide(v, start, 6);
  const auto hashed = PerftDivide(v, start, 6, {.hash_bytes = std::size_t{1} << 16});
  ASSERT_EQ(plain.size(), hashed.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(plain[i].move, hashed[i].move);
    EXPECT_EQ(plain[i].count, hashed[i].count);
  }
}

TEST(Perft, WrongBoardCountsNothing) {
  EXPECT_EQ(Perft(GetVariant("international"), Position::Initial(GetVariant("english")), 3), 0u);
}

}  // namespace
}  // namespace draughts::rules
