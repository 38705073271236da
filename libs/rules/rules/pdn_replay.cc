#include "rules/pdn_replay.h"

#include <algorithm>

#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/pdn_lexer.h"
#include "rules/square_notation.h"
#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

using pdn_lexer::WrittenMove;
using pdn_lexer::WrittenSquare;

// Moves applied while looking ahead for one ambiguous move; past it the
// first candidate is taken.
constexpr int kLookaheadBudget = 20000;

std::string WrittenText(const PdnMove& move) {
  return move.text.empty() ? FormatMoveText(move.move) : move.text;
}

std::string WhereMove(const PdnMove& move, std::size_t index) {
  std::string out;
  if (move.line > 0) {
    out = "line " + std::to_string(move.line) + ", column " + std::to_string(move.column) + ": ";
  }
  return out + "move " + std::to_string(index + 1) + " (" + WrittenText(move) + "): ";
}

bool EndedByDrawRule(const Outcome& outcome) {
  switch (outcome.reason) {
    case OutcomeReason::kRepetition:
    case OutcomeReason::kNoProgress:
    case OutcomeReason::kLoneKing:
    case OutcomeReason::kMoveLimit:
      return true;
    default:
      return false;
  }
}

// The moves of a game in a given numbering, each written move read once.
class Replayer {
 public:
  Replayer(const Variant& variant, Numbering numbering, const std::vector<PdnMove>& moves)
      : variant_(variant), numbering_(numbering), moves_(moves) {
    for (const PdnMove& move : moves)
      written_.push_back(pdn_lexer::ParseWrittenMove(WrittenText(move)));
  }

  struct Failure {
    std::size_t index;
    std::string message;
  };

  // Plays every move on `record`; on failure says which and why.
  std::optional<Failure> Play(GameRecord& record, std::vector<std::string>& notes) {
    bool noted_swap = false;
    for (std::size_t i = 0; i < moves_.size(); ++i) {
      if (record.is_over()) {
        return Failure{i, "the game is already over (" + record.outcome().ToString() + ")"};
      }
      bool swapped = false;
      auto candidates = Candidates(record, i, &swapped);
      if (!candidates.ok()) return Failure{i, candidates.error().message};
      if (swapped && !noted_swap) {
        notes.push_back(WhereMove(moves_[i], i) + (moves_[i].move.capture || IsCaptureText(i)
                                                       ? "a plain move written with 'x'"
                                                       : "a capture written with '-'"));
        noted_swap = true;
      }
      Move chosen = candidates->front();
      if (candidates->size() > 1) chosen = Choose(record, i, *candidates, notes);
      if (auto error = record.Apply(chosen)) return Failure{i, error->message};
    }
    return std::nullopt;
  }

 private:
  bool IsCaptureText(std::size_t i) const { return written_[i].ok() && written_[i]->capture; }

  // The library square of a written square, or 0.
  int SquareOf(const WrittenSquare& square) const {
    if (square.file == 0) return FromNumbering(numbering_, variant_.board, square.number);
    return CoordinateSquare(variant_.board, variant_.mirrored, square.file, square.number);
  }

  static std::string Name(const WrittenSquare& square) {
    return (square.file != 0 ? std::string(1, square.file) : std::string()) +
           std::to_string(square.number);
  }

  // The legal moves written move `i` may be, in the record's position.
  Result<std::vector<Move>> Candidates(const GameRecord& record, std::size_t i,
                                       bool* swapped) const {
    if (!written_[i].ok()) return written_[i].error();
    const WrittenMove& written = *written_[i];
    std::vector<int> landings;
    for (const WrittenSquare& square : written.squares) {
      const int at = SquareOf(square);
      if (at == 0) {
        return MakeError("square " + Name(square) + " is not a playable square of the " +
                         std::string(variant_.name) + " board");
      }
      landings.push_back(at);
    }
    std::vector<int> origins;
    if (written.origin_file != 0) {
      origins = SquaresOnFile(variant_.board, variant_.mirrored, written.origin_file);
    } else {
      origins.push_back(landings.front());
      landings.erase(landings.begin());
    }
    const MoveList& legal = record.legal_moves();
    auto fitting = [&](bool capture) {
      std::vector<Move> all;
      for (int origin : origins) {
        MoveText text{{origin}, capture};
        text.squares.insert(text.squares.end(), landings.begin(), landings.end());
        for (const Move& move : FittingMoves(variant_.board, legal, text)) {
          if (std::find(all.begin(), all.end(), move) == all.end()) all.push_back(move);
        }
      }
      return all;
    };
    std::vector<Move> fits = fitting(written.capture);
    if (fits.empty()) {
      fits = fitting(!written.capture);
      *swapped = !fits.empty();
    }
    if (!fits.empty()) return fits;
    if (written.origin_file != 0) {
      return MakeError("no legal move goes from file " + std::string(1, written.origin_file) +
                       " to " + Name(written.squares.back()));
    }
    MoveText text{{origins.front()}, written.capture};
    text.squares.insert(text.squares.end(), landings.begin(), landings.end());
    auto error = MatchMove(variant_.board, legal, text);
    std::string message = error.ok() ? "no legal move fits" : error.error().message;
    if (numbering_ != Numbering::kStandard || written.squares.front().file != 0) {
      message += " (read as " + FormatMoveText(text) + " in the library's numbering)";
    }
    return MakeError(message);
  }

  // Of several moves that fit written move `i`, the one with which the
  // most of the following moves replay (the first on a tie).
  Move Choose(const GameRecord& record, std::size_t i, const std::vector<Move>& candidates,
              std::vector<std::string>& notes) {
    std::size_t best = 0;
    std::size_t best_depth = 0;
    int ties = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      int budget = kLookaheadBudget;
      GameRecord next = record;
      if (next.Apply(candidates[c])) continue;
      const std::size_t depth = 1 + PlayOn(next, i + 1, budget);
      if (depth > best_depth) {
        best = c;
        best_depth = depth;
        ties = 0;
      } else if (depth == best_depth) {
        ++ties;
      }
    }
    std::string note = WhereMove(moves_[i], i) + "fits " + std::to_string(candidates.size()) +
                       " moves; " + FormatMovePath(candidates[best]);
    note += ties > 0 ? " chosen, the others replaying as far" : " lets the game go on furthest";
    notes.push_back(note);
    return candidates[best];
  }

  // How many moves from `i` on replay after `record`.
  std::size_t PlayOn(GameRecord record, std::size_t i, int& budget) const {
    std::size_t played = 0;
    for (; i < moves_.size(); ++i) {
      if (record.is_over() || budget <= 0) return played;
      bool swapped = false;
      auto candidates = Candidates(record, i, &swapped);
      if (!candidates.ok()) return played;
      Move chosen = candidates->front();
      if (candidates->size() > 1 && budget > 0) {
        std::size_t best_depth = 0;
        for (const Move& candidate : *candidates) {
          GameRecord next = record;
          if (next.Apply(candidate)) continue;
          const std::size_t depth = PlayOn(next, i + 1, budget);
          if (depth + 1 > best_depth) {
            best_depth = depth + 1;
            chosen = candidate;
          }
        }
        return played + best_depth;
      }
      if (record.Apply(chosen)) return played;
      --budget;
      ++played;
    }
    return played;
  }

  const Variant& variant_;
  Numbering numbering_;
  const std::vector<PdnMove>& moves_;
  std::vector<Result<WrittenMove>> written_;
};

Result<Variant> VariantFromName(const std::string& name) {
  std::string lower;
  for (char c : name) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  for (const Variant& variant : AllVariants()) {
    std::string variant_name;
    for (char c : variant.name) {
      variant_name += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (lower == variant.id || lower == variant_name || variant_name.rfind(lower + " ", 0) == 0) {
      return variant;
    }
  }
  return MakeError("unknown variant " + text::Excerpt(name));
}

}  // namespace

Result<Variant> VariantForPdn(const PdnGame& game, const Variant& fallback) {
  const std::string* tag = game.FindTag("GameType");
  if (tag == nullptr) {
    // Sites such as lidraughts also name the rule set in a Variant tag.
    if (const std::string* name = game.FindTag("Variant")) {
      auto named = VariantFromName(*name);
      if (named.ok()) return named;
    }
    return fallback;
  }
  const std::optional<int> type = game.GameType();
  if (!type)
    return MakeError("GameType \"" + text::Excerpt(*tag) + "\" is not a number", game.offset);
  for (const Variant& variant : AllVariants()) {
    if (variant.pdn_game_type != 0 && variant.pdn_game_type == *type) return variant;
  }
  return MakeError("GameType " + std::to_string(*type) + " is not a supported rule set",
                   game.offset);
}

namespace {

// Rule sets tried, in this order, for a game that names none and does not
// replay under the fallback: the most played first.
constexpr std::string_view kGuessOrder[] = {"international", "english",  "russian", "brazilian",
                                            "italian",       "spanish",  "czech",   "pool",
                                            "frisian",       "canadian", "thai",    "turkish"};

Result<PdnReplay> ReplayIn(const PdnGame& game, const Variant& found);

}  // namespace

Result<PdnReplay> ReplayPdn(const PdnGame& game, const Variant& fallback) {
  auto found = VariantForPdn(game, fallback);
  if (!found.ok()) return found.error();
  auto replay = ReplayIn(game, *found);
  const bool named = game.FindTag("GameType") != nullptr ||
                     (game.FindTag("Variant") != nullptr && found->id != fallback.id);
  if (replay.ok() || named) return replay;
  // None fits: the failure of the rule set that replays furthest (errors
  // point at the failing move) tells most.
  Error furthest = replay.error();
  std::string furthest_name(found->name);
  for (std::string_view id : kGuessOrder) {
    if (id == found->id) continue;
    auto guess = FindVariant(id);
    if (!guess.ok()) continue;
    auto guessed = ReplayIn(game, *guess);
    if (!guessed.ok()) {
      if (guessed.error().offset != Error::kNoOffset &&
          (furthest.offset == Error::kNoOffset || guessed.error().offset > furthest.offset)) {
        furthest = guessed.error();
        furthest_name = std::string(guess->name);
      }
      continue;
    }
    guessed->notes.insert(guessed->notes.begin(),
                          "no GameType tag; the moves replay as " + std::string(guess->name));
    return guessed;
  }
  if (furthest_name != found->name) {
    furthest.message = "no GameType tag and no rule set fits; furthest as " + furthest_name + ": " +
                       furthest.message;
  }
  return furthest;
}

namespace {

Result<PdnReplay> ReplayIn(const PdnGame& game, const Variant& variant_found) {
  const std::optional<Variant> found = variant_found;
  std::optional<Position> start;
  if (const std::string* fen = game.FindTag("FEN")) {
    auto parsed = ParseFen(*found, *fen);
    if (!parsed.ok()) {
      return MakeError("FEN tag \"" + text::Excerpt(*fen) + "\": " + parsed.error().ToString(),
                       game.offset);
    }
    start = *parsed;
  }
  std::optional<Error> first_error;
  for (bool draw_rules : {true, false}) {
    Variant variant = *found;
    if (!draw_rules) variant.draw = DrawRules{.repetitions = 0};
    const std::vector<Numbering> numberings = NumberingsToTry(variant);
    bool ended_by_draw_rule = false;
    for (std::size_t n = 0; n < numberings.size(); ++n) {
      GameRecord record = start ? GameRecord(variant, *start) : GameRecord(variant);
      PdnReplay replay{record, PdnResult::kUnknown, {}};
      Replayer replayer(variant, numberings[n], game.moves);
      auto failure = replayer.Play(replay.record, replay.notes);
      if (failure) {
        const PdnMove& written = game.moves[failure->index];
        if (!first_error) {
          first_error =
              MakeError(WhereMove(written, failure->index) + failure->message, written.offset);
        }
        ended_by_draw_rule = ended_by_draw_rule ||
                             (replay.record.is_over() && EndedByDrawRule(replay.record.outcome()));
        continue;
      }
      if (n > 0) replay.notes.push_back("the squares are numbered as in international draughts");
      if (!draw_rules) {
        replay.notes.push_back(
            "the moves go on after this library's draw rules end the game; "
            "replayed without them");
      }
      replay.result = game.result;
      if (replay.record.is_over()) {
        const PdnResult by_moves = ToPdnResult(replay.record.outcome());
        if (game.result != PdnResult::kUnknown && game.result != by_moves) {
          replay.notes.push_back("the moves end the game (" + replay.record.outcome().ToString() +
                                 ") with another result than the PDN's");
        }
        replay.result = by_moves;
      }
      return replay;
    }
    if (!ended_by_draw_rule) break;
  }
  return *first_error;
}

}  // namespace

Result<GameRecord> ReplayPdnGame(const PdnGame& game, const Variant& fallback) {
  auto replay = ReplayPdn(game, fallback);
  if (!replay.ok()) return replay.error();
  return std::move(replay->record);
}

PdnResult ToPdnResult(const Outcome& outcome) {
  switch (outcome.status) {
    case GameStatus::kWhiteWins:
      return PdnResult::kWhiteWins;
    case GameStatus::kBlackWins:
      return PdnResult::kBlackWins;
    case GameStatus::kDraw:
      return PdnResult::kDraw;
    case GameStatus::kOngoing:
      break;
  }
  return PdnResult::kUnknown;
}

PdnGame ToPdnGame(const GameRecord& record, std::vector<PdnTag> tags) {
  PdnGame game;
  game.tags = std::move(tags);
  const Variant& variant = record.variant();
  const SquareNotation notation = FederationNotation(variant);
  if (variant.pdn_game_type != 0) game.SetTag("GameType", std::to_string(variant.pdn_game_type));
  if (!(record.start() == Position::Initial(variant)))
    game.SetTag("FEN", FormatFen(record.start()));
  game.result = ToPdnResult(record.outcome());
  game.first_move_by_second_player = record.start().side_to_move() != variant.first_to_move;
  const std::vector<Position> positions = record.positions();
  MoveList legal;
  for (std::size_t i = 0; i < record.moves().size(); ++i) {
    GenerateMoves(variant, positions[i], legal);
    const Move& move = record.moves()[i];
    const bool full_path = FormatMove(legal, move) != FormatMoveText(ToMoveText(move, false));
    const MoveText squares = ToMoveText(move, full_path);
    PdnMove written{MoveText{{}, squares.capture}, "", 0, 0, 0};
    const char separator = squares.capture ? notation.capture_separator : '-';
    for (std::size_t k = 0; k < squares.squares.size(); ++k) {
      if (k > 0) written.text += separator;
      written.text += FormatSquare(notation, variant.board, squares.squares[k]);
      if (notation.style == SquareStyle::kNumbers) {
        written.move.squares.push_back(
            ToNumbering(notation.numbering, variant.board, squares.squares[k]));
      }
    }
    // As written: a capture with '-' (Thai) reads back as a plain move.
    written.move.capture = separator != '-';
    game.moves.push_back(std::move(written));
  }
  return game;
}

}  // namespace draughts::rules
