#include <gtest/gtest.h>

#include "egdb/slice.h"
#include "rules/layout.h"
#include "rules/position.h"

namespace draughts::egdb {
namespace {

template <class L>
void ExpectRoundTrip(Signature s) {
  using Ix = Indexing<L>;
  const SliceShape shape(s, L::kSquares, L::kHalf);
  std::uint64_t valid = 0;
  for (std::uint64_t i = 0; i < shape.size; ++i) {
    rules::internal::Board<L> b;
    if (!Ix::Decode(shape, i, b)) continue;
    ++valid;
    ASSERT_EQ(Ix::SignatureOf(b), s) << i;
    ASSERT_EQ(Ix::Index(shape, b), i) << s.Name() << " index " << i;
    // No man on its own crowning row.
    ASSERT_EQ(b.white & ~b.kings & L::PromotionRow(true), 0u);
    ASSERT_EQ(b.black & ~b.kings & L::PromotionRow(false), 0u);
    // Mirroring twice gives the board back, and swaps the signature.
    const auto m = Ix::Mirror(b);
    ASSERT_EQ(Ix::SignatureOf(m), s.Mirrored());
    ASSERT_EQ(Ix::Mirror(m), b);
  }
  EXPECT_GT(valid, 0u);
  EXPECT_LE(valid, shape.size);
}

TEST(EgdbIndexing, RoundTripOnEverySmall8x8Slice) {
  for (const Signature& s : CanonicalSignatures(3)) ExpectRoundTrip<rules::Layout8>(s);
  ExpectRoundTrip<rules::Layout8>({1, 1, 1, 1});
  ExpectRoundTrip<rules::Layout8>({0, 2, 1, 0});
}

TEST(EgdbIndexing, RoundTripOn10x10Slices) {
  ExpectRoundTrip<rules::Layout10>({1, 1, 1, 0});
  ExpectRoundTrip<rules::Layout10>({2, 0, 0, 1});
  ExpectRoundTrip<rules::Layout10>({0, 1, 1, 0});
}

TEST(EgdbIndexing, ValidPlacementsMatchACountBySquares) {
  // 8x8, one white man, one black king: 28 squares for the man, 31 left.
  const SliceShape shape({1, 0, 0, 1}, 32, 4);
  std::uint64_t valid = 0;
  for (std::uint64_t i = 0; i < shape.size; ++i) {
    rules::internal::Board<rules::Layout8> b;
    if (Indexing<rules::Layout8>::Decode(shape, i, b)) ++valid;
  }
  EXPECT_EQ(shape.size, 28u * 32u);
  EXPECT_EQ(valid, 28u * 31u);
}

TEST(EgdbIndexing, MirrorTurnsTheBoardHalfATurn) {
  using Ix = Indexing<rules::Layout10>;
  for (int square = 1; square <= 50; ++square) {
    const auto bit = rules::BitAt<std::uint64_t>(rules::Layout10::BitOfSquare(square));
    const auto mirrored = Ix::MirrorBits(bit);
    EXPECT_EQ(mirrored, rules::BitAt<std::uint64_t>(rules::Layout10::BitOfSquare(51 - square)))
        << square;
  }
  using Ix8 = Indexing<rules::Layout8>;
  for (int square = 1; square <= 32; ++square) {
    const auto bit = rules::BitAt<std::uint64_t>(rules::Layout8::BitOfSquare(square));
    EXPECT_EQ(Ix8::MirrorBits(bit),
              rules::BitAt<std::uint64_t>(rules::Layout8::BitOfSquare(33 - square)));
  }
}

TEST(EgdbIndexing, CanonicalSignaturesComeAfterWhatTheyLeadTo) {
  const auto all = CanonicalSignatures(5);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_TRUE(all[i].IsCanonical());
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(all[i], all[j]);
    if (i > 0) {
      EXPECT_TRUE(all[i - 1].pieces() < all[i].pieces() ||
                  (all[i - 1].pieces() == all[i].pieces() && all[i - 1].men() <= all[i].men()));
    }
  }
  // 2 pieces: K-K, M-K, M-M... (canonical of each mirror pair).
  EXPECT_EQ(CanonicalSignatures(2).size(), 3u);
}

}  // namespace
}  // namespace draughts::egdb
