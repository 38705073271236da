#include "hub/position_text.h"

#include "rules/setup.h"

namespace draughts::hub {
namespace {

constexpr rules::BoardSize kBoards[] = {rules::BoardSize::k8x8, rules::BoardSize::k10x10,
                                        rules::BoardSize::k12x12, rules::BoardSize::kFull8x8};

std::string BoardName(rules::BoardSize board) {
  const int n = rules::BoardDimension(board);
  const std::string name = std::to_string(n) + "x" + std::to_string(n);
  return rules::AllSquaresPlayable(board) ? name + " (all 64 squares)" : name;
}

}  // namespace

std::string FormatHubPosition(const rules::Position& position) {
  const int squares = rules::SquareCount(position.board());
  std::string out;
  out.reserve(static_cast<std::size_t>(squares) + 1);
  out += position.side_to_move() == rules::Color::kWhite ? 'W' : 'B';
  for (int square = 1; square <= squares; ++square) {
    const auto piece = position.PieceAt(square);
    if (!piece) {
      out += 'e';
    } else if (piece->color == rules::Color::kWhite) {
      out += piece->kind == rules::PieceKind::kKing ? 'W' : 'w';
    } else {
      out += piece->kind == rules::PieceKind::kKing ? 'B' : 'b';
    }
  }
  return out;
}

std::optional<rules::BoardSize> BoardForHubPositionLength(std::size_t length) {
  for (rules::BoardSize board : kBoards) {
    if (length == static_cast<std::size_t>(rules::SquareCount(board)) + 1) return board;
  }
  return std::nullopt;
}

rules::Result<rules::Position> ParseHubPosition(const rules::Variant& variant,
                                                std::string_view text) {
  const std::size_t expected = static_cast<std::size_t>(rules::SquareCount(variant.board)) + 1;
  if (text.size() != expected) {
    std::string message = "a " + BoardName(variant.board) + " position has " +
                          std::to_string(expected) + " characters, got " +
                          std::to_string(text.size());
    if (auto other = BoardForHubPositionLength(text.size())) {
      message += " (a " + BoardName(*other) + " position; is the variant set?)";
    }
    return rules::MakeError(message);
  }
  rules::PositionSetup setup;
  switch (text[0]) {
    case 'W':
    case 'w':
      setup.side_to_move = rules::Color::kWhite;
      break;
    case 'B':
    case 'b':
      setup.side_to_move = rules::Color::kBlack;
      break;
    default:
      return rules::MakeError("side to move must be 'W' or 'B'", 0);
  }
  for (std::size_t i = 1; i < text.size(); ++i) {
    const int square = static_cast<int>(i);
    switch (text[i]) {
      case 'e':
        break;
      case 'w':
        setup.pieces.push_back({square, rules::Color::kWhite, rules::PieceKind::kMan});
        break;
      case 'W':
        setup.pieces.push_back({square, rules::Color::kWhite, rules::PieceKind::kKing});
        break;
      case 'b':
        setup.pieces.push_back({square, rules::Color::kBlack, rules::PieceKind::kMan});
        break;
      case 'B':
        setup.pieces.push_back({square, rules::Color::kBlack, rules::PieceKind::kKing});
        break;
      default:
        return rules::MakeError("square " + std::to_string(square) + ": expected one of w b W B e",
                                i);
    }
  }
  return rules::Position::FromSetup(variant, setup);
}

}  // namespace draughts::hub
