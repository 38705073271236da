// Perft counts of the rule sets beyond the seeds, shallow enough for the
// sanitizer build (label perft); deeper ones are in perft_deep_test.cc.

#include <gtest/gtest.h>

#include "perft_support.h"
#include "variant_perft_counts.h"

namespace draughts::rules {
namespace {

using testing::Counted;
using testing::ExpectPerft;
using testing::GetVariant;

TEST(VariantPerft, RussianAsPlayed) {
  // Russian captures are identified by the order of the pieces taken.
  ExpectPerft(GetVariant("russian"), testing::kRussianPathPerft, 1, 8);
}
TEST(VariantPerft, RussianUnique) {
  ExpectPerft(Counted("russian", CaptureIdentity::kPieceSet), testing::kRussianUniquePerft, 7, 8);
}

TEST(VariantPerft, BrazilianAsPlayed) {
  // FMJD rules: the same pieces taken, by any path, are one move.
  ExpectPerft(GetVariant("brazilian"), testing::kBrazilianUniquePerft, 1, 8);
}
TEST(VariantPerft, BrazilianPaths) {
  ExpectPerft(Counted("brazilian", CaptureIdentity::kOrder), testing::kBrazilianPathPerft, 7, 8);
}

TEST(VariantPerft, PoolUnique) {
  ExpectPerft(Counted("pool", CaptureIdentity::kPieceSet), testing::kPoolUniquePerft, 1, 8);
}

TEST(VariantPerft, Czech) {
  ExpectPerft(GetVariant("czech"), testing::kCzechUniquePerft, 1, 8);
}
TEST(VariantPerft, Spanish) {
  ExpectPerft(GetVariant("spanish"), testing::kSpanishUniquePerft, 1, 8);
}
TEST(VariantPerft, Italian) {
  ExpectPerft(GetVariant("italian"), testing::kItalianUniquePerft, 1, 8);
}
TEST(VariantPerft, Thai) {
  ExpectPerft(GetVariant("thai"), testing::kThaiUniquePerft, 1, 6);
}
TEST(VariantPerft, ThaiFromTwelveMen) {
  Variant v = GetVariant("thai");
  v.initial_rows = 3;
  ExpectPerft(v, testing::kThaiTwelveMenUniquePerft, 1, 8);
}

TEST(VariantPerft, Frisian) {
  ExpectPerft(GetVariant("frisian"), testing::kFrisianUniquePerft, 1, 6);
}

TEST(VariantPerft, Turkish) {
  ExpectPerft(GetVariant("turkish"), testing::kTurkishPathPerft, 1, 7);
}

TEST(VariantPerft, TableGivesTheSameCounts) {
  for (const Variant& v : AllVariants()) {
    const Position start = Position::Initial(v);
    const int depth = v.board == BoardSize::k8x8 || v.board == BoardSize::kFull8x8 ? 7 : 5;
    EXPECT_EQ(Perft(v, start, depth, {.hash_bytes = std::size_t{1} << 12}), Perft(v, start, depth))
        << v.id;
  }
}

}  // namespace
}  // namespace draughts::rules
