// The PDN of an archived game: the tags a reader needs, moves that the
// rules library's own reader replays to the recorded final position, and a
// clear error for a record whose moves do not replay.
#include "rating/archive_pdn.h"

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

// Reads `pdn` back with the rules library and replays it (the rule set
// comes from GameType, else `fallback`).
rules::GameRecord ReadBack(const std::string& pdn, const std::string& fallback) {
  auto games = rules::ReadPdn(pdn);
  EXPECT_TRUE(games.ok()) << games.error().ToString() << "\n" << pdn;
  EXPECT_EQ(games->size(), 1u);
  auto replayed = rules::ReplayPdnGame(games->front(), *rules::FindVariant(fallback));
  EXPECT_TRUE(replayed.ok()) << replayed.error().ToString() << "\n" << pdn;
  return *replayed;
}

std::string Tag(const std::string& pdn, const std::string& name) {
  auto games = rules::ReadPdn(pdn);
  if (!games.ok() || games->empty()) return "<unreadable>";
  const std::string* value = games->front().FindTag(name);
  return value == nullptr ? "<none>" : *value;
}

TEST(ArchivePdnTest, HasTheTagsAndReplaysToTheFinalPosition) {
  const v1::ResultRecord record = PlayedRecord("g1", "international", 40, 7);
  auto pdn = ArchivedGamePdn(record, PdnSettings{"test site"});
  ASSERT_TRUE(pdn.ok()) << pdn.status();
  EXPECT_EQ(Tag(*pdn, "Event"), "Casual game, International draughts");
  EXPECT_EQ(Tag(*pdn, "Site"), "test site");
  EXPECT_EQ(Tag(*pdn, "Date"), "2026.01.01");
  EXPECT_EQ(Tag(*pdn, "Round"), "-");
  EXPECT_EQ(Tag(*pdn, "White"), "Alice \"the\" White");
  EXPECT_EQ(Tag(*pdn, "Black"), "Bob");
  EXPECT_EQ(Tag(*pdn, "Result"), "0-2");  // Black won (White resigned), two-point style
  EXPECT_EQ(Tag(*pdn, "GameType"), "20");
  EXPECT_EQ(Tag(*pdn, "FEN"), "<none>");  // the usual start

  const rules::GameRecord replayed = ReadBack(*pdn, "english");  // GameType decides
  EXPECT_EQ(replayed.variant().id, "international");
  EXPECT_EQ(replayed.ply_count(), record.moves_size());
  EXPECT_EQ(rules::FormatFen(replayed.position()), record.final_fen());
  EXPECT_EQ(rules::ReadPdn(*pdn)->front().result, rules::PdnResult::kBlackWins);
}

TEST(ArchivePdnTest, NamesWithBracketsOrLineBreaksStayInTheirTags) {
  v1::ResultRecord record = PlayedRecord("g1", "international", 6, 2);
  record.mutable_white()->set_display_name("Eve]\n[Result \"2-0\"]");
  record.mutable_black()->clear_display_name();
  auto pdn = ArchivedGamePdn(record, PdnSettings{"a\tsite"});
  ASSERT_TRUE(pdn.ok()) << pdn.status();
  EXPECT_EQ(Tag(*pdn, "White"), "Eve] [Result \"2-0\"]");
  EXPECT_EQ(Tag(*pdn, "Black"), "?");
  EXPECT_EQ(Tag(*pdn, "Site"), "a site");
  EXPECT_EQ(Tag(*pdn, "Result"), "0-2");
  EXPECT_EQ(rules::FormatFen(ReadBack(*pdn, "international").position()), record.final_fen());
}

TEST(ArchivePdnTest, EnglishUsesItsGameTypeAndOnePointScores) {
  v1::ResultRecord record = PlayedRecord("g1", "english", 30, 3);
  record.set_result(v1::GAME_RESULT_DRAW);
  record.set_reason(v1::RESULT_REASON_DRAW_AGREED);
  record.set_rated(true);
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  ASSERT_TRUE(pdn.ok()) << pdn.status();
  EXPECT_EQ(Tag(*pdn, "GameType"), "21");
  EXPECT_EQ(Tag(*pdn, "Result"), "1/2-1/2");
  EXPECT_EQ(Tag(*pdn, "Event"), "Rated game, English checkers");
  EXPECT_EQ(Tag(*pdn, "Site"), "draughts platform");
  const rules::GameRecord replayed = ReadBack(*pdn, "international");
  EXPECT_EQ(replayed.variant().id, "english");
  EXPECT_EQ(rules::FormatFen(replayed.position()), record.final_fen());
}

TEST(ArchivePdnTest, AGameFromAPositionCarriesItsFen) {
  const std::string start = "B:W28,31,32,K46:B3,8,9,19";
  const v1::ResultRecord record = PlayedRecord("g1", "international", 10, 5, start);
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  ASSERT_TRUE(pdn.ok()) << pdn.status();
  const std::string fen = Tag(*pdn, "FEN");
  ASSERT_NE(fen, "<none>");
  EXPECT_EQ(rules::FormatFen(*rules::ParseFen(*rules::FindVariant("international"), fen)),
            rules::FormatFen(*rules::ParseFen(*rules::FindVariant("international"), start)));
  // Black moves first here: numbering starts "1...".
  EXPECT_NE(pdn->find("1..."), std::string::npos) << *pdn;
  EXPECT_EQ(rules::FormatFen(ReadBack(*pdn, "international").position()), record.final_fen());
}

TEST(ArchivePdnTest, ARuleSetWithoutAGameTypeWritesNoneAndReadsBackWithItsVariant) {
  const v1::ResultRecord record = PlayedRecord("g1", "antidraughts", 30, 11);
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  ASSERT_TRUE(pdn.ok()) << pdn.status();
  EXPECT_EQ(Tag(*pdn, "GameType"), "<none>");
  EXPECT_EQ(rules::FormatFen(ReadBack(*pdn, "antidraughts").position()), record.final_fen());
}

TEST(ArchivePdnTest, EveryRuleSetReplays) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    const v1::ResultRecord record = PlayedRecord("g", std::string(variant.id), 60, 13);
    auto pdn = ArchivedGamePdn(record, PdnSettings{});
    ASSERT_TRUE(pdn.ok()) << variant.id << ": " << pdn.status();
    EXPECT_EQ(rules::FormatFen(ReadBack(*pdn, std::string(variant.id)).position()),
              record.final_fen())
        << variant.id;
  }
}

TEST(ArchivePdnTest, MovesThatDoNotReplayAreAnError) {
  v1::ResultRecord record = PlayedRecord("g1", "international", 10, 1);
  record.set_moves(3, "1-50");
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  EXPECT_EQ(pdn.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(pdn.status().message().find("move 4 (1-50)"), std::string::npos) << pdn.status();
}

TEST(ArchivePdnTest, AFinalFenTheMovesDoNotReachIsAnError) {
  v1::ResultRecord record = PlayedRecord("g1", "international", 10, 1);
  record.set_final_fen("W:W31-50:B1-20");
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  EXPECT_EQ(pdn.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(pdn.status().message().find("final_fen"), std::string::npos) << pdn.status();
}

TEST(ArchivePdnTest, AnUnknownRuleSetIsAnError) {
  v1::ResultRecord record = PlayedRecord("g1");
  record.set_variant("chess");
  EXPECT_EQ(ArchivedGamePdn(record, PdnSettings{}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ArchivePdnTest, CapturesNotCompulsoryOnAnEnglishTableReplay) {
  // White (to move) may capture 22x13 but plays a quiet move instead.
  const std::string start = "W:W22,29:B17,3";
  v1::ResultRecord record = PlayedRecord("g1", "english", 0, 1, start);
  record.add_moves("29-25");
  auto compulsory = ArchivedGamePdn(record, PdnSettings{});
  EXPECT_FALSE(compulsory.ok()) << *compulsory;
  record.mutable_options()->set_mandatory_capture(false);
  const rules::Variant variant = *ReplayVariant(record);
  auto played = rules::GameRecord(variant, *rules::ParseFen(variant, start)).Play("29-25");
  ASSERT_TRUE(played.ok()) << played.error().ToString();
  record.set_final_fen(rules::FormatFen(played->position()));
  record.set_ply(1);
  auto pdn = ArchivedGamePdn(record, PdnSettings{});
  EXPECT_TRUE(pdn.ok()) << pdn.status();
}

}  // namespace
}  // namespace draughts::rating::testing
