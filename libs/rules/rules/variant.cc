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

// Russian federation rules (Kodeks 2004): threefold repetition; 15 moves
// each with only kings moved and no capture; three pieces including a king
// against a lone king: 15 moves; fewer: 5 moves. Its finer rules (30 and 60
// moves in equal-kings endings of 4-7 pieces) are not modelled.
constexpr DrawRules kRussianDraws{
    .repetitions = 3,
    .no_progress_moves = 15,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {{{.min_pieces = 3, .max_pieces = 3, .moves_per_side = 15},
                   {.min_pieces = 1, .max_pieces = 2, .moves_per_side = 5}}},
    .move_limit_plies = 0,
};

// APCA tournament rules: threefold repetition; 15 moves each without a
// capture or a man move (30 plies, rule 26); three kings against one must
// win within 13 moves (read here as three pieces including a king).
constexpr DrawRules kPoolDraws{
    .repetitions = 3,
    .no_progress_moves = 15,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {{{.min_pieces = 3, .max_pieces = 3, .moves_per_side = 13}, {}}},
    .move_limit_plies = 0,
};

// FID Regolamento Tecnico (9.3 b1, 10.4): the same position for the fourth
// time; 40 moves each without a capture or a man move.
constexpr DrawRules kItalianDraws{
    .repetitions = 4,
    .no_progress_moves = 40,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {},
    .move_limit_plies = 0,
};

// Antidraughts: repetition and the 25-move rule of international draughts;
// the lone-king rules are dropped, a lone king being the winning side's
// goal there, not a drawn ending.
constexpr DrawRules kAntidraughtsDraws{
    .repetitions = 3,
    .no_progress_moves = 25,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {},
    .move_limit_plies = 0,
};

// Frisian rules (Dambûn Frysk Spul): two kings against one must win within
// 7 moves. Repetition and the 25-move rule as international, the closest
// seed; the threefold rule applies as everywhere.
constexpr DrawRules kFrisianDraws{
    .repetitions = 3,
    .no_progress_moves = 25,
    .no_progress_counting = MoveCounting::kPerSide,
    .lone_king = {{{.min_pieces = 2, .max_pieces = 2, .moves_per_side = 7}, {}}},
    .move_limit_plies = 0,
};

// Turkish draughts: the sources at hand (the Turkish learning guide of
// damaakademisi.com, section 19; alemanni.pagesperso-orange.fr) name
// agreement and repetition only. The closest seed with flying kings and the
// majority rule is international: its threefold and 25-move rules are used,
// so a game cannot go on for ever; its lone-king rules are not, their
// counts being made for diagonal kings.
constexpr DrawRules kTurkishDraws{
    .repetitions = 3,
    .no_progress_moves = 25,
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

  // Russian draughts (shashki), Russian federation rules (Kodeks 2004,
  // 1.4-1.5): 8x8, White first, men capture backwards, flying kings, free
  // choice among captures; a man reaching the last row during a capture is
  // crowned at once and goes on capturing as a king (1.5.15). Captures
  // taking the pieces in another order are other moves.
  v.push_back(Variant{
      .id = "russian",
      .name = "Russian draughts",
      .pdn_game_type = 25,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kFree,
      .promotion_in_capture = PromotionInCapture::kContinuesAsKing,
      .capture_identity = CaptureIdentity::kOrder,
      .mandatory_capture = true,
      .draw = kRussianDraws,
  });
  // Brazilian draughts: the FMJD international rules on 8x8 with 12 men
  // (Brazilian federation); draw rules as international, the closest.
  v.push_back(Variant{
      .id = "brazilian",
      .name = "Brazilian draughts",
      .pdn_game_type = 26,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
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
  // American pool checkers, APCA tournament rules: Black (squares 1-12)
  // moves first (7), men capture backwards (14), flying kings (15), free
  // choice (20); a man that reaches the king row by a jump and can jump on
  // (backwards) must, and stays a man: crowned only where the move ends (16).
  v.push_back(Variant{
      .id = "pool",
      .name = "Pool checkers",
      .pdn_game_type = 23,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kBlack,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kFree,
      .promotion_in_capture = PromotionInCapture::kPassThrough,
      .capture_identity = CaptureIdentity::kOrder,
      .mandatory_capture = true,
      .draw = kPoolDraws,
  });
  // Spanish draughts (the Spanish and Portuguese federations' rules): 8x8
  // shown mirrored (double corner on the left), White first, men move and
  // capture forward only, flying kings; the capture taking the most pieces,
  // then the most kings, is compulsory. No federation draw rules at hand:
  // those of the closest seed, the 8x8 flying-king tutorial (as English).
  v.push_back(Variant{
      .id = "spanish",
      .name = "Spanish draughts",
      .pdn_game_type = 24,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .mirrored = true,
      .men_capture_backward = false,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kMajority,
      .capture_priority = {.with_king = false, .most_kings = true, .earliest_king = false},
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kEnglishDraws,
  });
  // Czech draughts (Czech draughts federation rules, damweb.cz: 3.9 flying
  // kings, 4.1 men capture forward only, 4.14 when both a king and a man
  // can capture, the king must; otherwise free choice). White first. Draw
  // rules: as the closest seed (the 8x8 flying-king tutorial, as English).
  v.push_back(Variant{
      .id = "czech",
      .name = "Czech draughts",
      .pdn_game_type = 29,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = false,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kFree,
      .capture_priority = {.with_king = true, .most_kings = false, .earliest_king = false},
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kEnglishDraws,
  });
  // Italian draughts, Federazione Italiana Dama (Regolamento Tecnico): 8x8
  // shown mirrored (the corner square on each player's right is dark),
  // White first; men move and capture forward only and may not take a king
  // (5.3); kings move and take one step; precedence (6.6-6.9): the most
  // pieces, then a capture by a king, then the most kings, then the one
  // meeting a king first. FID numbering: see MirroredSquare().
  v.push_back(Variant{
      .id = "italian",
      .name = "Italian draughts",
      .pdn_game_type = 22,
      .board = BoardSize::k8x8,
      .initial_rows = 3,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .mirrored = true,
      .men_capture_backward = false,
      .men_capture_kings = false,
      .king_range = KingRange::kShort,
      .capture_choice = CaptureChoice::kMajority,
      .capture_priority = {.with_king = true, .most_kings = true, .earliest_king = true},
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kItalianDraws,
  });
  // Thai draughts (mak-hos): 8x8, 8 men each on two rows, White first
  // (no fixed rule; as mindsports.nl and the Thai sites), men move and
  // capture forward only, a king moves any distance but lands right behind
  // the piece it takes, pieces leave the board as they are jumped so a king
  // may cross their squares and turn back, free choice among captures
  // (rules as described by mindsports.nl, the checkers wiki "Mak-hot" and
  // Rein Halbersma's DCTL). Draw rules: as the closest seed (English).
  v.push_back(Variant{
      .id = "thai",
      .name = "Thai draughts (mak-hos)",
      .pdn_game_type = 31,
      .board = BoardSize::k8x8,
      .initial_rows = 2,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = false,
      .king_range = KingRange::kFlying,
      .king_landing = KingLanding::kRightBehind,
      .capture_choice = CaptureChoice::kFree,
      .promotion_in_capture = PromotionInCapture::kEndsMove,
      .captured_removal = CapturedRemoval::kAtOnce,
      .king_may_turn_back = true,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .draw = kEnglishDraws,
  });
  // Antidraughts (giveaway, "qui perd gagne") on international rules: the
  // moves are those of international draughts, and the side that cannot
  // move, having lost or blocked all its pieces, wins. No official PDN
  // GameType (0).
  v.push_back(Variant{
      .id = "antidraughts",
      .name = "Antidraughts",
      .pdn_game_type = 0,
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
      .goal = Goal::kLoseEverything,
      .draw = kAntidraughtsDraws,
  });
  // Breakthrough draughts on international rules: the first side to crown a
  // man wins (and a side that cannot move still loses). Draw rules as
  // international (only repetition can apply before a king appears, and
  // men cannot repeat a position). No official PDN GameType (0).
  v.push_back(Variant{
      .id = "breakthrough",
      .name = "Breakthrough draughts",
      .pdn_game_type = 0,
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
      .goal = Goal::kFirstKing,
      .draw = kInternationalDraws,
  });
  // Frisian draughts (Dambûn Frysk Spul rules, as on mindsports.nl and
  // Wikipedia): 10x10, 20 men, White first; men and kings capture along
  // diagonals, rows and columns, forwards and backwards (orthogonally over
  // the next square of the playing colour); kings move diagonally, flying;
  // the capture of the highest value is compulsory, a king worth more than a
  // man and less than two (n kings between 2n-1 and 2n men), and on equal
  // value a capture by a king; a man is crowned only where its move ends; a
  // king may move at most three times in a row without capturing while its
  // side has men.
  v.push_back(Variant{
      .id = "frisian",
      .name = "Frisian draughts",
      .pdn_game_type = 40,
      .board = BoardSize::k10x10,
      .initial_rows = 4,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = true,
      .orthogonal_captures = true,
      .king_range = KingRange::kFlying,
      .capture_choice = CaptureChoice::kValue,
      .capture_priority = {.with_king = true, .most_kings = false, .earliest_king = false},
      .promotion_in_capture = PromotionInCapture::kPassThrough,
      .capture_identity = CaptureIdentity::kPieceSet,
      .mandatory_capture = true,
      .king_move_limit = 3,
      .draw = kFrisianDraws,
  });
  // Turkish draughts (dama), as described by Wikipedia ("Turkish
  // draughts"), the Turkish learning guide "Türk daması başlangıç düzeyi
  // öğrenme ve oynama kılavuzu" (damaakademisi.com) and mindsports-style
  // summaries (alemanni.pagesperso-orange.fr): all 64 squares of an 8x8
  // board, 16 men each on the second and third rows (the back rows stay
  // empty), White first; men move one square forward or sideways and jump
  // forward or sideways, never backwards or diagonally; kings move along
  // rows and columns any distance and take from afar, landing on any
  // empty square beyond; each piece taken leaves the board at once (its
  // square may be crossed again), and within a capture a king may not turn
  // 180 degrees; the capture taking the most pieces is compulsory, man and
  // king counting alike; a man is crowned at the end of the move
  // (Wikipedia: "promoted to a king at the end of the move"), so a man
  // reaching the last row mid-capture goes on as a man, sideways along it.
  // Every sequence of landings is its own move (CaptureIdentity::kPath),
  // as counted by the published perft figures (the kish engine, see
  // tests/unit/rules_variants/variant_perft_counts.h).
  v.push_back(Variant{
      .id = "turkish",
      .name = "Turkish draughts (dama)",
      .pdn_game_type = 30,
      .board = BoardSize::kFull8x8,
      .initial_rows = 2,
      .empty_back_rows = 1,
      .first_to_move = Color::kWhite,
      .white_name = "White",
      .black_name = "Black",
      .men_capture_backward = false,
      .king_range = KingRange::kFlying,
      .king_landing = KingLanding::kAnyBeyond,
      .capture_choice = CaptureChoice::kMajority,
      .promotion_in_capture = PromotionInCapture::kPassThrough,
      .captured_removal = CapturedRemoval::kAtOnce,
      .king_may_turn_back = false,
      .capture_identity = CaptureIdentity::kPath,
      .mandatory_capture = true,
      .draw = kTurkishDraws,
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

int MirroredSquare(BoardSize board, int square) {
  if (!IsValidSquare(board, square)) return 0;
  const int per_row = SquaresPerRow(board);
  const int row = (square - 1) / per_row;
  const int index = (square - 1) % per_row;
  return row * per_row + (per_row - 1 - index) + 1;
}

std::optional<Error> CheckVariant(const Variant& v) {
  const int n = BoardDimension(v.board);
  if (v.board != BoardSize::k8x8 && v.board != BoardSize::k10x10 && v.board != BoardSize::k12x12 &&
      v.board != BoardSize::kFull8x8)
    return MakeError("unsupported board size " + std::to_string(static_cast<int>(v.board)));
  if (v.empty_back_rows < 0) return MakeError("empty_back_rows must not be negative");
  if (v.initial_rows < 1 || 2 * (v.initial_rows + v.empty_back_rows) >= n)
    return MakeError("initial_rows must leave at least one empty row between the sides, got " +
                     std::to_string(v.initial_rows) + " (and " + std::to_string(v.empty_back_rows) +
                     " empty back rows) on " + std::to_string(n) + "x" + std::to_string(n));
  if (AllSquaresPlayable(v.board)) {
    // The orthogonal generator (orthogonal_movegen.h) knows the piece count
    // as the only precedence, and no diagonal rule.
    if (v.capture_choice == CaptureChoice::kValue || v.capture_priority != CapturePriority{})
      return MakeError("the full 8x8 board supports no value rule and no capture priorities");
    if (v.capture_identity == CaptureIdentity::kOrder)
      return MakeError("CaptureIdentity::kOrder is not supported on the full 8x8 board");
    if (v.orthogonal_captures)
      return MakeError("orthogonal_captures is for diagonal boards; the full board is orthogonal");
    if (v.king_move_limit != 0)
      return MakeError("king_move_limit is not supported on the full 8x8 board");
  }
  if (v.first_to_move != Color::kWhite && v.first_to_move != Color::kBlack)
    return MakeError("first_to_move is not a colour");
  // kOrder relies on two stops of a king meeting the same next piece only
  // along one line, which orthogonal captures break.
  if (v.capture_identity == CaptureIdentity::kOrder && v.orthogonal_captures)
    return MakeError("CaptureIdentity::kOrder is not supported with orthogonal captures");
  if (v.king_move_limit < 0 || v.king_move_limit > 255)
    return MakeError("king_move_limit must be 0..255");
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
