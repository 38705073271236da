#include "rules/fen.h"

#include <algorithm>
#include <array>
#include <optional>

#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

std::optional<Color> ColorFromLetter(char c) {
  if (c == 'W' || c == 'w') return Color::kWhite;
  if (c == 'B' || c == 'b') return Color::kBlack;
  return std::nullopt;
}

char ColorLetter(Color c) {
  return c == Color::kWhite ? 'W' : 'B';
}

bool IsKingMark(char c) {
  return c == 'K' || c == 'k';
}

class FenParser {
 public:
  // `offsets`, when given, receives the offset of each piece's square.
  FenParser(std::string_view text, std::vector<std::size_t>* offsets)
      : in_(text), offsets_(offsets) {}

  Result<PositionSetup> Parse() {
    in_.SkipSpaces();
    const auto turn = ColorFromLetter(in_.Peek());
    if (in_.AtEnd() || !turn) {
      return MakeError("FEN must start with the side to move, W or B; found " + in_.DescribeHere(),
                       in_.Offset());
    }
    setup_.side_to_move = *turn;
    in_.Advance();
    in_.SkipSpaces();
    while (in_.Consume(':')) {
      in_.SkipSpaces();
      if (auto error = ParseSide()) return *error;
      in_.SkipSpaces();
    }
    if (in_.Consume('.')) in_.SkipSpaces();
    if (!in_.AtEnd()) {
      return MakeError("unexpected " + in_.DescribeHere() + " in FEN; expected ':' or the end",
                       in_.Offset());
    }
    return std::move(setup_);
  }

 private:
  std::optional<Error> ParseSide() {
    const std::size_t colour_offset = in_.Offset();
    const auto colour = ColorFromLetter(in_.Peek());
    if (in_.AtEnd() || !colour) {
      return MakeError("expected a colour, W or B, after ':'; found " + in_.DescribeHere(),
                       colour_offset);
    }
    auto& seen = seen_colour_[static_cast<int>(*colour)];
    if (seen) {
      return MakeError(std::string("colour ") + ColorLetter(*colour) + " is listed twice",
                       colour_offset);
    }
    seen = true;
    in_.Advance();
    in_.SkipSpaces();
    // A colour with no squares: that side has no pieces.
    if (in_.AtEnd() || in_.Peek() == ':' || in_.Peek() == '.') return std::nullopt;
    while (true) {
      if (auto error = ParseItem(*colour)) return error;
      in_.SkipSpaces();
      if (!in_.Consume(',')) return std::nullopt;
      in_.SkipSpaces();
    }
  }

  std::optional<Error> ParseItem(Color colour) {
    bool king = false;
    if (IsKingMark(in_.Peek())) {
      king = true;
      in_.Advance();
      in_.SkipSpaces();
    }
    const std::size_t first_offset = in_.Offset();
    auto first = in_.ReadNumber("a square number", kMaxFenSquare);
    if (!first.ok()) return first.error();
    int last = *first;
    in_.SkipSpaces();
    if (in_.Consume('-')) {
      in_.SkipSpaces();
      // "K1-K5" and "K1-5" both mean kings on 1..5; a 'K' only after the
      // dash would make the two ends disagree.
      if (IsKingMark(in_.Peek())) {
        if (!king) {
          return MakeError("a range of kings needs 'K' before its first square", in_.Offset());
        }
        in_.Advance();
        in_.SkipSpaces();
      }
      const std::size_t last_offset = in_.Offset();
      auto end = in_.ReadNumber("the last square of the range", kMaxFenSquare);
      if (!end.ok()) return end.error();
      if (*end < *first) {
        return MakeError(
            "range " + std::to_string(*first) + "-" + std::to_string(*end) + " goes downwards",
            last_offset);
      }
      last = *end;
    }
    for (int square = *first; square <= last; ++square) {
      if (square < 1) return MakeError("square numbers start at 1", first_offset);
      auto& owner = owner_[static_cast<std::size_t>(square)];
      if (owner) {
        return MakeError("square " + std::to_string(square) + " is listed twice", first_offset);
      }
      owner = true;
      if (offsets_ != nullptr) offsets_->push_back(first_offset);
      setup_.pieces.push_back(
          SetupPiece{square, colour, king ? PieceKind::kKing : PieceKind::kMan});
    }
    return std::nullopt;
  }

  text::Cursor in_;
  std::vector<std::size_t>* offsets_ = nullptr;
  PositionSetup setup_;
  std::array<bool, 2> seen_colour_{};
  std::array<bool, kMaxFenSquare + 1> owner_{};
};

void AppendSide(const std::vector<SetupPiece>& sorted, Color colour, std::string& out) {
  out += ':';
  out += ColorLetter(colour);
  bool first = true;
  auto separator = [&] {
    if (!first) out += ',';
    first = false;
  };
  for (std::size_t i = 0; i < sorted.size();) {
    const SetupPiece& piece = sorted[i];
    if (piece.color != colour) {
      ++i;
      continue;
    }
    separator();
    if (piece.kind == PieceKind::kKing) {
      out += 'K';
      out += std::to_string(piece.square);
      ++i;
      continue;
    }
    // Extend over consecutive squares holding men of this colour.
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1].color == colour &&
           sorted[j + 1].kind == PieceKind::kMan && sorted[j + 1].square == sorted[j].square + 1) {
      ++j;
    }
    out += std::to_string(piece.square);
    if (j > i) {
      out += '-';
      out += std::to_string(sorted[j].square);
    }
    i = j + 1;
  }
}

}  // namespace

Result<PositionSetup> ParseFen(std::string_view text) {
  return FenParser(text, nullptr).Parse();
}

Result<Position> ParseFen(const Variant& variant, std::string_view text) {
  std::vector<std::size_t> offsets;
  auto setup = FenParser(text, &offsets).Parse();
  if (!setup.ok()) return setup.error();
  const int squares = SquareCount(variant.board);
  for (std::size_t i = 0; i < setup->pieces.size(); ++i) {
    const int square = setup->pieces[i].square;
    if (square > squares) {
      return MakeError("square " + std::to_string(square) + " is not on the " +
                           std::string(variant.name) + " board (1-" + std::to_string(squares) + ")",
                       offsets[i]);
    }
  }
  return Position::FromSetup(variant, *setup);
}

std::string FormatFen(const Position& position) {
  return FormatFen(position.ToSetup());
}

std::string FormatFen(const PositionSetup& setup) {
  std::vector<SetupPiece> sorted = setup.pieces;
  std::sort(sorted.begin(), sorted.end(),
            [](const SetupPiece& a, const SetupPiece& b) { return a.square < b.square; });
  std::string out(1, ColorLetter(setup.side_to_move));
  AppendSide(sorted, Color::kWhite, out);
  AppendSide(sorted, Color::kBlack, out);
  return out;
}

}  // namespace draughts::rules
