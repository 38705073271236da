#pragma once

// How each federation names the squares, and the conversion between its
// names and the library's square numbers (rules/geometry.h).
//
// The forms, as the PDN 3.0 standard lists them per GameType (FMJD,
// pdn.fmjd.org "GameType tag": "20,W,10,10,N2,0" ... "31,B,8,8,N2,0") and
// as the federations write them:
//   - numbers, square 1 top left as White sees it: international (20),
//     Canadian (27), Frisian (40) ("N2"); English (21) and American pool
//     (23) number the same squares from Black's side ("N1": 1 at Black's
//     bottom right), which is the same board; Thai (31, "N2", captures
//     written with '-');
//   - Italian (22, "N2,1"): the mirrored board numbered from Black's dark
//     corner to the right and down (Federazione Italiana Dama, "Notazione",
//     fid.it/corsi/italiana/regole.htm): their k is our MirroredSquare(k);
//   - Spanish (24, "N1,1"): the mirrored board numbered from White's
//     bottom-right corner, right to left and upwards, White on 1-12
//     (realidad-simulada.es "Juego clásico español de damas"): their k is
//     our SquareCount + 1 - MirroredSquare(k);
//   - algebraic ("A0": a1 bottom left as White sees it, files a.., ranks
//     1..): Russian (25, captures ':'), Brazilian (26), Czech (29), Turkish
//     (30, every square of the board).
// Reading accepts both numbers and coordinates for every rule set; numbers
// are read in the federation's numbering (see NumberingsToTry for the
// fallback) and coordinates on the board as the federation places it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/geometry.h"
#include "rules/variant.h"

namespace draughts::rules {

enum class Numbering : std::uint8_t {
  kStandard,  // the library's own numbers
  kItalian,   // FID: MirroredSquare
  kSpanish,   // from White's bottom-right corner of the mirrored board
};

enum class SquareStyle : std::uint8_t { kNumbers, kCoordinates };

struct SquareNotation {
  SquareStyle style = SquareStyle::kNumbers;
  Numbering numbering = Numbering::kStandard;
  char capture_separator = 'x';
  // Coordinates are read on the board as shown to players (mirrored for
  // Italian and Spanish: a1 is then a light square).
  bool mirrored = false;
};

// The federation's notation for this rule set.
SquareNotation FederationNotation(const Variant& variant);

// Numbering <-> library squares; 0 when `number` is not on the board.
int FromNumbering(Numbering numbering, BoardSize board, int number);
int ToNumbering(Numbering numbering, BoardSize board, int square);

// "c3" for a library square (the board as the notation shows it); empty if
// off the board.
std::string CoordinateName(BoardSize board, bool mirrored, int square);
// Library square of a coordinate (file letter in either case, rank number),
// 0 when it names no playable square.
int CoordinateSquare(BoardSize board, bool mirrored, char file, int rank);
// Library squares on the file of `file`, for the Russian short form "cd4".
std::vector<int> SquaresOnFile(BoardSize board, bool mirrored, char file);

// One square written in `notation`.
std::string FormatSquare(const SquareNotation& notation, BoardSize board, int square);

// The numberings in which written numbers are tried for this rule set, the
// federation's first: Italian and Spanish files are also found written in
// the library's (international-style) numbering.
std::vector<Numbering> NumberingsToTry(const Variant& variant);

}  // namespace draughts::rules
