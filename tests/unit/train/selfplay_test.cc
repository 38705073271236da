// The generator: every sampled position is legal, quiet and labelled with
// its game's result, and survives the text format.

#include "train/selfplay.h"

#include <gtest/gtest.h>

#include "rules/movegen.h"
#include "test_support.h"
#include "train/training_data.h"

namespace draughts::train {
namespace {

using engine::testing::VariantOrDie;

bool AnyCapture(const rules::Variant& variant, const rules::Position& p) {
  for (const rules::Move& m : rules::LegalMoves(variant, p)) {
    if (m.capture_count > 0) return true;
  }
  return false;
}

TEST(TrainSelfPlay, SamplesAreLegalQuietAndLabelled) {
  for (const char* id : {"english", "international"}) {
    const rules::Variant variant = VariantOrDie(id);
    SelfPlayOptions options;
    options.nodes_per_move = 150;
    options.sample_rate = 1.0;
    options.max_plies = 120;
    engine::Engine engine(1);
    std::size_t samples = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const GameSamples game = PlaySelfPlayGame(variant, options, engine, seed);
      EXPECT_TRUE(game.result == 0.0 || game.result == 0.5 || game.result == 1.0);
      EXPECT_LE(game.plies, options.max_plies);
      for (const Sample& s : game.samples) {
        ++samples;
        EXPECT_EQ(s.result, game.result);
        // Legal: the same position rebuilt through the checked setup path.
        auto rebuilt = rules::Position::FromSetup(variant, s.position.ToSetup());
        ASSERT_TRUE(rebuilt.ok()) << rebuilt.error().message;
        EXPECT_EQ(*rebuilt, s.position);
        EXPECT_FALSE(rules::LegalMoves(variant, s.position).empty());
        // Quiet for the side to move and for the other side.
        EXPECT_FALSE(AnyCapture(variant, s.position));
        const auto other = rules::Position::FromBits(
            s.position.board(), rules::Opponent(s.position.side_to_move()), s.position.white(),
            s.position.black(), s.position.kings());
        EXPECT_FALSE(AnyCapture(variant, other));
        // The text line reads back the same.
        auto parsed = ParseSample(variant, FormatSample(s));
        ASSERT_TRUE(parsed.ok()) << parsed.error().message;
        EXPECT_EQ(parsed->result, s.result);
        EXPECT_EQ(parsed->score, s.score);
        EXPECT_EQ(parsed->position, s.position);
      }
    }
    EXPECT_GT(samples, 20u) << id;
  }
}

TEST(TrainSelfPlay, BadLinesAreRefused) {
  const rules::Variant variant = VariantOrDie("english");
  EXPECT_FALSE(ParseSample(variant, "").ok());
  EXPECT_FALSE(ParseSample(variant, "2 0 W:W21:B1").ok());
  EXPECT_FALSE(ParseSample(variant, "1 x W:W21:B1").ok());
  EXPECT_FALSE(ParseSample(variant, "1 0 nonsense").ok());
  EXPECT_TRUE(ParseSample(variant, "1 0 W:W21:B1").ok());
}

}  // namespace
}  // namespace draughts::train
