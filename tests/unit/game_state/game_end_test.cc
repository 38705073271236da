// How games end: resignation, draw offers, draw rules, no pieces, no moves;
// the result record for the rating service.
#include <gtest/gtest.h>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using ::grpc::StatusCode;

class GameEndTest : public GameServiceTest {
 protected:
  grpc::Status Resign(const std::string& id, const std::string& token, int ply,
                      v1::ResignResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::ResignRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::ResignResponse ignored;
    return stub_->Resign(&context, request, out != nullptr ? out : &ignored);
  }
  grpc::Status Offer(const std::string& id, const std::string& token, int ply,
                     v1::OfferDrawResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::OfferDrawRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::OfferDrawResponse ignored;
    return stub_->OfferDraw(&context, request, out != nullptr ? out : &ignored);
  }
  grpc::Status Respond(const std::string& id, const std::string& token, int ply, bool accept,
                       v1::RespondDrawResponse* out = nullptr) {
    grpc::ClientContext context;
    v1::RespondDrawRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    request.set_accept(accept);
    v1::RespondDrawResponse ignored;
    return stub_->RespondDraw(&context, request, out != nullptr ? out : &ignored);
  }
  v1::GameEvent LastEvent(const std::string& id) { return store_.Events(id).back(); }
};

TEST_F(GameEndTest, ResignationLosesAndIsRecordedOnce) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
  request.set_rated(true);
  const v1::CreateGameResponse created = Create(request);
  Play(created, "32-28");
  // Black resigns on White's... no, on its own turn; either turn is fine.
  v1::ResignResponse response;
  ASSERT_TRUE(Resign(created.game_id(), created.black_player_token(), 1, &response).ok());
  EXPECT_EQ(response.game().result(), v1::GAME_RESULT_WHITE_WINS);
  EXPECT_EQ(response.game().reason(), v1::RESULT_REASON_RESIGNATION);
  const v1::GameEvent ended = LastEvent(created.game_id());
  ASSERT_TRUE(ended.has_game_ended());
  EXPECT_EQ(ended.game_ended().by(), v1::COLOR_BLACK);
  EXPECT_EQ(ended.game_ended().final_fen(), response.game().fen());

  ASSERT_EQ(store_.Results().size(), 1u);
  const v1::ResultRecord record = store_.Results()[0];
  EXPECT_EQ(record.game_id(), created.game_id());
  EXPECT_TRUE(record.rated());
  EXPECT_EQ(record.result(), v1::GAME_RESULT_WHITE_WINS);
  EXPECT_EQ(record.reason(), v1::RESULT_REASON_RESIGNATION);
  EXPECT_EQ(record.ply(), 1);
  EXPECT_EQ(record.white().player_id(), "alice");

  // A retry is OK and changes nothing; the winner cannot resign any more.
  const v1::GameState before = Get(created.game_id());
  EXPECT_TRUE(Resign(created.game_id(), created.black_player_token(), 1).ok());
  ExpectRefused(Resign(created.game_id(), created.white_player_token(), 1),
                StatusCode::FAILED_PRECONDITION, "over", created.game_id(), before);
  EXPECT_EQ(store_.Results().size(), 1u);
}

TEST_F(GameEndTest, MetricsCountGamesMovesEndsAndRaces) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  Create(PeopleGame());
  Play(created, "32-28");
  {
    grpc::ClientContext context;
    v1::PlayAutomaticMoveRequest request;
    request.set_game_id(created.game_id());
    request.set_expected_ply(1);
    request.set_color(v1::COLOR_BLACK);
    v1::PlayAutomaticMoveResponse response;
    ASSERT_TRUE(stub_->PlayAutomaticMove(&context, request, &response).ok());
  }
  // A version race (an offer lands between load and commit) is counted.
  store_.BeforeNextCommit(
      [&] { ASSERT_TRUE(Offer(created.game_id(), created.black_player_token(), 2).ok()); });
  ASSERT_TRUE(Resign(created.game_id(), created.white_player_token(), 2).ok());
  prometheus::Registry& r = *registry_;
  EXPECT_EQ(MetricValue(r, "draughts_games_created_total"), 2);
  EXPECT_EQ(MetricValue(r, "draughts_moves_total", {{"automatic", "false"}}), 1);
  EXPECT_EQ(MetricValue(r, "draughts_moves_total", {{"automatic", "true"}}), 1);
  EXPECT_EQ(MetricValue(r, "draughts_games_ended_total", {{"reason", "resignation"}}), 1);
  EXPECT_EQ(MetricValue(r, "draughts_game_version_races_lost_total"), 1);
  EXPECT_EQ(MetricValue(r, "draughts_game_watch_streams"), 0);
}

TEST_F(GameEndTest, ResignRefusals) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const v1::GameState before = Get(created.game_id());
  ExpectRefused(Resign(created.game_id(), "", 0), StatusCode::INVALID_ARGUMENT, "player_token",
                created.game_id(), before);
  ExpectRefused(Resign(created.game_id(), created.white_player_token(), 2), StatusCode::ABORTED,
                "stale", created.game_id(), before);
  ExpectRefused(Resign(created.game_id(), created.white_player_token(), -2),
                StatusCode::INVALID_ARGUMENT, "negative", created.game_id(), before);
  EXPECT_EQ(Resign("nosuchgame", created.white_player_token(), 0).error_code(),
            StatusCode::NOT_FOUND);
}

TEST_F(GameEndTest, DrawOfferAccepted) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  v1::OfferDrawResponse offered;
  ASSERT_TRUE(Offer(id, created.white_player_token(), 0, &offered).ok());
  EXPECT_FALSE(offered.declined());
  EXPECT_EQ(offered.game().draw_offered_by(), v1::COLOR_WHITE);
  EXPECT_TRUE(LastEvent(id).has_draw_offered());
  // A retry of the offer is OK; the offerer cannot answer it.
  EXPECT_TRUE(Offer(id, created.white_player_token(), 0).ok());
  const v1::GameState pending = Get(id);
  ExpectRefused(Respond(id, created.white_player_token(), 0, true), StatusCode::FAILED_PRECONDITION,
                "your own", id, pending);
  ExpectRefused(Offer(id, created.black_player_token(), 0), StatusCode::FAILED_PRECONDITION,
                "RespondDraw", id, pending);
  v1::RespondDrawResponse answered;
  ASSERT_TRUE(Respond(id, created.black_player_token(), 0, true, &answered).ok());
  EXPECT_EQ(answered.game().result(), v1::GAME_RESULT_DRAW);
  EXPECT_EQ(answered.game().reason(), v1::RESULT_REASON_DRAW_AGREED);
  EXPECT_EQ(LastEvent(id).game_ended().by(), v1::COLOR_BLACK);
  EXPECT_TRUE(Respond(id, created.black_player_token(), 0, true).ok());  // retry
  ASSERT_EQ(store_.Results().size(), 1u);
  EXPECT_EQ(store_.Results()[0].reason(), v1::RESULT_REASON_DRAW_AGREED);
}

TEST_F(GameEndTest, DrawOfferDeclinedThenNotAgainAtThatPly) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  ASSERT_TRUE(Offer(id, created.white_player_token(), 0).ok());
  ASSERT_TRUE(Respond(id, created.black_player_token(), 0, false).ok());
  EXPECT_EQ(LastEvent(id).draw_declined().by(), v1::COLOR_BLACK);
  EXPECT_FALSE(LastEvent(id).draw_declined().lapsed());
  const v1::GameState declined = Get(id);
  EXPECT_EQ(declined.draw_offered_by(), v1::COLOR_UNSPECIFIED);
  EXPECT_TRUE(Respond(id, created.black_player_token(), 0, false).ok());  // retry
  ExpectRefused(Offer(id, created.white_player_token(), 0), StatusCode::FAILED_PRECONDITION,
                "refused", id, declined);
  ExpectRefused(Respond(id, created.black_player_token(), 0, true), StatusCode::FAILED_PRECONDITION,
                "no draw offer", id, declined);
  // Once a move is played, the offer may come again.
  Play(created, "32-28");
  EXPECT_TRUE(Offer(id, created.white_player_token(), 1).ok());
}

TEST_F(GameEndTest, AnOfferLapsesWhenTheOpponentPlaysOn) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& id = created.game_id();
  Play(created, "32-28");
  ASSERT_TRUE(Offer(id, created.white_player_token(), 1).ok());
  const v1::SubmitMoveResponse moved = Play(created, "19-23");
  EXPECT_EQ(moved.game().draw_offered_by(), v1::COLOR_UNSPECIFIED);
  const v1::GameEvent lapsed = LastEvent(id);
  EXPECT_TRUE(lapsed.draw_declined().lapsed());
  EXPECT_EQ(lapsed.draw_declined().by(), v1::COLOR_BLACK);
  // The offerer's own move keeps an offer standing.
  ASSERT_TRUE(Offer(id, created.white_player_token(), 2).ok());
  EXPECT_EQ(Play(created, "28x19").game().draw_offered_by(), v1::COLOR_WHITE);
}

TEST_F(GameEndTest, ABotRefusesADrawAtOnce) {
  const v1::CreateGameResponse created = Create(BotGame("english", v1::COLOR_WHITE));
  const std::string& id = created.game_id();
  v1::OfferDrawResponse response;
  ASSERT_TRUE(Offer(id, created.black_player_token(), 0, &response).ok());
  EXPECT_TRUE(response.declined());
  EXPECT_EQ(response.game().draw_offered_by(), v1::COLOR_UNSPECIFIED);
  const std::vector<v1::GameEvent> events = store_.Events(id);
  ASSERT_GE(events.size(), 3u);
  EXPECT_TRUE(events[events.size() - 2].has_draw_offered());
  EXPECT_EQ(events.back().draw_declined().by(), v1::COLOR_WHITE);
  EXPECT_EQ(Offer(id, created.black_player_token(), 0).error_code(),
            StatusCode::FAILED_PRECONDITION);
}

TEST_F(GameEndTest, ThreefoldRepetitionDraws) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("W:WK29:BK4");
  const v1::CreateGameResponse created = Create(request);
  const std::vector<std::string> shuffle = {"29-25", "4-8", "25-29", "8-4"};
  v1::SubmitMoveResponse last;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& move : shuffle) last = Play(created, move);
  }
  EXPECT_EQ(last.game().result(), v1::GAME_RESULT_DRAW);
  EXPECT_EQ(last.game().reason(), v1::RESULT_REASON_THREEFOLD_REPETITION);
  EXPECT_EQ(last.game().ply(), 8);
  const v1::GameEvent ended = store_.Events(created.game_id()).back();
  EXPECT_EQ(ended.game_ended().by(), v1::COLOR_UNSPECIFIED);
  EXPECT_EQ(ended.ply(), 8);
}

TEST_F(GameEndTest, MoveLimitOptionDraws) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_options()->set_move_limit(2);
  const v1::CreateGameResponse created = Create(request);
  Play(created, "32-28");
  const v1::SubmitMoveResponse last = Play(created, "19-23");
  EXPECT_EQ(last.game().result(), v1::GAME_RESULT_DRAW);
  EXPECT_EQ(last.game().reason(), v1::RESULT_REASON_MOVE_LIMIT);
}

TEST_F(GameEndTest, APlayerWhoCannotMoveLoses) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W32:B23,24,28");
  const v1::CreateGameResponse created = Create(request);
  const v1::SubmitMoveResponse last = Play(created, "24-27");
  EXPECT_EQ(last.game().result(), v1::GAME_RESULT_BLACK_WINS);
  EXPECT_EQ(last.game().reason(), v1::RESULT_REASON_NO_MOVES);
  EXPECT_EQ(store_.Events(created.game_id()).back().game_ended().by(), v1::COLOR_WHITE);
}

}  // namespace
}  // namespace draughts::game_state::testing
