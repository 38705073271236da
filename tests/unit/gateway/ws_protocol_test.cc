#include "gateway/ws_protocol.h"

#include <gtest/gtest.h>

#include <random>

#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

TEST(ParseClientActionTest, Move) {
  ClientAction action =
      ParseClientAction(
          R"({"requestId":"r1","action":"move","token":"t","move":"32-28","expectedPly":4})")
          .value();
  EXPECT_EQ(action.kind, ActionKind::kMove);
  EXPECT_EQ(action.request_id, "r1");
  EXPECT_EQ(action.token, "t");
  EXPECT_EQ(action.move, "32-28");
  EXPECT_EQ(action.expected_ply, 4);
}

TEST(ParseClientActionTest, OtherActions) {
  EXPECT_EQ(ParseClientAction(R"({"action":"ping"})").value().kind, ActionKind::kPing);
  EXPECT_EQ(ParseClientAction(R"({"action":"resign","token":"t","expectedPly":0})")->kind,
            ActionKind::kResign);
  EXPECT_EQ(ParseClientAction(R"({"action":"offerDraw","token":"t","expectedPly":1})")->kind,
            ActionKind::kOfferDraw);
  EXPECT_EQ(ParseClientAction(R"({"action":"acceptDraw","token":"t","expectedPly":1})")->kind,
            ActionKind::kAcceptDraw);
  EXPECT_EQ(ParseClientAction(R"({"action":"declineDraw","token":"t","expectedPly":1})")->kind,
            ActionKind::kDeclineDraw);
}

TEST(ParseClientActionTest, MissingOrWrongFieldsAreInvalidArgument) {
  for (const char* bad : {
           R"({})",
           R"({"action":""})",
           R"({"action":"fly"})",
           R"({"action":1})",
           R"({"action":"move","expectedPly":0,"move":"1-2"})",
           R"({"action":"move","token":"t","move":"1-2"})",
           R"({"action":"move","token":"t","expectedPly":0})",
           R"({"action":"move","token":"t","expectedPly":-1,"move":"1-2"})",
           R"({"action":"move","token":"t","expectedPly":1.5,"move":"1-2"})",
           R"({"action":"move","token":"t","expectedPly":"1","move":"1-2"})",
           R"({"action":"move","token":7,"expectedPly":1,"move":"1-2"})",
           R"({"action":"resign","token":"t"})",
           R"({"requestId":5,"action":"ping"})",
       }) {
    absl::StatusOr<ClientAction> action = ParseClientAction(bad);
    ASSERT_FALSE(action.ok()) << bad;
    EXPECT_EQ(action.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(ParseClientActionTest, RequestIdSurvivesForTheErrorFrame) {
  std::string id;
  EXPECT_FALSE(ParseClientAction(R"({"requestId":"r9","action":"move"})", &id).ok());
  EXPECT_EQ(id, "r9");
  std::string long_id;
  EXPECT_FALSE(ParseClientAction(
                   R"({"requestId":")" + std::string(65, 'x') + R"(","action":"ping"})", &long_id)
                   .ok());
  EXPECT_TRUE(long_id.empty());
}

TEST(ParseClientActionTest, GarbageNeverCrashes) {
  std::mt19937 random(42);
  const std::string seed =
      R"({"requestId":"r1","action":"move","token":"t","move":"32-28","expectedPly":4})";
  for (int i = 0; i < 3000; ++i) {
    std::string frame = seed;
    const int edits = 1 + static_cast<int>(random() % 6);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % (frame.size() + 1);
      switch (random() % 3) {
        case 0:
          frame.insert(at, 1, static_cast<char>(random() % 256));
          break;
        case 1:
          if (at < frame.size()) frame.erase(at, 1);
          break;
        default:
          if (at < frame.size()) frame[at] = static_cast<char>(random() % 256);
      }
    }
    absl::StatusOr<ClientAction> action = ParseClientAction(frame);
    if (!action.ok()) {
      EXPECT_EQ(action.status().code(), absl::StatusCode::kInvalidArgument) << frame;
    }
  }
  EXPECT_FALSE(ParseClientAction(std::string(10000, '{')).ok());
  EXPECT_FALSE(ParseClientAction(std::string("\0\0\0", 3)).ok());
}

TEST(FramesTest, ShapesParseAsJson) {
  GameView view;
  view.game.set_game_id("g");
  view.game.set_ply(3);
  v1::LegalMove* move = view.moves.add_moves();
  move->set_notation("28x19x10");
  move->add_path(28);
  move->add_path(19);
  move->add_path(10);
  view.moves.set_must_capture(true);
  google::protobuf::Struct snapshot = ParseJsonObject(SnapshotFrame(view)).value();
  EXPECT_EQ(snapshot.fields().at("type").string_value(), "snapshot");
  EXPECT_EQ(snapshot.fields().at("game").struct_value().fields().at("ply").number_value(), 3);
  EXPECT_EQ(snapshot.fields().at("legalMoves").list_value().values_size(), 1);
  EXPECT_TRUE(snapshot.fields().at("mustCapture").bool_value());

  google::protobuf::Struct error =
      ParseJsonObject(ErrorFrame("r\"1", absl::FailedPreconditionError("not your turn"))).value();
  EXPECT_EQ(error.fields().at("type").string_value(), "error");
  EXPECT_EQ(error.fields().at("requestId").string_value(), "r\"1");
  EXPECT_EQ(error.fields().at("error").struct_value().fields().at("code").string_value(),
            "FAILED_PRECONDITION");

  EXPECT_EQ(ParseJsonObject(AckFrame("r2")).value().fields().at("type").string_value(), "ack");
  EXPECT_EQ(ParseJsonObject(PongFrame()).value().fields().at("type").string_value(), "pong");

  v1::GameEvent event;
  event.set_event_id("5-1");
  event.mutable_move_played()->set_notation("32-28");
  google::protobuf::Struct event_frame = ParseJsonObject(EventFrame(event)).value();
  EXPECT_EQ(event_frame.fields().at("event").struct_value().fields().at("eventId").string_value(),
            "5-1");
  EXPECT_TRUE(EventChangesSnapshot(event));
  v1::GameEvent chat;
  chat.mutable_chat_notice()->set_text("hi");
  EXPECT_FALSE(EventChangesSnapshot(chat));
}

TEST(ParseClientActionTest, FieldsTheMessageDoesNotDeclareAreRefused) {
  std::string id;
  absl::StatusOr<ClientAction> action =
      ParseClientAction(R"({"requestId":"r7","action":"ping","extra":1})", &id);
  ASSERT_FALSE(action.ok());
  EXPECT_EQ(action.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(action.status().message().find("GameSocketClientFrame"), std::string_view::npos)
      << action.status().message();
  EXPECT_EQ(id, "r7");
}

TEST(FramesTest, EnvelopesKeepTheirExactShapes) {
  EXPECT_EQ(AckFrame("r2"), R"({"type":"ack","requestId":"r2"})");
  EXPECT_EQ(PongFrame(), R"({"type":"pong"})");
  EXPECT_EQ(ErrorFrame("", absl::AbortedError("stale")),
            R"({"type":"error","requestId":"","error":{"code":"ABORTED","message":"stale"}})");
  // A message that is not UTF-8 still prints as JSON (its bytes replaced).
  const std::string bad = ErrorFrame("r", absl::InvalidArgumentError("unknown action \"\xC3\""));
  EXPECT_TRUE(ParseJsonObject(bad).ok()) << bad;
  EXPECT_NE(bad.find("\"code\":\"INVALID_ARGUMENT\""), std::string::npos) << bad;
}

}  // namespace
}  // namespace draughts::gateway
