// ListLegalMoves and SubmitMove: the happy paths, every refusal (with the
// game left unchanged), retries and races.
#include <gtest/gtest.h>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using ::grpc::StatusCode;

v1::ListLegalMovesResponse ListMoves(v1::GameService::Stub& stub, const std::string& game_id,
                                     int page_size = 0, const std::string& token = "",
                                     grpc::Status* status_out = nullptr) {
  grpc::ClientContext context;
  v1::ListLegalMovesRequest request;
  request.set_game_id(game_id);
  request.set_page_size(page_size);
  request.set_page_token(token);
  v1::ListLegalMovesResponse response;
  grpc::Status status = stub.ListLegalMoves(&context, request, &response);
  if (status_out != nullptr) {
    *status_out = status;
  } else {
    EXPECT_TRUE(status.ok()) << StatusText(status);
  }
  return response;
}

TEST_F(GameServiceTest, ListLegalMovesOfTheStartPosition) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const v1::ListLegalMovesResponse moves = ListMoves(*stub_, created.game_id());
  // White's nine opening moves (31-26, 31-27, ..., 35-30).
  EXPECT_EQ(moves.moves_size(), 9);
  EXPECT_FALSE(moves.must_capture());
  EXPECT_EQ(moves.side_to_move(), v1::COLOR_WHITE);
  EXPECT_EQ(moves.ply(), 0);
  bool found = false;
  for (const v1::LegalMove& move : moves.moves()) {
    EXPECT_EQ(move.path_size(), 2);
    EXPECT_EQ(move.captured_size(), 0);
    if (move.notation() == "32-28") {
      found = true;
      EXPECT_EQ(move.from_square(), 32);
      EXPECT_EQ(move.to_square(), 28);
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(GameServiceTest, ListLegalMovesShowsCapturesAndWhatTheyTake) {
  v1::CreateGameRequest request = PeopleGame("english");
  // Black on 6 can take 9 then 17, or 10 then 18, both landing on 22.
  request.set_initial_fen("B:W9,10,17,18:B6");
  const v1::CreateGameResponse created = Create(request);
  const v1::ListLegalMovesResponse moves = ListMoves(*stub_, created.game_id());
  EXPECT_TRUE(moves.must_capture());
  ASSERT_EQ(moves.moves_size(), 2);
  for (const v1::LegalMove& move : moves.moves()) {
    EXPECT_EQ(move.from_square(), 6);
    EXPECT_EQ(move.to_square(), 22);
    ASSERT_EQ(move.path_size(), 3);
    ASSERT_EQ(move.captured_size(), 2);
    EXPECT_EQ(move.notation(), move.path(1) == 13 ? "6x13x22" : "6x15x22");
    EXPECT_EQ(move.captured(0), move.path(1) == 13 ? 9 : 10);
  }
}

TEST_F(GameServiceTest, ListLegalMovesPages) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  std::set<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    const v1::ListLegalMovesResponse page = ListMoves(*stub_, created.game_id(), 4, token);
    EXPECT_LE(page.moves_size(), 4);
    for (const v1::LegalMove& move : page.moves()) seen.insert(move.notation());
    token = page.next_page_token();
    ++pages;
  } while (!token.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen.size(), 9u);

  // A token from before a move is stale; a made-up one is malformed.
  const std::string first_token = ListMoves(*stub_, created.game_id(), 4).next_page_token();
  Play(created, "32-28");
  grpc::Status status;
  ListMoves(*stub_, created.game_id(), 4, first_token, &status);
  EXPECT_EQ(status.error_code(), StatusCode::ABORTED) << StatusText(status);
  ListMoves(*stub_, created.game_id(), 4, "garbage!", &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  ListMoves(*stub_, created.game_id(), -1, "", &status);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  ListMoves(*stub_, "nosuchgame", 0, "", &status);
  EXPECT_EQ(status.error_code(), StatusCode::NOT_FOUND);
}

TEST_F(GameServiceTest, SubmitMovePlaysAndPublishes) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_time_per_move()->set_seconds(30);
  const v1::CreateGameResponse created = Create(request);
  now_ += absl::Seconds(5);
  v1::SubmitMoveResponse response;
  ASSERT_TRUE(Move(created.game_id(), created.white_player_token(), "32-28", 0, &response).ok());
  const v1::GameState& game = response.game();
  EXPECT_EQ(game.ply(), 1);
  EXPECT_EQ(game.version(), 2);
  ASSERT_EQ(game.moves_size(), 1);
  EXPECT_EQ(game.moves(0), "32-28");
  EXPECT_EQ(game.fen(), "B:W28,31,33-50:B1-20");
  EXPECT_EQ(game.side_to_move(), v1::COLOR_BLACK);
  EXPECT_EQ(response.move().notation(), "32-28");
  EXPECT_EQ(response.move().color(), v1::COLOR_WHITE);
  EXPECT_EQ(response.move().fen_after(), game.fen());
  EXPECT_FALSE(response.move().automatic());
  // The next deadline: now + time per move, in the state and the event.
  const int64_t due = absl::ToUnixSeconds(now_) + 30;
  EXPECT_EQ(game.move_deadline().seconds(), due);
  EXPECT_EQ(response.move().next_move_deadline().seconds(), due);
  EXPECT_EQ(game.last_move().notation(), "32-28");

  const std::vector<v1::GameEvent> events = store_.Events(created.game_id());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_TRUE(events[1].has_move_played());
  EXPECT_EQ(events[1].ply(), 1);
  EXPECT_EQ(events[1].version(), 2);
  EXPECT_EQ(events[1].event_id(), game.last_event_id());
  EXPECT_EQ(events[1].move_played().next_move_deadline().seconds(), due);
}

TEST_F(GameServiceTest, SubmitMoveRefusalsLeaveTheGameUnchanged) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  const std::string& white = created.white_player_token();
  const std::string& black = created.black_player_token();
  const v1::GameState before = Get(id);

  ExpectRefused(Move(id, "forged-token", "32-28", 0), StatusCode::PERMISSION_DENIED, "player_token",
                id, before);
  ExpectRefused(Move(id, "", "32-28", 0), StatusCode::INVALID_ARGUMENT, "spectators", id, before);
  ExpectRefused(Move(id, black, "17-21", 0), StatusCode::FAILED_PRECONDITION, "not your turn", id,
                before);
  ExpectRefused(Move(id, white, "32-23", 0), StatusCode::INVALID_ARGUMENT, "not legal", id, before);
  ExpectRefused(Move(id, white, "32-28", 3), StatusCode::ABORTED, "stale", id, before);
  ExpectRefused(Move(id, white, "hello", 0), StatusCode::INVALID_ARGUMENT, "not notation", id,
                before);
  ExpectRefused(Move(id, white, "", 0), StatusCode::INVALID_ARGUMENT, "empty", id, before);
  ExpectRefused(Move(id, white, std::string(201, '1'), 0), StatusCode::INVALID_ARGUMENT,
                "longer than 200", id, before);
  ExpectRefused(Move(id, white, "32-28", -1), StatusCode::INVALID_ARGUMENT, "negative", id, before);
  ExpectRefused(Move(id, white, "99-94", 0), StatusCode::INVALID_ARGUMENT, "not on the board", id,
                before);
  EXPECT_EQ(Move("nosuchgame", white, "32-28", 0).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(Move("", white, "32-28", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  // A token of another game is not a token of this one.
  const v1::CreateGameResponse other = Create(PeopleGame("international"));
  ExpectRefused(Move(id, other.white_player_token(), "32-28", 0), StatusCode::PERMISSION_DENIED,
                "player_token", id, before);
  EXPECT_EQ(store_.commits(), 0);
}

TEST_F(GameServiceTest, ChecksComeInTheDocumentedOrder) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  // Malformed beats unknown game; unknown game beats a wrong token; a wrong
  // token beats a stale ply; a stale ply beats not-your-turn.
  EXPECT_EQ(Move("bad id!", "x", "hello", 0).error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Move("nosuchgame", "x", "32-28", 5).error_code(), StatusCode::NOT_FOUND);
  EXPECT_EQ(Move(id, "x", "32-28", 5).error_code(), StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Move(id, created.black_player_token(), "17-21", 5).error_code(), StatusCode::ABORTED);
}

TEST_F(GameServiceTest, AmbiguousShortFormListsTheCandidates) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W9,10,17,18:B6");
  const v1::CreateGameResponse created = Create(request);
  const v1::GameState before = Get(created.game_id());
  const grpc::Status status = Move(created.game_id(), created.black_player_token(), "6x22", 0);
  ExpectRefused(status, StatusCode::INVALID_ARGUMENT, "ambiguous", created.game_id(), before);
  EXPECT_NE(status.error_message().find("6x13x22"), std::string::npos);
  EXPECT_NE(status.error_message().find("6x15x22"), std::string::npos);
  // The full path is accepted, and so is a capture that must be played.
  v1::SubmitMoveResponse response;
  ASSERT_TRUE(Move(created.game_id(), created.black_player_token(), "6x15x22", 0, &response).ok());
  EXPECT_EQ(response.move().notation(), "6x15x22");
  EXPECT_EQ(response.move().captured_size(), 2);
  EXPECT_EQ(response.game().black().pieces_captured(), 2);
}

TEST_F(GameServiceTest, CaptureIsCompulsory) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W10,30:B6,8");  // 6x15 is on
  const v1::CreateGameResponse created = Create(request);
  const v1::GameState before = Get(created.game_id());
  ExpectRefused(Move(created.game_id(), created.black_player_token(), "8-12", 0),
                StatusCode::INVALID_ARGUMENT, "compulsory", created.game_id(), before);
  // The short form of the only capture is fine.
  EXPECT_TRUE(Move(created.game_id(), created.black_player_token(), "6x15", 0).ok());
}

TEST_F(GameServiceTest, RetriedMoveIsAcknowledgedOnce) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  v1::SubmitMoveResponse first;
  ASSERT_TRUE(Move(created.game_id(), created.white_player_token(), "32-28", 0, &first).ok());
  v1::SubmitMoveResponse again;
  grpc::Status status = Move(created.game_id(), created.white_player_token(), "32-28", 0, &again);
  ASSERT_TRUE(status.ok()) << StatusText(status);
  EXPECT_EQ(again.game().ply(), 1);
  EXPECT_EQ(again.game().version(), first.game().version());
  EXPECT_EQ(again.move().notation(), "32-28");
  EXPECT_EQ(store_.Events(created.game_id()).size(), 2u);
  // Another move at the old ply is not a retry: stale.
  EXPECT_EQ(Move(created.game_id(), created.white_player_token(), "31-27", 0).error_code(),
            StatusCode::ABORTED);
  // Nor is the same move sent by the other player.
  EXPECT_NE(Move(created.game_id(), created.black_player_token(), "32-28", 0).error_code(),
            StatusCode::OK);
}

TEST_F(GameServiceTest, RaceLostOnThePlyIsAborted) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string id = created.game_id();
  // While this request is between load and commit, another replica plays
  // white's move first.
  store_.BeforeNextCommit(
      [&] { ASSERT_TRUE(Move(id, created.white_player_token(), "31-27", 0).ok()); });
  const grpc::Status status = Move(id, created.white_player_token(), "32-28", 0);
  EXPECT_EQ(status.error_code(), StatusCode::ABORTED) << StatusText(status);
  const v1::GameState game = Get(id);
  ASSERT_EQ(game.moves_size(), 1);
  EXPECT_EQ(game.moves(0), "31-27");
}

TEST_F(GameServiceTest, RaceLostOnlyOnTheVersionIsRetriedInside) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string id = created.game_id();
  // Black offers a draw between white's load and commit: white's move is
  // still valid and goes through (the offer then lapses? no: white is the
  // addressee and plays on, so it does).
  store_.BeforeNextCommit([&] {
    grpc::ClientContext context;
    v1::OfferDrawRequest offer;
    offer.set_game_id(id);
    offer.set_player_token(created.black_player_token());
    offer.set_expected_ply(0);
    v1::OfferDrawResponse response;
    ASSERT_TRUE(stub_->OfferDraw(&context, offer, &response).ok());
  });
  v1::SubmitMoveResponse response;
  const grpc::Status status = Move(id, created.white_player_token(), "32-28", 0, &response);
  ASSERT_TRUE(status.ok()) << StatusText(status);
  EXPECT_EQ(response.game().ply(), 1);
  EXPECT_EQ(response.game().draw_offered_by(), v1::COLOR_UNSPECIFIED);
  const std::vector<v1::GameEvent> events = store_.Events(id);
  ASSERT_EQ(events.size(), 4u);  // created, offered, moved, offer lapsed
  EXPECT_TRUE(events[1].has_draw_offered());
  EXPECT_TRUE(events[2].has_move_played());
  EXPECT_TRUE(events[3].draw_declined().lapsed());
}

TEST_F(GameServiceTest, MovesAfterTheEndAreRefused) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W10:B6");  // 6x15 takes White's last piece
  const v1::CreateGameResponse created = Create(request);
  v1::SubmitMoveResponse response;
  ASSERT_TRUE(Move(created.game_id(), created.black_player_token(), "6x15", 0, &response).ok());
  EXPECT_EQ(response.game().result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(response.game().reason(), v1::RESULT_REASON_NO_PIECES);
  EXPECT_EQ(response.game().side_to_move(), v1::COLOR_UNSPECIFIED);
  const v1::GameState before = Get(created.game_id());
  ExpectRefused(Move(created.game_id(), created.white_player_token(), "1-5", 1),
                StatusCode::FAILED_PRECONDITION, "over", created.game_id(), before);
  // No legal moves for a finished game.
  grpc::ClientContext context;
  v1::ListLegalMovesRequest list;
  list.set_game_id(created.game_id());
  v1::ListLegalMovesResponse moves;
  ASSERT_TRUE(stub_->ListLegalMoves(&context, list, &moves).ok());
  EXPECT_EQ(moves.moves_size(), 0);
}

}  // namespace
}  // namespace draughts::game_state::testing
