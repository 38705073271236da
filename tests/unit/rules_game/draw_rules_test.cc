// Each draw rule fires on exactly the ply the rule names, and not one ply
// earlier. Positions come from FEN; the long quiet stretches are played by a
// helper that picks king moves reaching positions not seen before (so that
// repetition cannot interfere) and leaving the opponent nothing to capture.
// The expected plies come from the rules' wording (seeds 000-003), not from
// the code under test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"

namespace draughts::rules {
namespace {

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

GameRecord FromFen(const Variant& variant, std::string_view fen) {
  auto position = ParseFen(variant, fen);
  EXPECT_TRUE(position.ok()) << fen << ": " << position.error().ToString();
  return GameRecord(variant, *position);
}

GameRecord MustPlay(const GameRecord& record, std::string_view move) {
  auto next = record.Play(move);
  EXPECT_TRUE(next.ok()) << move << ": " << next.error().ToString();
  return next.ok() ? *next : record;
}

struct Allow {
  bool captures = false;
  bool men = false;
};

// Whether `move` may be played by the helpers below from `record`: the
// kinds allowed, a position never seen before, and nothing for the opponent
// to capture afterwards.
std::optional<GameRecord> FreshAfter(const GameRecord& record, const Move& move, Allow allow) {
  if (move.is_capture() && !allow.captures) return std::nullopt;
  if (!move.by_king && !allow.men) return std::nullopt;
  auto next = record.Play(move);
  if (!next.ok()) return std::nullopt;
  const std::vector<Position> seen = record.positions();
  if (std::find(seen.begin(), seen.end(), next->position()) != seen.end()) return std::nullopt;
  if (HasCapture(record.variant(), next->position())) return std::nullopt;
  return *next;
}

// Plays one such move (the first in generation order).
bool PlayFresh(GameRecord& record, Allow allow = {}) {
  for (const Move& move : record.legal_moves()) {
    if (auto next = FreshAfter(record, move, allow)) {
      record = *next;
      return true;
    }
  }
  ADD_FAILURE() << "no fresh move from " << FormatFen(record.position());
  return false;
}

// Depth-first search for `plies` fresh king moves in a row, the game going
// on before each of them; the last one may end it.
bool FindFreshLine(GameRecord& record, int plies, int& budget) {
  if (plies == 0) return true;
  if (record.is_over() || --budget < 0) return false;
  for (const Move& move : record.legal_moves()) {
    auto next = FreshAfter(record, move, Allow{});
    if (!next) continue;
    if (FindFreshLine(*next, plies - 1, budget)) {
      record = *next;
      return true;
    }
  }
  return false;
}

void PlayFreshPlies(GameRecord& record, int plies) {
  const int played = record.ply_count();
  int budget = 200000;
  ASSERT_TRUE(FindFreshLine(record, plies, budget))
      << "no line of " << plies << " fresh king moves from " << FormatFen(record.position());
  ASSERT_EQ(record.ply_count(), played + plies);
}

const Outcome kOngoing{};
const Outcome kNoProgressDraw{GameStatus::kDraw, OutcomeReason::kNoProgress};
const Outcome kLoneKingDraw{GameStatus::kDraw, OutcomeReason::kLoneKing};
const Outcome kRepetitionDraw{GameStatus::kDraw, OutcomeReason::kRepetition};

// Seed 000: "25 coups de chaque joueur sans prise et sans déplacer de pion".
TEST(TwentyFiveMoveRule, DrawOnThe50thKingPlyNotThe49th) {
  GameRecord record = FromFen(Named("international"), "W:WK46,K50:BK1,K5");
  PlayFreshPlies(record, 49);
  EXPECT_EQ(record.no_progress_plies(), 49);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kNoProgressDraw);
  EXPECT_TRUE(record.legal_moves().empty());
}

TEST(TwentyFiveMoveRule, AManMoveRestartsTheCount) {
  GameRecord record = FromFen(Named("international"), "W:WK46,K50,36:BK1,K5,15");
  PlayFreshPlies(record, 30);
  ASSERT_EQ(record.no_progress_plies(), 30);
  ASSERT_TRUE(PlayFresh(record, Allow{.captures = false, .men = true}));
  ASSERT_FALSE(record.moves().back().by_king);  // the helper prefers kings; check
  EXPECT_EQ(record.no_progress_plies(), 0);
  PlayFreshPlies(record, 49);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kNoProgressDraw);
  EXPECT_EQ(record.ply_count(), 31 + 50);
}

// Seed 001: "40 coups sont joués de chaque côté sans prise ni déplacement de pion".
TEST(FortyMoveRule, PerSideDrawsOnThe80thPly) {
  GameRecord record = FromFen(Named("english"), "B:WK29,K32:BK1,K4");
  PlayFreshPlies(record, 79);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kNoProgressDraw);
}

// Seed 003: "Après 40 déplacements au total sans prise ni mouvement de pion".
TEST(FortyMoveRule, InTotalAsATableOptionDrawsOnThe40thPly) {
  Variant table = Named("english");
  table.draw.no_progress_counting = MoveCounting::kTotal;
  GameRecord record = FromFen(table, "B:WK29,K32:BK1,K4");
  PlayFreshPlies(record, 39);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kNoProgressDraw);
}

// Seed 003: "La partie est nulle dès que ce nombre de déplacements est atteint".
TEST(MoveLimit, DrawWhenTheLimitIsReached) {
  Variant table = Named("english");
  table.draw.move_limit_plies = 7;
  GameRecord record(table);
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(PlayFresh(record, Allow{.captures = true, .men = true}));
  EXPECT_EQ(record.outcome(), kOngoing);
  ASSERT_TRUE(PlayFresh(record, Allow{.captures = true, .men = true}));
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kDraw, OutcomeReason::kMoveLimit}));
}

// Seed 000: "une dame seule contre trois pièces dont au moins une dame (16
// coups chacun)".
TEST(SixteenMoveRule, FromTheStartDrawsOnThe32ndPly) {
  GameRecord record = FromFen(Named("international"), "W:WK47,K48,K50:BK5");
  EXPECT_EQ(record.lone_king_rule(), 0);
  PlayFreshPlies(record, 31);
  EXPECT_EQ(record.lone_king_plies(), 31);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kLoneKingDraw);
}

TEST(SixteenMoveRule, CountsFromTheCaptureThatBringsItAbout) {
  // Four white pieces against the lone king: no rule yet. The king must take
  // the man on 23 (landing on 32 or 46 is safe), leaving three kings.
  GameRecord record = FromFen(Named("international"), "B:WK47,K48,K50,23:BK5");
  EXPECT_EQ(record.lone_king_rule(), -1);
  ASSERT_TRUE(PlayFresh(record, Allow{.captures = true}));
  ASSERT_TRUE(record.moves().back().is_capture());
  EXPECT_EQ(record.lone_king_rule(), 0);
  EXPECT_EQ(record.lone_king_plies(), 0);
  PlayFreshPlies(record, 31);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kLoneKingDraw);
  EXPECT_EQ(record.ply_count(), 33);
}

TEST(SixteenMoveRule, NeedsAKingAmongTheThree) {
  // Three men against a king is no lone-king configuration at all.
  const GameRecord record = FromFen(Named("international"), "W:W31,32,33:BK5");
  EXPECT_EQ(record.lone_king_rule(), -1);
}

// Seed 000: "ou contre deux pièces ou moins dont une dame (5 coups chacun)".
TEST(FiveMoveRule, TwoKingsAgainstOneDrawOnThe10thPly) {
  GameRecord record = FromFen(Named("international"), "W:WK47,K50:BK5");
  EXPECT_EQ(record.lone_king_rule(), 1);
  PlayFreshPlies(record, 9);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kLoneKingDraw);
}

TEST(FiveMoveRule, KingAgainstKing) {
  GameRecord record = FromFen(Named("international"), "B:WK50:BK1");
  EXPECT_EQ(record.lone_king_rule(), 1);
  PlayFreshPlies(record, 9);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kLoneKingDraw);
}

TEST(FiveMoveRule, RestartsWhenThreePiecesBecomeTwo) {
  // King, king and man against the lone king: the 16-move rule from the
  // start. Taking the man brings the 5-move rule, counted from that ply.
  GameRecord record = FromFen(Named("international"), "B:WK48,K50,23:BK5");
  EXPECT_EQ(record.lone_king_rule(), 0);
  ASSERT_TRUE(PlayFresh(record, Allow{.captures = true}));
  ASSERT_TRUE(record.moves().back().is_capture());
  EXPECT_EQ(record.lone_king_rule(), 1);
  EXPECT_EQ(record.lone_king_plies(), 0);
  PlayFreshPlies(record, 9);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kLoneKingDraw);
  EXPECT_EQ(record.ply_count(), 11);
}

TEST(LoneKingRules, NotInEnglish) {
  GameRecord record = FromFen(Named("english"), "B:WK29,K32:BK1");
  EXPECT_EQ(record.lone_king_rule(), -1);
  PlayFreshPlies(record, 12);
  EXPECT_EQ(record.outcome(), kOngoing);
}

// Seeds 000-003: the same position (with the same side to move) three times.
TEST(Repetition, ThirdOccurrenceDraws) {
  // Kings on 41, 50 against 20, 27: none can ever capture in this shuffle.
  GameRecord record = FromFen(Named("international"), "W:WK41,K50:BK20,K27");
  const char* cycle[] = {"50-44", "20-24", "44-50", "24-20"};
  for (int i = 0; i < 7; ++i) {
    record = MustPlay(record, cycle[i % 4]);
    ASSERT_EQ(record.outcome(), kOngoing) << "ply " << i + 1;
  }
  EXPECT_EQ(record.repetition_count(), 2);  // the position after ply 3, again after ply 7
  record = MustPlay(record, cycle[3]);
  EXPECT_EQ(record.repetition_count(), 3);
  EXPECT_EQ(record.outcome(), kRepetitionDraw);
}

TEST(Repetition, SideToMoveMatters) {
  // White's king goes 50-39-44-50 (three moves along one diagonal) while
  // Black shuffles 20-24-20, so the start's pieces come back with Black to
  // move (plies 5 and 9): with the start (White to move) that is three
  // times the same pieces, but only twice the same position. The first true
  // threefold is the position after ply 3 (White 41, 44; Black 24, 27;
  // Black to move), again after plies 7 and 11.
  GameRecord record = FromFen(Named("international"), "W:WK41,K50:BK20,K27");
  const char* moves[] = {"50-39", "20-24", "39-44", "24-20", "44-50", "20-24",
                         "50-44", "24-20", "44-50", "20-24", "50-44"};
  for (int i = 0; i < 10; ++i) {
    record = MustPlay(record, moves[i]);
    ASSERT_EQ(record.outcome(), kOngoing) << "ply " << i + 1;
  }
  record = MustPlay(record, moves[10]);
  EXPECT_EQ(record.outcome(), kRepetitionDraw);
}

TEST(Repetition, CanBeSwitchedOff) {
  Variant variant = Named("international");
  variant.draw.repetitions = 0;
  GameRecord record = FromFen(variant, "W:WK41,K50:BK20,K27");
  const char* cycle[] = {"50-44", "20-24", "44-50", "24-20"};
  for (int i = 0; i < 12; ++i) record = MustPlay(record, cycle[i % 4]);
  EXPECT_EQ(record.repetition_count(), 4);
  EXPECT_EQ(record.outcome(), kOngoing);
}

// Depth-first search for `plies` fresh king moves after which the side to
// move can capture (the last move walks into a capture).
bool FindLineIntoCapture(GameRecord& record, int plies, int& budget) {
  if (record.is_over() || --budget < 0) return false;
  for (const Move& move : record.legal_moves()) {
    if (move.is_capture() || !move.by_king) continue;
    if (plies == 1) {
      auto next = record.Play(move);
      if (next.ok() && !next->is_over() && HasCapture(record.variant(), next->position())) {
        record = *next;
        return true;
      }
      continue;
    }
    auto next = FreshAfter(record, move, Allow{});
    if (next && FindLineIntoCapture(*next, plies - 1, budget)) {
      record = *next;
      return true;
    }
  }
  return false;
}

TEST(Outcomes, WinningOnTheDrawingPlyIsAWin) {
  // Two kings against one, Black to move: the 5-move rule would draw after
  // ply 10, White's fifth move. If that move takes the lone king, White wins:
  // the losing checks come before the draw rules.
  GameRecord record = FromFen(Named("international"), "B:WK47,K50:BK5");
  ASSERT_EQ(record.lone_king_rule(), 1);
  int budget = 200000;
  ASSERT_TRUE(FindLineIntoCapture(record, 9, budget));
  ASSERT_EQ(record.ply_count(), 9);
  ASSERT_EQ(record.lone_king_plies(), 9);
  ASSERT_EQ(record.outcome(), kOngoing);
  const Move capture = record.legal_moves().front();
  ASSERT_TRUE(capture.is_capture());
  auto won = record.Play(capture);
  ASSERT_TRUE(won.ok()) << won.error().ToString();
  EXPECT_EQ(won->lone_king_plies(), 0);  // no configuration any more
  EXPECT_EQ(won->outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoPieces}));
}

TEST(TwentyFiveMoveRule, AKingCaptureRestartsTheCount) {
  // Three kings each, so that one capture leaves no lone-king ending.
  GameRecord record = FromFen(Named("international"), "W:WK46,K48,K50:BK1,K3,K5");
  int budget = 200000;
  ASSERT_TRUE(FindLineIntoCapture(record, 20, budget));
  ASSERT_EQ(record.no_progress_plies(), 20);
  record = *record.Play(record.legal_moves().front());
  ASSERT_TRUE(record.moves().back().is_capture());
  EXPECT_EQ(record.no_progress_plies(), 0);
  EXPECT_EQ(record.lone_king_rule(), -1);
  PlayFreshPlies(record, 49);
  EXPECT_EQ(record.outcome(), kOngoing);
  PlayFreshPlies(record, 1);
  EXPECT_EQ(record.outcome(), kNoProgressDraw);
}

}  // namespace
}  // namespace draughts::rules
