#pragma once

// Published perft counts of the rule sets beyond the seeds, from the
// initial position.
//
// Two conventions exist. "Unique" counts treat captures of the same pieces
// from the same square to the same square as one move (CaptureIdentity::
// kPieceSet); "path" counts keep captures that take the pieces in another
// order (CaptureIdentity::kOrder).
//
// Sources:
//  - Russian and Brazilian path counts: quoted in issue #6 (first derived on
//    the Russian shashki.com forum, "Standard validation generator moves").
//  - Unique counts of Russian, Brazilian, Pool, Czech, Spanish, Italian and
//    Thai (8x8): Rein Halbersma's DCTL draughts library, perft tests of the
//    initial positions (test/src/ai/traversal/initial/board8x8.cpp), which
//    cite the shashki.com thread and the FMJD forum thread "Perft for all
//    recognized draughts variants" (laatste.info, topic 2822).
//  - Thai with 8 men (its real start position): the same FMJD forum thread
//    (DCTL's older test "ThaiNative").
//  - Frisian: the same thread (Rein Halbersma, 6 May 2010), without the
//    rule limiting a king to three moves in a row, which cannot matter
//    before depth 13.
//  - Turkish: the kish Turkish draughts engine (crates.io "kish" 1.1.7,
//    examples/perft.rs, "Known perft values for the Turkish Draughts
//    standard starting position"), which counts every capture path
//    (CaptureIdentity::kPath); its rules: orthogonal men and flying kings,
//    majority capture, pieces removed as jumped, no 180-degree turn.

#include <array>
#include <cstdint>

namespace draughts::rules::testing {

inline constexpr std::array<std::uint64_t, 10> kRussianPathPerft = {
    7, 49, 302, 1469, 7482, 37986, 190146, 929905, 4570667, 22450628};
inline constexpr std::array<std::uint64_t, 11> kRussianUniquePerft = {
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189};

inline constexpr std::array<std::uint64_t, 10> kBrazilianPathPerft = {
    7, 49, 302, 1469, 7473, 37628, 187302, 907836, 4431847, 21566606};
inline constexpr std::array<std::uint64_t, 11> kBrazilianUniquePerft = {
    7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022, 105491257};

inline constexpr std::array<std::uint64_t, 11> kPoolUniquePerft = {
    7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534, 22435955, 110833952};

inline constexpr std::array<std::uint64_t, 11> kCzechUniquePerft = {
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671, 18368918, 84967210};

inline constexpr std::array<std::uint64_t, 11> kSpanishUniquePerft = {
    7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464, 81383200};

inline constexpr std::array<std::uint64_t, 11> kItalianUniquePerft = {
    7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875, 17761384, 81647058};

inline constexpr std::array<std::uint64_t, 9> kThaiUniquePerft = {
    7, 49, 392, 3136, 26592, 218695, 1820189, 14533014, 114530830};
// Thai rules from the 12-men start of the other 8x8 games.
inline constexpr std::array<std::uint64_t, 11> kThaiTwelveMenUniquePerft = {
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648, 18363523, 84892793};

inline constexpr std::array<std::uint64_t, 11> kFrisianUniquePerft = {
    9, 81, 658, 3874, 21265, 102431, 540126, 2825779, 15605069, 85817725, 491186430};

inline constexpr std::array<std::uint64_t, 12> kTurkishPathPerft = {
    8,        64,        708,        7538,        85090,        931312,
    10782382, 123290300, 1454144462, 16991457316, 204403464784, 2455651059292};

}  // namespace draughts::rules::testing
