// Deep perft counts of the rule sets beyond the seeds (label perft-deep,
// run in the Release tree by scripts/test).

#include <gtest/gtest.h>

#include "perft_support.h"
#include "variant_perft_counts.h"

namespace draughts::rules {
namespace {

using testing::Counted;
using testing::ExpectPerft;
using testing::GetVariant;

constexpr std::size_t kTableBytes = std::size_t{64} << 20;

TEST(VariantPerftDeep, Russian) {
  ExpectPerft(GetVariant("russian"), testing::kRussianPathPerft, 9, 10);
  ExpectPerft(Counted("russian", CaptureIdentity::kPieceSet), testing::kRussianUniquePerft, 9, 11,
              kTableBytes);
}

TEST(VariantPerftDeep, Brazilian) {
  ExpectPerft(GetVariant("brazilian"), testing::kBrazilianUniquePerft, 9, 10);
  ExpectPerft(GetVariant("brazilian"), testing::kBrazilianUniquePerft, 11, 11, kTableBytes);
  ExpectPerft(Counted("brazilian", CaptureIdentity::kOrder), testing::kBrazilianPathPerft, 9, 10,
              kTableBytes);
}

TEST(VariantPerftDeep, Pool) {
  ExpectPerft(Counted("pool", CaptureIdentity::kPieceSet), testing::kPoolUniquePerft, 9, 11,
              kTableBytes);
}

TEST(VariantPerftDeep, Czech) {
  ExpectPerft(GetVariant("czech"), testing::kCzechUniquePerft, 9, 10);
  ExpectPerft(GetVariant("czech"), testing::kCzechUniquePerft, 11, 11, kTableBytes);
}

TEST(VariantPerftDeep, Spanish) {
  ExpectPerft(GetVariant("spanish"), testing::kSpanishUniquePerft, 9, 10);
  ExpectPerft(GetVariant("spanish"), testing::kSpanishUniquePerft, 11, 11, kTableBytes);
}

TEST(VariantPerftDeep, Italian) {
  ExpectPerft(GetVariant("italian"), testing::kItalianUniquePerft, 9, 10);
  ExpectPerft(GetVariant("italian"), testing::kItalianUniquePerft, 11, 11, kTableBytes);
}

TEST(VariantPerftDeep, Thai) {
  ExpectPerft(GetVariant("thai"), testing::kThaiUniquePerft, 7, 8);
  ExpectPerft(GetVariant("thai"), testing::kThaiUniquePerft, 9, 9, kTableBytes);
  Variant twelve = GetVariant("thai");
  twelve.initial_rows = 3;
  ExpectPerft(twelve, testing::kThaiTwelveMenUniquePerft, 9, 11, kTableBytes);
}

TEST(VariantPerftDeep, Frisian) {
  // The three-king-moves rule cannot matter before depth 13.
  ExpectPerft(GetVariant("frisian"), testing::kFrisianUniquePerft, 7, 9);
  ExpectPerft(GetVariant("frisian"), testing::kFrisianUniquePerft, 10, 11, kTableBytes);
}

TEST(VariantPerftDeep, Turkish) {
  ExpectPerft(GetVariant("turkish"), testing::kTurkishPathPerft, 8, 9);
  ExpectPerft(GetVariant("turkish"), testing::kTurkishPathPerft, 10, 10, kTableBytes);
}

}  // namespace
}  // namespace draughts::rules
