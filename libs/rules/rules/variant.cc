#include "rules/variant.h"

#include <string>

namespace draughts::rules {
namespace {

// FMJD rules, seed 000: 25 moves each with only kings moved and no capture;
// one king against three pieces including a king: 16 moves each; against
// two or fewer including a king: 5 moves each.
constexpr DrawRules kInternationalDraws{
    .repetitions = 3,
    .no_progress_moves = 25,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {{{.min_pieces = 3, .max_pieces = 3, .moves_per_side = 16},
                   {.min_pieces = 1, .max_pieces = 2, .moves_per_side = 5}}},
    .move_limit_plies = 0,
};

// Seed 001: threefold (same side to move); 40 moves each without capture or
// man move. Seed 003 offers "40 in total" and a move limit as table options.
constexpr DrawRules kEnglishDraws{
    .repetitions = 3,
    .no_progress_moves = 40,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {},
    .move_limit_plies = 0,
};

std::vector<Variant> MakeVariants() {
  std::vector<Variant> v;
  // Seed 000: 10x10, 20 men, White first, men capture backwards, flying
  // kings, majority capture, promotion only where the move ends.
  v.push_back(Variant{
      .id = "international",
      .name = "International draughts",
      .pdn_game_type = 20,
      .board = BoardSize::k10x10,
      .initial_rows = 4,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kMajority,
      .promotion_in_capture = PromotionInCapture::kPassThrough,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kInternationalDraws,
  });
  // Seed 002: international rules on 12x12 with 30 men (5 rows).
  v.push_back(Variant{
      .id = "canadian",
      .name = "Canadian draughts",
      .pdn_game_type = 27,
      .board = BoardSize::k12x12,
      .initial_rows = 5,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kMajority,
      .promotion_in_capture = PromotionInCapture::kPassThrough,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kInternationalDraws,
  });
  // Seeds 001 and 003: Black (squares 1-12) moves first, the other side is
  // red on those pages; men move and capture forward only, one-step kings,
  // free choice, crowning ends the move; every capture path is a move.
  v.push_back(Variant{
      .id = "english",
      .name = "English checkers",
      .pdn_game_type = 21,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kBlack,
      .white_name = "Red",
      .black_name = "Black",
      .men_capture_backward = false,
      .king_range = KingRange::kShort,
      .capture_choice = CaptureChoice::kFree,
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .capture_identity = CaptureIdentity::kPath,
      .mandatory_capture = true,
      .draw = kEnglishDraws,
  });
  // Seed 004 (the step-by-step tutorial): 8x8, Red at the bottom (our
  // kWhite) moves first, men capture backwards, flying kings, free choice,
  // promotion ends the turn, draw rules as English. No official PDN
  // GameType exists for it, so pdn_game_type is 0 ("none").
  v.push_back(Variant{
      .id = "tutorial-8x8",
      .name = "Checkers with flying kings (tutorial)",
      .pdn_game_type = 0,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kWhite,
      .white_name = "Red",
      .black_name = "Black",
      .men_capture_backward = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kFree,
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .capture_identity = CaptureIdentity::kPath,
      .mandatory_capture = true,
      .draw = kEnglishDraws,
  });
  return v;
}

}  // namespace

const std::vector<Variant>& AllVariants() {
  static const std::vector<Variant> variants = MakeVariants();
  return variants;
}

Result<Variant> FindVariant(std::string_view id) {
  std::string known;
  for (const Variant& v : AllVariants()) {
    if (v.id == id) return v;
    if (!known.empty()) known += ", ";
    known += v.id;
  }
  return MakeError("unknown variant '" + std::string(id) + "' (known: " + known + ")");
}

std::optional<Error> CheckVariant(const Variant& v) {
  const int n = BoardDimension(v.board);
  if (v.board != BoardSize::k8x8 && v.board != BoardSize::k10x10 && v.board != BoardSize::k12x12)
    return MakeError("unsupported board size " + std::to_string(n));
  if (v.initial_rows < 1 || 2 * v.initial_rows >= n)
    return MakeError("initial_rows must leave at least one empty row between the sides, got " +
                     std::to_string(v.initial_rows) + " on " + std::to_string(n) + "x" +
                     std::to_string(n));
  if (v.first_to_move != Color::kWhite && v.first_to_move != Color::kBlack)
    return MakeError("first_to_move is not a colour");
  const DrawRules& d = v.draw;
  if (d.repetitions < 0 || d.no_progress_moves < 0 || d.move_limit_plies < 0)
    return MakeError("draw rule counts must not be negative");
  for (const DrawRules::LoneKingRule& r : d.lone_king) {
    if (r.moves_per_side < 0 ||
        (r.moves_per_side > 0 && (r.min_pieces < 1 || r.max_pieces < r.min_pieces)))
      return MakeError("lone-king draw rule needs 1 <= min_pieces <= max_pieces");
  }
  return std::nullopt;
}

}  // namespace draughts::rules
