#pragma once

// Published perft counts from the initial position (moves counted as the
// rule set defines them; captures of the same pieces by different paths are
// one move in international/Canadian rules, separate moves in English).
//
// Sources: English counts are Aart Bik's published checkers perft figures;
// the international and Canadian counts are those circulated among
// draughts-engine authors (the figures Scan's and Kingsrow's perft
// reproduce). All three lists are quoted in the project's rules issue (#3).

#include <array>
#include <cstdint>

namespace draughts::rules::testing {

inline constexpr std::array<std::uint64_t, 11> kInternationalPerft = {
    9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398};

inline constexpr std::array<std::uint64_t, 12> kEnglishPerft = {
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673};

inline constexpr std::array<std::uint64_t, 8> kCanadianPerft = {11,    121,    1222,    10053,
                                                                79049, 584100, 4369366, 31839056};

}  // namespace draughts::rules::testing
