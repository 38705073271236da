#include "gateway/table_frames.h"

#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "gateway/proto_json.h"
#include "platform/proto_time.h"

namespace draughts::gateway {
namespace {

TEST(ParseClientFrameTest, Actions) {
  std::string id;
  v1::ClientFrame move =
      ParseClientFrame(R"({"requestId":"r1","move":{"notation":"32-28","expectedPly":4}})", &id)
          .value();
  EXPECT_EQ(id, "r1");
  EXPECT_EQ(move.move().notation(), "32-28");
  EXPECT_EQ(move.move().expected_ply(), 4);
  EXPECT_TRUE(ParseClientFrame(R"({"ping":{}})")->has_ping());
  EXPECT_TRUE(ParseClientFrame(R"({"voteRematch":{}})")->has_vote_rematch());
  EXPECT_EQ(
      ParseClientFrame(R"({"answerDraw":{"expectedPly":2,"accept":true,"color":"COLOR_BLACK"}})")
          ->answer_draw()
          .color(),
      v1::COLOR_BLACK);
  EXPECT_EQ(ParseClientFrame(R"({"postChat":{"text":"gg"}})")->post_chat().text(), "gg");
}

TEST(ParseClientFrameTest, BadFramesAreInvalidArgumentWithTheirRequestId) {
  for (const char* bad : {
           R"({not json)",
           R"([1,2])",
           R"({})",
           R"({"requestId":"r9"})",
           R"({"requestId":"r9","fly":{}})",
           R"({"requestId":"r9","move":{"notation":"","expectedPly":1}})",
           R"({"requestId":"r9","move":{"notation":"32-28","expectedPly":-1}})",
           R"({"requestId":"r9","move":{"notation":"32-28","expectedPly":"x"}})",
           R"({"requestId":"r9","move":{},"resign":{}})",
           R"({"requestId":"r9","resign":{"color":"PURPLE"}})",
       }) {
    std::string id;
    absl::StatusOr<v1::ClientFrame> frame = ParseClientFrame(bad, &id);
    EXPECT_TRUE(absl::IsInvalidArgument(frame.status())) << bad;
    if (std::string_view(bad).find("r9") != std::string_view::npos) {
      EXPECT_EQ(id, "r9") << bad;
    }
  }
  const std::string long_id(kMaxRequestIdBytes + 1, 'x');
  std::string id;
  EXPECT_TRUE(absl::IsInvalidArgument(
      ParseClientFrame(R"({"requestId":")" + long_id + R"(","ping":{}})", &id).status()));
  EXPECT_EQ(id, "");
}

TEST(ServerFramesTest, AckAndErrorEchoTheRequestId) {
  EXPECT_EQ(FrameJson(TableAckFrame("r1", true)), R"({"requestId":"r1","ack":{"started":true}})");
  EXPECT_EQ(
      FrameJson(TableErrorFrame("r2", absl::FailedPreconditionError("not your turn"))),
      R"({"requestId":"r2","error":{"code":"FAILED_PRECONDITION","message":"not your turn"}})");
}

v1::TableEvent Finished(v1::GameResult result, v1::Color seat0, v1::Color seat1) {
  v1::TableEvent event;
  event.mutable_game_finished()->set_result(result);
  v1::TableSeat* first = event.mutable_table()->add_seats();
  first->set_index(0);
  first->set_color(seat0);
  v1::TableSeat* second = event.mutable_table()->add_seats();
  second->set_index(1);
  second->set_color(seat1);
  return event;
}

TEST(TableScoreTest, CountsBySeatAcrossSwappedColours) {
  TableScore score;
  score.Apply(Finished(v1::GAME_RESULT_WHITE_WINS, v1::COLOR_WHITE, v1::COLOR_BLACK));
  score.Apply(Finished(v1::GAME_RESULT_WHITE_WINS, v1::COLOR_BLACK, v1::COLOR_WHITE));
  score.Apply(Finished(v1::GAME_RESULT_BLACK_WINS, v1::COLOR_WHITE, v1::COLOR_BLACK));
  score.Apply(Finished(v1::GAME_RESULT_DRAW, v1::COLOR_BLACK, v1::COLOR_WHITE));
  v1::TableEvent other;
  other.mutable_rematch_voted();
  score.Apply(other);
  EXPECT_EQ(score.score().games_finished(), 4);
  EXPECT_EQ(score.score().draws(), 1);
  EXPECT_EQ(score.score().wins(0), 1);
  EXPECT_EQ(score.score().wins(1), 2);
}

GameView ViewWithMoves(v1::Color to_move) {
  GameView view;
  view.game.set_game_id("g1");
  view.game.set_result(v1::GAME_RESULT_ONGOING);
  view.game.set_side_to_move(to_move);
  view.moves.add_moves()->set_notation("32-28");
  view.moves.set_must_capture(true);
  return view;
}

TEST(SnapshotTest, LegalMovesOnlyForTheSideToMove) {
  const GameView view = ViewWithMoves(v1::COLOR_WHITE);
  const v1::ServerFrame::ClockView clock;
  EXPECT_EQ(TableSnapshotFrame(view, {v1::COLOR_WHITE}, clock).snapshot().legal_moves_size(), 1);
  EXPECT_TRUE(TableSnapshotFrame(view, {v1::COLOR_WHITE}, clock).snapshot().must_capture());
  EXPECT_EQ(TableSnapshotFrame(view, {v1::COLOR_BLACK}, clock).snapshot().legal_moves_size(), 0);
  EXPECT_EQ(TableSnapshotFrame(view, {}, clock).snapshot().legal_moves_size(), 0);
  EXPECT_EQ(TableSnapshotFrame(view, {v1::COLOR_BLACK, v1::COLOR_WHITE}, clock)
                .snapshot()
                .legal_moves_size(),
            1);
}

TEST(SnapshotTest, JsonPutTogetherFromPartsIsTheFramesJson) {
  GameView view = ViewWithMoves(v1::COLOR_WHITE);
  view.game.set_variant("international");
  view.game.set_fen("W:W31,32:B19,20");
  view.game.set_version(7);
  view.game.mutable_white()->mutable_seat()->set_display_name("Ann \"the\" wall");
  view.game.mutable_move_deadline()->set_seconds(1700000000);
  v1::LegalMove* capture = view.moves.add_moves();
  capture->set_notation("31x22");
  capture->add_path(31);
  capture->add_path(22);
  capture->add_captured(27);
  const std::vector<std::vector<v1::Color>> sockets = {
      {v1::COLOR_WHITE}, {v1::COLOR_BLACK}, {}, {v1::COLOR_WHITE, v1::COLOR_BLACK}};
  const absl::Time now = absl::FromUnixSeconds(1699999990) + absl::Milliseconds(250);
  for (v1::GameResult result : {v1::GAME_RESULT_ONGOING, v1::GAME_RESULT_DRAW}) {
    view.game.set_result(result);
    // Armed from game_state's deadline while ongoing, not armed once over.
    const v1::ServerFrame::ClockView clock = TableClockView(view.game, nullptr, now);
    for (bool must_capture : {true, false}) {
      view.moves.set_must_capture(must_capture);
      const SnapshotJsonParts parts = PrintSnapshotParts(view, clock);
      for (const std::vector<v1::Color>& colors : sockets) {
        EXPECT_EQ(TableSnapshotJson(view, parts, colors),
                  FrameJson(TableSnapshotFrame(view, colors, clock)))
            << colors.size() << " colours, result " << result << ", capture " << must_capture;
      }
    }
  }
  view.moves.clear_moves();
  const v1::ServerFrame::ClockView clock;
  const SnapshotJsonParts parts = PrintSnapshotParts(view, clock);
  EXPECT_EQ(parts.legal_moves, "[]");
  EXPECT_EQ(TableSnapshotJson(view, parts, {v1::COLOR_WHITE}),
            FrameJson(TableSnapshotFrame(view, {v1::COLOR_WHITE}, clock)));
}

TEST(SnapshotTest, CarriesItsMoveTimer) {
  GameView view = ViewWithMoves(v1::COLOR_WHITE);
  view.game.set_ply(9);
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  *view.game.mutable_move_deadline() = platform::ToProtoTime(now + absl::Seconds(30));
  const v1::ServerFrame::ClockView clock = TableClockView(view.game, nullptr, now);
  const SnapshotJsonParts parts = PrintSnapshotParts(view, clock);
  v1::ServerFrame parsed;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(TableSnapshotJson(view, parts, {}), &parsed)
          .ok());
  const v1::ServerFrame::ClockView& sent = parsed.snapshot().clock();
  EXPECT_TRUE(sent.armed());
  EXPECT_EQ(sent.expected_ply(), 9);
  EXPECT_EQ(sent.game_id(), "g1");
  EXPECT_EQ(platform::FromProtoDuration(sent.remaining()), absl::Seconds(30));
}

TEST(SnapshotTest, RidesInItsEventsFrameAsProtobufPrintsIt) {
  GameView view = ViewWithMoves(v1::COLOR_BLACK);
  view.game.set_ply(12);
  view.game.set_version(13);
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  *view.game.mutable_move_deadline() = platform::ToProtoTime(now + absl::Seconds(20));
  const v1::ServerFrame::ClockView clock = TableClockView(view.game, nullptr, now);
  const SnapshotJsonParts parts = PrintSnapshotParts(view, clock);
  v1::ServerFrame event_frame;
  v1::GameEvent* event = event_frame.mutable_game_event();
  event->set_event_id("1700000000000-3");
  event->set_game_id("g1");
  event->set_ply(12);
  event->set_version(13);
  event->mutable_move_played()->set_color(v1::COLOR_WHITE);
  event->mutable_move_played()->set_notation("32-28");
  *event->mutable_timestamp() = platform::ToProtoTime(now);
  for (const std::vector<v1::Color>& colors :
       std::vector<std::vector<v1::Color>>{{v1::COLOR_BLACK}, {v1::COLOR_WHITE}, {}}) {
    v1::ServerFrame both = event_frame;
    *both.mutable_snapshot_after() = TableSnapshotFrame(view, colors, clock).snapshot();
    EXPECT_EQ(EventWithSnapshotJson(FrameJson(event_frame), TableSnapshotJson(view, parts, colors)),
              FrameJson(both))
        << colors.size() << " colours";
  }
  // Anything else is refused rather than spliced wrongly.
  const std::string snapshot = TableSnapshotJson(view, parts, {});
  EXPECT_EQ(EventWithSnapshotJson(snapshot, snapshot), std::nullopt);
  EXPECT_EQ(EventWithSnapshotJson(FrameJson(event_frame), FrameJson(event_frame)), std::nullopt);
  EXPECT_EQ(EventWithSnapshotJson("", snapshot), std::nullopt);
}

TEST(TableViewTest, TheGameKeyChangesWithEveryFieldTheViewReads) {
  v1::GameState game;
  game.set_game_id("g1");
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.set_ply(10);
  v1::GetClockResponse clock;
  v1::SeatPresence* presence = clock.add_presence();
  presence->set_color(v1::COLOR_WHITE);
  presence->set_connected(true);
  const std::string base = TableViewGameKey(&game, &clock);
  EXPECT_EQ(base, TableViewGameKey(&game, &clock));
  EXPECT_NE(base, TableViewGameKey(nullptr, &clock));
  EXPECT_NE(base, TableViewGameKey(&game, nullptr));
  // A move alone (ply, position) leaves the view as it was.
  v1::GameState moved = game;
  moved.set_ply(11);
  moved.set_fen("W:W31:B19");
  EXPECT_EQ(base, TableViewGameKey(&moved, &clock));
  std::vector<std::function<void(v1::GameState&, v1::GetClockResponse&)>> changes = {
      [](auto& g, auto&) { g.set_game_id("g2"); },
      [](auto& g, auto&) { g.set_result(v1::GAME_RESULT_DRAW); },
      [](auto& g, auto&) { g.mutable_white()->set_connected(true); },
      [](auto& g, auto&) { g.mutable_black()->set_connected(true); },
      [](auto& g, auto&) { g.mutable_white()->set_computer_playing(true); },
      [](auto& g, auto&) { g.mutable_black()->set_computer_playing(true); },
      [](auto&, auto& c) { c.mutable_presence(0)->set_connected(false); },
      [](auto&, auto& c) { c.mutable_presence(0)->set_color(v1::COLOR_BLACK); },
      [](auto&, auto& c) { c.mutable_presence(0)->mutable_abandon_deadline()->set_seconds(5); },
      [](auto&, auto& c) { c.add_presence()->set_color(v1::COLOR_BLACK); },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    v1::GameState changed_game = game;
    v1::GetClockResponse changed_clock = clock;
    changes[i](changed_game, changed_clock);
    EXPECT_NE(base, TableViewGameKey(&changed_game, &changed_clock)) << "change " << i;
  }
}

TEST(TableViewTest, NoInviteCodeAndPresenceFromTheGame) {
  v1::Table table;
  table.set_game_id("g1");
  table.set_invite_code("SECRETCODE");
  v1::TableSeat* seat = table.add_seats();
  seat->set_index(0);
  seat->set_color(v1::COLOR_WHITE);
  seat->mutable_occupant()->set_kind(v1::SEAT_KIND_GUEST);
  v1::TableSeat* bot = table.add_seats();
  bot->set_index(1);
  bot->set_color(v1::COLOR_BLACK);
  bot->mutable_occupant()->set_kind(v1::SEAT_KIND_BOT);
  v1::GameState game;
  game.set_game_id("g1");
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.mutable_white()->set_connected(false);
  v1::GetClockResponse clock;
  v1::SeatPresence* presence = clock.add_presence();
  presence->set_color(v1::COLOR_WHITE);
  presence->mutable_abandon_deadline()->set_seconds(1000);
  v1::TableEvent event;
  event.set_event_id("5-0");
  *event.mutable_table() = table;
  const v1::ServerFrame frame =
      TableViewFrame(table, TableScore(), SeatBinding{{1}}, &game, &clock, &event);
  EXPECT_EQ(FrameJson(frame).find("SECRETCODE"), std::string::npos);
  ASSERT_EQ(frame.table().seats_size(), 2);
  EXPECT_FALSE(frame.table().seats(0).connected());
  EXPECT_EQ(frame.table().seats(0).abandon_deadline().seconds(), 1000);
  EXPECT_FALSE(frame.table().seats(0).yours());
  EXPECT_TRUE(frame.table().seats(1).connected());
  EXPECT_TRUE(frame.table().seats(1).yours());
  EXPECT_EQ(frame.table().last_event_id(), "5-0");
}

TEST(ActingColorTest, SpectatorsSingleSeatsAndHotseat) {
  v1::GameState game;
  game.set_game_id("g1");
  game.set_side_to_move(v1::COLOR_BLACK);
  EXPECT_TRUE(
      absl::IsPermissionDenied(ActingColor({}, v1::COLOR_UNSPECIFIED, game, false).status()));
  EXPECT_EQ(*ActingColor({v1::COLOR_WHITE}, v1::COLOR_UNSPECIFIED, game, false), v1::COLOR_WHITE);
  EXPECT_TRUE(absl::IsPermissionDenied(
      ActingColor({v1::COLOR_WHITE}, v1::COLOR_BLACK, game, false).status()));
  const std::vector<v1::Color> both = {v1::COLOR_WHITE, v1::COLOR_BLACK};
  EXPECT_EQ(*ActingColor(both, v1::COLOR_UNSPECIFIED, game, false), v1::COLOR_BLACK);
  EXPECT_EQ(*ActingColor(both, v1::COLOR_WHITE, game, false), v1::COLOR_WHITE);
  game.set_draw_offered_by(v1::COLOR_BLACK);
  EXPECT_EQ(*ActingColor(both, v1::COLOR_UNSPECIFIED, game, true), v1::COLOR_WHITE);
  EXPECT_TRUE(absl::IsFailedPrecondition(
      ActingColor({v1::COLOR_WHITE}, v1::COLOR_UNSPECIFIED, v1::GameState(), false).status()));
}

TEST(ClockViewTest, ArmedOnlyForTheCurrentPly) {
  v1::GameState game;
  game.set_game_id("g1");
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.set_ply(4);
  game.mutable_black()->set_consecutive_automatic_moves(2);
  v1::GetClockResponse clock;
  clock.set_armed(true);
  clock.set_expected_ply(4);
  clock.set_color(v1::COLOR_WHITE);
  clock.mutable_remaining()->set_seconds(42);
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  v1::ServerFrame::ClockView view = TableClockView(game, &clock, now);
  EXPECT_TRUE(view.armed());
  EXPECT_EQ(view.remaining().seconds(), 42);
  EXPECT_EQ(view.black_timeouts(), 2);
  clock.set_expected_ply(3);  // the clock has not caught up yet
  EXPECT_FALSE(TableClockView(game, &clock, now).armed());
  EXPECT_FALSE(TableClockView(game, nullptr, now).armed());
}

TEST(ClockViewTest, GameStatesDeadlineCountedFromNowWhenTheClockIsNotRead) {
  v1::GameState game;
  game.set_game_id("g1");
  game.set_result(v1::GAME_RESULT_ONGOING);
  game.set_ply(7);
  game.set_side_to_move(v1::COLOR_BLACK);
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  *game.mutable_move_deadline() = platform::ToProtoTime(now + absl::Milliseconds(12500));
  v1::ServerFrame::ClockView view = TableClockView(game, nullptr, now);
  EXPECT_TRUE(view.armed());
  EXPECT_EQ(view.color(), v1::COLOR_BLACK);
  EXPECT_EQ(view.expected_ply(), 7);
  EXPECT_EQ(platform::FromProtoTime(view.deadline()), now + absl::Milliseconds(12500));
  EXPECT_EQ(platform::FromProtoDuration(view.remaining()), absl::Milliseconds(12500));
  EXPECT_EQ(platform::FromProtoTime(view.server_time()), now);
  // Past the deadline (the automatic move is on its way): nothing negative.
  view = TableClockView(game, nullptr, now + absl::Seconds(20));
  EXPECT_EQ(platform::FromProtoDuration(view.remaining()), absl::ZeroDuration());
  game.set_result(v1::GAME_RESULT_DRAW);
  EXPECT_FALSE(TableClockView(game, nullptr, now).armed());
}

}  // namespace
}  // namespace draughts::gateway
