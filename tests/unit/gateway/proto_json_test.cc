#include "gateway/proto_json.h"

#include <gtest/gtest.h>

#include "draughts/v1/game.pb.h"

namespace draughts::gateway {
namespace {

TEST(MessageToJsonTest, CanonicalNamesAndDefaultsPrinted) {
  v1::GameState game;
  game.set_game_id("g1");
  game.set_side_to_move(v1::COLOR_WHITE);
  game.set_version(7);
  const std::string json = MessageToJson(game);
  EXPECT_NE(json.find("\"gameId\":\"g1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"sideToMove\":\"COLOR_WHITE\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"version\":\"7\""), std::string::npos) << json;  // int64 as string
  EXPECT_NE(json.find("\"ply\":0"), std::string::npos) << json;          // default printed
  EXPECT_NE(json.find("\"moves\":[]"), std::string::npos) << json;
}

TEST(ParseJsonObjectTest, OnlyObjects) {
  EXPECT_TRUE(ParseJsonObject("{}").ok());
  EXPECT_TRUE(ParseJsonObject("{\"a\":[1,{\"b\":null}]}").ok());
  // protobuf's parser is lenient about unquoted keys and trailing commas
  // ({a:1,}); harmless, since every field is still checked by type.
  for (const char* bad :
       {"", "[]", "1", "\"s\"", "null", "{", "{\"a\":}", "{}}", "\xFF\xFE", "{\"a\":1 \"b\":2}"}) {
    absl::StatusOr<google::protobuf::Struct> parsed = ParseJsonObject(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(FieldAccessTest, TypesAreChecked) {
  google::protobuf::Struct object =
      ParseJsonObject(R"({"s":"x","n":3,"f":2.5,"neg":-1,"big":3e9,"str":"4","nul":null})").value();
  EXPECT_EQ(OptionalStringField(object, "s").value(), "x");
  EXPECT_EQ(OptionalStringField(object, "missing").value(), std::nullopt);
  EXPECT_EQ(OptionalStringField(object, "nul").value(), std::nullopt);
  EXPECT_FALSE(OptionalStringField(object, "n").ok());
  EXPECT_EQ(OptionalNonNegativeIntField(object, "n").value(), 3);
  EXPECT_FALSE(OptionalNonNegativeIntField(object, "f").ok());
  EXPECT_FALSE(OptionalNonNegativeIntField(object, "neg").ok());
  EXPECT_FALSE(OptionalNonNegativeIntField(object, "big").ok());
  EXPECT_FALSE(OptionalNonNegativeIntField(object, "str").ok());
}

}  // namespace
}  // namespace draughts::gateway
