#include "rules/square_notation.h"

namespace draughts::rules {
namespace {

int ColumnOfFile(BoardSize board, bool mirrored, char file) {
  const char lower = (file >= 'A' && file <= 'Z') ? static_cast<char>(file - 'A' + 'a') : file;
  const int n = BoardDimension(board);
  const int column = lower - 'a';
  if (column < 0 || column >= n) return -1;
  return mirrored ? n - 1 - column : column;
}

}  // namespace

SquareNotation FederationNotation(const Variant& variant) {
  SquareNotation notation;
  notation.mirrored = variant.mirrored;
  switch (variant.pdn_game_type) {
    case 22:  // Italian
      notation.numbering = Numbering::kItalian;
      break;
    case 24:  // Spanish
      notation.numbering = Numbering::kSpanish;
      break;
    case 25:  // Russian: captures with ':' (PDN 3.0 GameType table)
      notation.style = SquareStyle::kCoordinates;
      notation.capture_separator = ':';
      break;
    case 26:  // Brazilian
    case 29:  // Czech
    case 30:  // Turkish
      notation.style = SquareStyle::kCoordinates;
      break;
    case 31:  // Thai: numbers, captures written with '-' (PDN 3.0 GameType table)
      notation.capture_separator = '-';
      break;
    default:
      break;
  }
  return notation;
}

int FromNumbering(Numbering numbering, BoardSize board, int number) {
  if (!IsValidSquare(board, number)) return 0;
  switch (numbering) {
    case Numbering::kStandard:
      return number;
    case Numbering::kItalian:
      return MirroredSquare(board, number);
    case Numbering::kSpanish:
      return SquareCount(board) + 1 - MirroredSquare(board, number);
  }
  return 0;
}

int ToNumbering(Numbering numbering, BoardSize board, int square) {
  // Each mapping is its own inverse.
  return FromNumbering(numbering, board, square);
}

std::string CoordinateName(BoardSize board, bool mirrored, int square) {
  if (!IsValidSquare(board, square)) return "";
  const RowColumn at = SquareToRowColumn(board, square);
  const int n = BoardDimension(board);
  const int column = mirrored ? n - 1 - at.column : at.column;
  return std::string(1, static_cast<char>('a' + column)) + std::to_string(n - at.row);
}

int CoordinateSquare(BoardSize board, bool mirrored, char file, int rank) {
  const int column = ColumnOfFile(board, mirrored, file);
  const int n = BoardDimension(board);
  if (column < 0 || rank < 1 || rank > n) return 0;
  return RowColumnToSquare(board, RowColumn{n - rank, column});
}

std::vector<int> SquaresOnFile(BoardSize board, bool mirrored, char file) {
  std::vector<int> squares;
  const int column = ColumnOfFile(board, mirrored, file);
  if (column < 0) return squares;
  for (int row = 0; row < BoardDimension(board); ++row) {
    if (const int square = RowColumnToSquare(board, RowColumn{row, column})) {
      squares.push_back(square);
    }
  }
  return squares;
}

std::string FormatSquare(const SquareNotation& notation, BoardSize board, int square) {
  if (notation.style == SquareStyle::kCoordinates) {
    return CoordinateName(board, notation.mirrored, square);
  }
  return std::to_string(ToNumbering(notation.numbering, board, square));
}

std::vector<Numbering> NumberingsToTry(const Variant& variant) {
  const Numbering own = FederationNotation(variant).numbering;
  if (own == Numbering::kStandard) return {Numbering::kStandard};
  return {own, Numbering::kStandard};
}

}  // namespace draughts::rules
