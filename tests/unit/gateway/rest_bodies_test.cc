#include "gateway/rest_bodies.h"

#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

std::string StringField(const google::protobuf::Struct& object, const std::string& name) {
  auto it = object.fields().find(name);
  return it == object.fields().end() ? "" : it->second.string_value();
}

TEST(SessionJsonTest, ShowsThePublicIdNeverTheSecret) {
  const Session session{NewSessionId(), NewPublicPlayerId(), "Guest-1234"};
  const std::string json = SessionJson(session);
  const google::protobuf::Struct body = ParseJsonObject(json).value();
  EXPECT_EQ(StringField(body, "playerId"), session.player_id);
  EXPECT_EQ(StringField(body, "guestName"), "Guest-1234");
  EXPECT_EQ(StringField(body, "displayName"), "Guest-1234");
  EXPECT_EQ(StringField(body, "kind"), "guest");
  EXPECT_FALSE(absl::StrContains(json, session.id)) << json;
  EXPECT_EQ(body.fields_size(), 4);
}

TEST(SessionJsonTest, APersonShowsNameAndKindNeverTheAccountNumber) {
  const Session session{NewSessionId(), NewAccountPlayerId(), "Anna_B", 987654321};
  const std::string json = SessionJson(session);
  const google::protobuf::Struct body = ParseJsonObject(json).value();
  EXPECT_EQ(StringField(body, "playerId"), session.player_id);
  EXPECT_EQ(StringField(body, "displayName"), "Anna_B");
  EXPECT_EQ(StringField(body, "kind"), "person");
  EXPECT_FALSE(body.fields().contains("guestName")) << json;
  EXPECT_FALSE(absl::StrContains(json, session.id)) << json;
  EXPECT_FALSE(absl::StrContains(json, "987654321")) << json;
}

TEST(CreatedGameJsonTest, GameSeatsAndState) {
  v1::CreateGameResponse created;
  created.set_game_id("g1");
  created.set_white_player_token("tw");
  created.set_black_player_token("tb\"x");
  created.mutable_game()->set_variant("english");
  const google::protobuf::Struct body = ParseJsonObject(CreatedGameJson(created)).value();
  EXPECT_EQ(StringField(body, "gameId"), "g1");
  const google::protobuf::Struct& seats = body.fields().at("seats").struct_value();
  EXPECT_EQ(StringField(seats, "white"), "tw");
  EXPECT_EQ(StringField(seats, "black"), "tb\"x");
  EXPECT_EQ(StringField(body.fields().at("game").struct_value(), "variant"), "english");
}

TEST(GameViewJsonTest, TheSnapshotCarriesTheSameFields) {
  GameView view;
  view.game.set_game_id("g2");
  view.moves.set_must_capture(true);
  view.moves.add_moves()->set_notation("32-28");
  const google::protobuf::Struct rest = ParseJsonObject(GameViewJson(view)).value();
  google::protobuf::Struct frame = ParseJsonObject(SnapshotFrame(view)).value();
  EXPECT_EQ(StringField(frame, "type"), "snapshot");
  frame.mutable_fields()->erase("type");
  EXPECT_EQ(frame.DebugString(), rest.DebugString());
  EXPECT_TRUE(rest.fields().at("mustCapture").bool_value());
  EXPECT_EQ(rest.fields().at("legalMoves").list_value().values_size(), 1);
}

TEST(PdnContentDispositionTest, AnAttachmentNamedAfterTheGame) {
  EXPECT_EQ(PdnContentDisposition("g-12_ab"), "attachment; filename=\"draughts-g-12_ab.pdn\"");
}

TEST(PdnContentDispositionTest, DropsEverythingButIdCharacters) {
  EXPECT_EQ(PdnContentDisposition("a\"b\r\nSet-Cookie: x/../c;d"),
            "attachment; filename=\"draughts-abSet-Cookiexcd.pdn\"");
}

TEST(ArchivedGameJsonTest, TheRecordAndThePdn) {
  v1::ArchivedGame game;
  game.mutable_record()->set_game_id("g1");
  game.mutable_record()->mutable_white()->set_display_name("Ann");
  game.mutable_record()->add_moves("32-28");
  game.set_pdn("[Result \"2-0\"]\n\n1. 32-28 2-0\n");
  const google::protobuf::Struct json = ParseJsonObject(ArchivedGameJson(game)).value();
  EXPECT_EQ(json.fields().at("record").struct_value().fields().at("gameId").string_value(), "g1");
  EXPECT_EQ(json.fields()
                .at("record")
                .struct_value()
                .fields()
                .at("white")
                .struct_value()
                .fields()
                .at("displayName")
                .string_value(),
            "Ann");
  EXPECT_EQ(json.fields().at("pdn").string_value(), game.pdn());
}

}  // namespace
}  // namespace draughts::gateway
