// Who may act: an acting call without a player_token is a malformed request
// (INVALID_ARGUMENT, checked before the game is even looked up), a token
// that is there but belongs to no seat of the game is PERMISSION_DENIED.
// One test per acting call, so none of them drifts from game.proto.
#include <string>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using grpc::StatusCode;

class TokenChecksTest : public GameServiceTest {
 protected:
  // Each acting call with the given token, at the game's current ply.
  grpc::Status Resign(const std::string& id, const std::string& token, int ply) {
    grpc::ClientContext context;
    v1::ResignRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::ResignResponse response;
    return stub_->Resign(&context, request, &response);
  }
  grpc::Status Offer(const std::string& id, const std::string& token, int ply) {
    grpc::ClientContext context;
    v1::OfferDrawRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::OfferDrawResponse response;
    return stub_->OfferDraw(&context, request, &response);
  }
  grpc::Status Respond(const std::string& id, const std::string& token, int ply) {
    grpc::ClientContext context;
    v1::RespondDrawRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    request.set_accept(true);
    v1::RespondDrawResponse response;
    return stub_->RespondDraw(&context, request, &response);
  }
  grpc::Status Undo(const std::string& id, const std::string& token, int ply) {
    grpc::ClientContext context;
    v1::UndoMoveRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::UndoMoveResponse response;
    return stub_->UndoMove(&context, request, &response);
  }
};

constexpr char kEmpty[] = "player_token is empty";

TEST_F(TokenChecksTest, SubmitMoveWithoutTokenIsMalformed) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  const v1::GameState before = Get(id);
  ExpectRefused(Move(id, "", "32-28", 0), StatusCode::INVALID_ARGUMENT, kEmpty, id, before);
  // Malformed comes before the game is looked up.
  EXPECT_EQ(Move("nosuchgame", "", "32-28", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  ExpectRefused(Move(id, "not-a-token", "32-28", 0), StatusCode::PERMISSION_DENIED,
                "not a player token", id, before);
  EXPECT_EQ(store_.commits(), 0);
}

TEST_F(TokenChecksTest, ResignWithoutTokenIsMalformed) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  const v1::GameState before = Get(id);
  ExpectRefused(Resign(id, "", 0), StatusCode::INVALID_ARGUMENT, kEmpty, id, before);
  EXPECT_EQ(Resign("nosuchgame", "", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  ExpectRefused(Resign(id, "not-a-token", 0), StatusCode::PERMISSION_DENIED, "not a player token",
                id, before);
  EXPECT_EQ(store_.commits(), 0);
}

TEST_F(TokenChecksTest, OfferDrawWithoutTokenIsMalformed) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  const v1::GameState before = Get(id);
  ExpectRefused(Offer(id, "", 0), StatusCode::INVALID_ARGUMENT, kEmpty, id, before);
  EXPECT_EQ(Offer("nosuchgame", "", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  ExpectRefused(Offer(id, "not-a-token", 0), StatusCode::PERMISSION_DENIED, "not a player token",
                id, before);
  EXPECT_EQ(store_.commits(), 0);
}

TEST_F(TokenChecksTest, RespondDrawWithoutTokenIsMalformed) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  // A pending offer, so that only the missing token stands in the way.
  ASSERT_TRUE(Offer(id, created.white_player_token(), 0).ok());
  const v1::GameState before = Get(id);
  ExpectRefused(Respond(id, "", 0), StatusCode::INVALID_ARGUMENT, kEmpty, id, before);
  EXPECT_EQ(Respond("nosuchgame", "", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  ExpectRefused(Respond(id, "not-a-token", 0), StatusCode::PERMISSION_DENIED, "not a player token",
                id, before);
  EXPECT_TRUE(Respond(id, created.black_player_token(), 0).ok());
}

TEST_F(TokenChecksTest, UndoMoveWithoutTokenIsMalformed) {
  const v1::CreateGameResponse created = Create(BotGame("english", v1::COLOR_WHITE));
  const std::string& id = created.game_id();
  Play(created, "11-15");
  const v1::GameState before = Get(id);
  ExpectRefused(Undo(id, "", 1), StatusCode::INVALID_ARGUMENT, kEmpty, id, before);
  EXPECT_EQ(Undo("nosuchgame", "", 1).error_code(), StatusCode::INVALID_ARGUMENT);
  ExpectRefused(Undo(id, "not-a-token", 1), StatusCode::PERMISSION_DENIED, "not a player token", id,
                before);
  EXPECT_TRUE(Undo(id, created.black_player_token(), 1).ok());
}

}  // namespace
}  // namespace draughts::game_state::testing
