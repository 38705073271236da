#include "matchmaking/table_rules.h"

#include <gtest/gtest.h>

#include "absl/strings/match.h"

namespace draughts::matchmaking {
namespace {

google::protobuf::Duration Seconds(int64_t s) {
  google::protobuf::Duration d;
  d.set_seconds(s);
  return d;
}

TEST(TimePerMove, TenByTenOffersThirtySecondsToFiveMinutesDefaultOne) {
  const v1::VariantOptions none;
  for (const char* variant : {"international", "canadian"}) {
    absl::StatusOr<absl::Duration> chosen = ChooseTimePerMove(variant, none, nullptr, false);
    ASSERT_TRUE(chosen.ok()) << chosen.status();
    EXPECT_EQ(*chosen, absl::Minutes(1)) << variant;
    for (int64_t ok : {30, 60, 120, 300}) {
      const google::protobuf::Duration asked = Seconds(ok);
      EXPECT_TRUE(ChooseTimePerMove(variant, none, &asked, false).ok()) << variant << " " << ok;
    }
    for (int64_t bad : {0, 1, 45, 600}) {
      const google::protobuf::Duration asked = Seconds(bad);
      absl::StatusOr<absl::Duration> refused = ChooseTimePerMove(variant, none, &asked, false);
      EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << variant << bad;
    }
  }
}

TEST(TimePerMove, EnglishOffersNoneThirtyOrSixtyDefaultNone) {
  const v1::VariantOptions none;
  absl::StatusOr<absl::Duration> chosen = ChooseTimePerMove("english", none, nullptr, false);
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(*chosen, absl::ZeroDuration());
  for (int64_t ok : {0, 30, 60}) {
    const google::protobuf::Duration asked = Seconds(ok);
    EXPECT_TRUE(ChooseTimePerMove("english", none, &asked, false).ok()) << ok;
  }
  const google::protobuf::Duration two_minutes = Seconds(120);
  absl::StatusOr<absl::Duration> refused = ChooseTimePerMove("english", none, &two_minutes, false);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "offered")) << refused.status();
}

TEST(TimePerMove, OneSecondOnlyWithTheTestFlag) {
  const google::protobuf::Duration one = Seconds(1);
  EXPECT_FALSE(ChooseTimePerMove("international", {}, &one, false).ok());
  EXPECT_TRUE(ChooseTimePerMove("international", {}, &one, true).ok());
}

TEST(TimePerMove, BadInputIsRefused) {
  google::protobuf::Duration negative_nanos;
  negative_nanos.set_seconds(30);
  negative_nanos.set_nanos(-1);
  EXPECT_FALSE(ChooseTimePerMove("english", {}, &negative_nanos, false).ok());
  EXPECT_FALSE(ChooseTimePerMove("no-such-rules", {}, nullptr, false).ok());
  v1::VariantOptions optional_capture;
  optional_capture.set_mandatory_capture(false);
  EXPECT_TRUE(ChooseTimePerMove("english", optional_capture, nullptr, false).ok())
      << "seed 003 option";
  EXPECT_FALSE(ChooseTimePerMove("international", optional_capture, nullptr, false).ok());
}

TEST(Requester, NeedsKindIdAndAName) {
  v1::Seat seat;
  EXPECT_FALSE(CheckRequester(seat).ok());
  seat.set_kind(v1::SEAT_KIND_PERSON);
  seat.set_player_id("p1");
  EXPECT_FALSE(CheckRequester(seat).ok()) << "no display name";
  seat.set_display_name(std::string(40, 'x'));
  EXPECT_TRUE(CheckRequester(seat).ok());
  seat.set_display_name("Ødegård Ñandú Ünal Çelik Śmigły Žižek Ł");  // 39 code points
  EXPECT_TRUE(CheckRequester(seat).ok()) << "characters, not bytes";
  seat.set_display_name(std::string(41, 'x'));
  EXPECT_FALSE(CheckRequester(seat).ok());
  seat.set_display_name("Bot");
  seat.set_kind(v1::SEAT_KIND_BOT);
  EXPECT_FALSE(CheckRequester(seat).ok());
}

TEST(Bots, HaveANameForTheBoard) {
  EXPECT_EQ(BotSeat(v1::BOT_LEVEL_EASY, "").display_name(), "Computer (Easy)");
  EXPECT_EQ(BotSeat(v1::BOT_LEVEL_UNSPECIFIED, "").display_name(), "Computer (Medium)");
  const v1::Seat engine = BotSeat(v1::BOT_LEVEL_UNSPECIFIED, "scan-3.1");
  EXPECT_EQ(engine.engine_id(), "scan-3.1");
  EXPECT_EQ(engine.display_name(), "Computer (scan-3.1)");
  EXPECT_LE(BotSeat(v1::BOT_LEVEL_HARD, std::string(100, 'e')).display_name().size(), 40u);
}

v1::Table TwoSeats() {
  v1::Table table;
  for (int i = 0; i < 2; ++i) table.add_seats()->set_index(i);
  return table;
}

TEST(Colours, FirstGameDrawsThenSwaps) {
  v1::Table table = TwoSeats();
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_UNSPECIFIED, [] { return true; }), v1::COLOR_WHITE);
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_UNSPECIFIED, [] { return false; }), v1::COLOR_BLACK);
  table.set_games_played(1);
  table.mutable_seats(0)->set_color(v1::COLOR_WHITE);
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_UNSPECIFIED, [] { return true; }), v1::COLOR_BLACK);
  table.mutable_options()->set_alternate_first_player(false);
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_UNSPECIFIED, [] { return false; }), v1::COLOR_WHITE)
      << "kept without alternate_first_player";
}

TEST(Colours, CreatorChoosesAgainstTheComputerOnlyForTheFirstGame) {
  v1::Table table = TwoSeats();
  table.set_vs_computer(true);
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_BLACK, [] { return true; }), v1::COLOR_BLACK);
  table.set_games_played(1);
  table.mutable_seats(0)->set_color(v1::COLOR_BLACK);
  EXPECT_EQ(SeatZeroColor(table, v1::COLOR_BLACK, [] { return false; }), v1::COLOR_WHITE);
}

TEST(Seats, WhoSitsWhere) {
  v1::Table table = TwoSeats();
  EXPECT_TRUE(HasOpenSeat(table));
  EXPECT_FALSE(HasPeople(table));
  table.mutable_seats(0)->mutable_occupant()->set_kind(v1::SEAT_KIND_PERSON);
  table.mutable_seats(0)->mutable_occupant()->set_player_id("p");
  *table.mutable_seats(1)->mutable_occupant() = BotSeat(v1::BOT_LEVEL_EASY, "");
  EXPECT_FALSE(HasOpenSeat(table));
  EXPECT_TRUE(HasPeople(table));
  EXPECT_EQ(SeatsOf(table, "p"), std::vector<int>{0});
  EXPECT_TRUE(SeatsOf(table, "").empty()) << "a bot's empty id matches nobody";
  *table.mutable_seats(1)->mutable_occupant() = table.seats(0).occupant();
  EXPECT_EQ(SeatsOf(table, "p"), (std::vector<int>{0, 1})) << "hotseat";
}

TEST(PairingWindow, WidensWithTheWaitUpToTheMaximum) {
  PairingWindow window{.base = 100, .widen_by = 50, .widen_every = absl::Seconds(5), .max = 300};
  EXPECT_EQ(window.After(absl::ZeroDuration()), 100);
  EXPECT_EQ(window.After(absl::Seconds(4.9)), 100);
  EXPECT_EQ(window.After(absl::Seconds(5)), 150);
  EXPECT_EQ(window.After(absl::Seconds(12)), 200);
  EXPECT_EQ(window.After(absl::Minutes(10)), 300);
  EXPECT_EQ(window.After(-absl::Seconds(3)), 100) << "a clock step back never narrows it";
  PairingWindow fixed{.base = 100, .widen_by = 50, .widen_every = absl::ZeroDuration(), .max = 300};
  EXPECT_EQ(fixed.After(absl::Hours(1)), 100);
}

}  // namespace
}  // namespace draughts::matchmaking
