#include "test_support.h"

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/geometry.h"
#include "rules/move_notation.h"

namespace draughts::engine::testing {

rules::Variant VariantOrDie(std::string_view id) {
  auto variant = rules::FindVariant(id);
  EXPECT_TRUE(variant.ok()) << variant.error().ToString();
  return variant.ok() ? *variant : rules::AllVariants().front();
}

rules::Position PositionOrDie(const rules::Variant& variant, std::string_view fen) {
  auto position = rules::ParseFen(variant, fen);
  EXPECT_TRUE(position.ok()) << fen << ": " << position.error().ToString();
  return position.ok() ? *position : rules::Position::Initial(variant);
}

rules::GameRecord RecordOrDie(const rules::Variant& variant, std::string_view fen,
                              const std::vector<std::string>& moves) {
  rules::GameRecord record(variant, PositionOrDie(variant, fen));
  for (const std::string& move : moves) {
    auto next = record.Play(move);
    EXPECT_TRUE(next.ok()) << move << ": " << next.error().ToString();
    if (!next.ok()) break;
    record = *next;
  }
  return record;
}

std::string Path(const rules::Move& move) {
  return rules::FormatMovePath(move);
}

std::vector<rules::GameRecord> RandomGames(const rules::Variant& variant, int games, int max_plies,
                                           std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<rules::GameRecord> out;
  for (int g = 0; g < games; ++g) {
    rules::GameRecord record(variant);
    const int plies = static_cast<int>(rng() % static_cast<std::uint64_t>(max_plies + 1));
    for (int i = 0; i < plies; ++i) {
      const auto& legal = record.legal_moves();
      auto next = record.Play(legal[rng() % legal.size()]);
      // Stop one move short of the end: every sample is an ongoing game.
      if (!next.ok() || next->is_over()) break;
      record = *next;
    }
    out.push_back(record);
  }
  return out;
}

rules::Position Mirror(const rules::Variant& variant, const rules::Position& position) {
  rules::PositionSetup setup = position.ToSetup();
  const int n = rules::SquareCount(position.board());
  setup.side_to_move = rules::Opponent(setup.side_to_move);
  for (rules::SetupPiece& piece : setup.pieces) {
    piece.square = n + 1 - piece.square;
    piece.color = rules::Opponent(piece.color);
  }
  auto mirrored = rules::Position::FromSetup(variant, setup);
  EXPECT_TRUE(mirrored.ok());
  return *mirrored;
}

}  // namespace draughts::engine::testing
