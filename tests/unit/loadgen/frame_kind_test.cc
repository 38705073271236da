// FrameKind reads a ServerFrame's kind without parsing it; anything not in
// the gateway's printed form gives "" (the caller then parses in full).
#include "loadgen/frame_kind.h"

#include <google/protobuf/util/json_util.h>

#include <optional>
#include <string>

#include "draughts/v1/web_socket.pb.h"
#include "gtest/gtest.h"

namespace draughts::loadgen {
namespace {

TEST(FrameKindTest, NamesTheFrameMemberAfterTheRequestId) {
  EXPECT_EQ(FrameKind(R"({"requestId":"","welcome":{"tableId":"t1"}})"), "welcome");
  EXPECT_EQ(FrameKind(R"({"requestId":"r7","ack":{"started":false}})"), "ack");
  EXPECT_EQ(FrameKind(R"({"requestId":"","gameEvent":{"eventId":"1-0"}})"), "gameEvent");
}

TEST(FrameKindTest, SkipsEscapesInTheRequestId) {
  EXPECT_EQ(FrameKind(R"({"requestId":"a\"b\\","error":{"code":"ABORTED"}})"), "error");
}

TEST(FrameKindTest, AnythingElseIsEmpty) {
  EXPECT_EQ(FrameKind(""), "");
  EXPECT_EQ(FrameKind("{}"), "");
  EXPECT_EQ(FrameKind(R"({"welcome":{}})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1"})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1","x")"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1","pong":1})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"unterminated)"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"ends in \)"), "");
}

// A ServerFrame as the gateway prints it: protobuf's canonical JSON with
// every field (the gateway's printer is byte for byte the same, tested in
// tests/unit/gateway/proto_json_printer_test.cc).
std::string Printed(const v1::ServerFrame& frame) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(frame, &json, options).ok());
  return json;
}

v1::ServerFrame MoveFrame(const std::string& notation, bool automatic) {
  v1::ServerFrame frame;
  v1::GameEvent* event = frame.mutable_game_event();
  event->set_event_id("1764627001001-3");
  event->set_game_id("oj6u_x-9");
  event->set_ply(7);
  event->mutable_timestamp()->set_seconds(1764627001);
  event->set_version(9);
  v1::MovePlayed* played = event->mutable_move_played();
  played->set_color(v1::COLOR_BLACK);
  played->set_notation(notation);
  played->add_path(32);
  played->add_path(28);
  played->set_promoted(true);
  played->set_fen_after("B:W28,31:BK19");
  played->set_automatic(automatic);
  played->set_consecutive_automatic_moves(automatic ? 2 : 0);
  played->mutable_next_move_deadline()->set_seconds(1764627061);
  return frame;
}

TEST(ScanMovePlayedFrameTest, ReadsWhatThePlayersUseAsTheFullParseDoes) {
  for (bool automatic : {false, true}) {
    const v1::ServerFrame frame = MoveFrame("32x23x14", automatic);
    const std::optional<v1::GameEvent> scanned = ScanMovePlayedFrame(Printed(frame));
    ASSERT_TRUE(scanned.has_value()) << Printed(frame);
    const v1::GameEvent& sent = frame.game_event();
    EXPECT_EQ(scanned->event_id(), sent.event_id());
    EXPECT_EQ(scanned->game_id(), sent.game_id());
    EXPECT_EQ(scanned->ply(), sent.ply());
    ASSERT_TRUE(scanned->has_move_played());
    EXPECT_EQ(scanned->move_played().color(), v1::COLOR_BLACK);
    EXPECT_EQ(scanned->move_played().notation(), "32x23x14");
    EXPECT_EQ(scanned->move_played().fen_after(), "B:W28,31:BK19");
    EXPECT_EQ(scanned->move_played().automatic(), automatic);
  }
}

TEST(ScanMovePlayedFrameTest, ReadsTheEventNotTheSnapshotRidingBesideIt) {
  v1::ServerFrame frame = MoveFrame("32-28", true);
  v1::GameState* after = frame.mutable_snapshot_after()->mutable_game();
  after->set_game_id("other-game");
  after->set_ply(8);
  after->set_fen("W:W31:BK19");
  frame.mutable_snapshot_after()->mutable_clock()->set_color(v1::COLOR_WHITE);
  const std::string printed = Printed(frame);
  ASSERT_NE(printed.find(R"(,"snapshotAfter":{)"), std::string::npos) << printed;
  EXPECT_EQ(FrameKind(printed), "gameEvent");
  const std::optional<v1::GameEvent> scanned = ScanMovePlayedFrame(printed);
  ASSERT_TRUE(scanned.has_value()) << printed;
  EXPECT_EQ(scanned->game_id(), "oj6u_x-9");
  EXPECT_EQ(scanned->ply(), 7);
  EXPECT_EQ(scanned->move_played().color(), v1::COLOR_BLACK);
  EXPECT_EQ(scanned->move_played().fen_after(), "B:W28,31:BK19");
  EXPECT_TRUE(scanned->move_played().automatic());
}

TEST(ScanMovePlayedFrameTest, AnythingElseIsLeftToTheFullParse) {
  v1::ServerFrame ended;
  ended.mutable_game_event()->set_event_id("1-0");
  ended.mutable_game_event()->mutable_timestamp()->set_seconds(1);
  ended.mutable_game_event()->mutable_game_ended()->set_result(v1::GAME_RESULT_DRAW);
  EXPECT_FALSE(ScanMovePlayedFrame(Printed(ended)).has_value());
  v1::ServerFrame ack;
  ack.mutable_ack();
  EXPECT_FALSE(ScanMovePlayedFrame(Printed(ack)).has_value());
  // An escape in a value: not read by hand.
  EXPECT_FALSE(ScanMovePlayedFrame(Printed(MoveFrame("32\"28", false))).has_value());
  const std::string whole = Printed(MoveFrame("32-28", false));
  ASSERT_TRUE(ScanMovePlayedFrame(whole).has_value());
  for (std::size_t cut : {whole.find("\"ply\""), whole.find("fenAfter"), whole.find("automatic")}) {
    ASSERT_NE(cut, std::string::npos);
    EXPECT_FALSE(ScanMovePlayedFrame(whole.substr(0, cut)).has_value()) << cut;
  }
}

}  // namespace
}  // namespace draughts::loadgen
