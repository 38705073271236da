// Schema decisions that code relies on: optional options keep "unset" apart
// from "off", and the JSON the gateway sends to browsers uses the names the
// web client reads. (How protobuf itself treats one-ofs and JSON is
// protobuf's business, not tested here; what game_state serves is tested
// from outside in tests/contract.)

#include <gmock/gmock.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <string>

#include "draughts/v1/common.pb.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/game.pb.h"

namespace draughts::proto_test {
namespace {

using ::google::protobuf::util::JsonStringToMessage;
using ::google::protobuf::util::MessageToJsonString;
using ::testing::HasSubstr;

// Unset means "the rule set's default" (mandatory capture is on by
// default), so an explicit "off" must survive the wire.
TEST(VariantOptions, KeepUnsetApartFromOff) {
  v1::VariantOptions unset;
  EXPECT_FALSE(unset.has_mandatory_capture());
  EXPECT_FALSE(unset.has_forty_move_rule_in_total());
  EXPECT_FALSE(unset.has_alternate_first_player());
  EXPECT_FALSE(unset.has_show_possible_moves());
  EXPECT_FALSE(unset.has_computer_plays_for_absent());

  v1::VariantOptions off;
  off.set_mandatory_capture(false);
  v1::VariantOptions parsed;
  ASSERT_TRUE(parsed.ParseFromString(off.SerializeAsString()));
  EXPECT_TRUE(parsed.has_mandatory_capture());
  EXPECT_FALSE(parsed.mandatory_capture());
  EXPECT_FALSE(parsed.has_show_possible_moves());

  v1::VariantOptions from_json;
  ASSERT_TRUE(JsonStringToMessage(R"({"mandatoryCapture": false})", &from_json).ok());
  EXPECT_TRUE(from_json.has_mandatory_capture());
  EXPECT_FALSE(from_json.mandatory_capture());
}

v1::GameEvent CaptureEvent() {
  v1::GameEvent event;
  event.set_event_id("1767225600000-0");
  event.set_game_id("g1");
  event.set_ply(7);
  event.set_version(9);
  event.mutable_timestamp()->set_seconds(1767225600);
  auto* move = event.mutable_move_played();
  move->set_color(v1::COLOR_WHITE);
  move->set_notation("28x19x10");
  for (int square : {28, 19, 10}) move->add_path(square);
  for (int square : {23, 14}) move->add_captured(square);
  move->set_fen_after("B:W10,31-50:B1-9,11-13,15-20");
  return event;
}

TEST(GameEventJson, UsesTheNamesTheWebClientReads) {
  std::string json;
  ASSERT_TRUE(MessageToJsonString(CaptureEvent(), &json).ok());
  EXPECT_THAT(json, HasSubstr(R"("eventId":"1767225600000-0")"));
  EXPECT_THAT(json, HasSubstr(R"("timestamp":"2026-01-01T00:00:00Z")"));
  EXPECT_THAT(json, HasSubstr(R"("movePlayed":{)"));
  EXPECT_THAT(json, HasSubstr(R"("color":"COLOR_WHITE")"));
  EXPECT_THAT(json, HasSubstr(R"("path":[28,19,10])"));
  EXPECT_THAT(json, HasSubstr(R"("captured":[23,14])"));
  EXPECT_THAT(json, HasSubstr(R"("fenAfter":)"));
  // int64 is a string in proto3 JSON: clients must not parse it as a number.
  EXPECT_THAT(json, HasSubstr(R"("version":"9")"));
}

TEST(LegalMoveJson, UsesTheNamesTheWebClientReads) {
  v1::ListLegalMovesResponse response;
  response.set_must_capture(true);
  auto* move = response.add_moves();
  move->set_notation("28x19x10");
  move->set_from_square(28);
  move->set_to_square(10);
  std::string json;
  ASSERT_TRUE(MessageToJsonString(response, &json).ok());
  EXPECT_THAT(json, HasSubstr(R"("mustCapture":true)"));
  EXPECT_THAT(json, HasSubstr(R"("fromSquare":28)"));
  EXPECT_THAT(json, HasSubstr(R"("toSquare":10)"));
}

}  // namespace
}  // namespace draughts::proto_test
