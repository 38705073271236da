// What leaves game-state for other services with each change: a
// ClockUpdate for every change that moves the game on, and the whole game
// in the ResultRecord.
#include <gtest/gtest.h>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

class ClockUpdatesTest : public GameServiceTest {
 protected:
  // The updates written so far for `game_id`.
  std::vector<v1::ClockUpdate> UpdatesOf(const std::string& game_id) {
    std::vector<v1::ClockUpdate> updates;
    for (const v1::ClockUpdate& update : store_.ClockUpdates()) {
      if (update.game_id() == game_id) updates.push_back(update);
    }
    return updates;
  }
  // The last update describes `state` as it is now.
  void ExpectLastUpdateIs(const v1::GameState& state) {
    const std::vector<v1::ClockUpdate> updates = UpdatesOf(state.game_id());
    ASSERT_FALSE(updates.empty());
    const v1::ClockUpdate& last = updates.back();
    EXPECT_EQ(last.game_version(), state.version());
    EXPECT_EQ(last.expected_ply(), state.ply());
    EXPECT_EQ(last.color(), state.side_to_move());
    EXPECT_EQ(last.has_deadline(), state.has_move_deadline());
    EXPECT_EQ(last.deadline().seconds(), state.move_deadline().seconds());
  }
};

TEST_F(ClockUpdatesTest, EveryChangeThatMovesTheGameOnWritesOne) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.mutable_time_per_move()->set_seconds(30);
  const v1::CreateGameResponse created = Create(request);
  const std::string& id = created.game_id();
  ASSERT_EQ(UpdatesOf(id).size(), 1u);
  ExpectLastUpdateIs(created.game());
  const v1::ClockUpdate first = UpdatesOf(id)[0];
  EXPECT_EQ(first.game_version(), 1);
  EXPECT_EQ(first.expected_ply(), 0);
  EXPECT_EQ(first.color(), v1::COLOR_BLACK);
  EXPECT_EQ(first.deadline().seconds(), absl::ToUnixSeconds(now_) + 30);
  ASSERT_EQ(first.human_seats_size(), 2);
  EXPECT_FALSE(first.game_over());

  now_ += absl::Seconds(5);
  Play(created, "11-15");
  ASSERT_EQ(UpdatesOf(id).size(), 2u);
  ExpectLastUpdateIs(Get(id));
  EXPECT_EQ(UpdatesOf(id)[1].deadline().seconds(), absl::ToUnixSeconds(now_) + 30);

  // An automatic move is a move too.
  now_ += absl::Seconds(31);
  {
    grpc::ClientContext context;
    v1::PlayAutomaticMoveRequest automatic;
    automatic.set_game_id(id);
    automatic.set_expected_ply(1);
    automatic.set_color(v1::COLOR_WHITE);
    v1::PlayAutomaticMoveResponse played;
    ASSERT_TRUE(stub_->PlayAutomaticMove(&context, automatic, &played).ok());
    ASSERT_TRUE(played.played());
  }
  ASSERT_EQ(UpdatesOf(id).size(), 3u);
  ExpectLastUpdateIs(Get(id));

  // Changes that do not move the game on leave the deadline alone.
  {
    grpc::ClientContext context;
    v1::OfferDrawRequest offer;
    offer.set_game_id(id);
    offer.set_player_token(created.black_player_token());
    offer.set_expected_ply(2);
    v1::OfferDrawResponse offered;
    ASSERT_TRUE(stub_->OfferDraw(&context, offer, &offered).ok());
  }
  {
    grpc::ClientContext context;
    v1::RecordPresenceRequest presence;
    presence.set_game_id(id);
    presence.set_color(v1::COLOR_WHITE);
    presence.set_connected(true);
    presence.set_idempotency_key("p1");
    v1::RecordPresenceResponse reported;
    ASSERT_TRUE(stub_->RecordPresence(&context, presence, &reported).ok());
  }
  EXPECT_EQ(UpdatesOf(id).size(), 3u);

  // The end: the clock forgets the game.
  {
    grpc::ClientContext context;
    v1::ResignRequest resign;
    resign.set_game_id(id);
    resign.set_player_token(created.white_player_token());
    resign.set_expected_ply(2);
    v1::ResignResponse resigned;
    ASSERT_TRUE(stub_->Resign(&context, resign, &resigned).ok());
  }
  const std::vector<v1::ClockUpdate> updates = UpdatesOf(id);
  ASSERT_EQ(updates.size(), 4u);
  ExpectLastUpdateIs(Get(id));
  EXPECT_TRUE(updates.back().game_over());
  EXPECT_EQ(updates.back().color(), v1::COLOR_UNSPECIFIED);
  EXPECT_FALSE(updates.back().has_deadline());
  // Versions only grow, so the clock can keep the newest.
  for (std::size_t i = 1; i < updates.size(); ++i) {
    EXPECT_GT(updates[i].game_version(), updates[i - 1].game_version());
  }
}

TEST_F(ClockUpdatesTest, AnUndoWritesOneWithTheLowerPly) {
  v1::CreateGameRequest request = BotGame("english", v1::COLOR_WHITE);
  request.mutable_time_per_move()->set_seconds(20);
  const v1::CreateGameResponse created = Create(request);
  const std::string& id = created.game_id();
  const v1::ClockUpdate first = UpdatesOf(id)[0];
  ASSERT_EQ(first.human_seats_size(), 1);  // the bot needs no presence rule
  EXPECT_EQ(first.human_seats(0), v1::COLOR_BLACK);
  Play(created, "11-15");
  grpc::ClientContext context;
  v1::UndoMoveRequest undo;
  undo.set_game_id(id);
  undo.set_player_token(created.black_player_token());
  undo.set_expected_ply(1);
  v1::UndoMoveResponse undone;
  ASSERT_TRUE(stub_->UndoMove(&context, undo, &undone).ok());
  const std::vector<v1::ClockUpdate> updates = UpdatesOf(id);
  ASSERT_EQ(updates.size(), 3u);
  ExpectLastUpdateIs(undone.game());
  EXPECT_EQ(updates[2].expected_ply(), 0);
  EXPECT_GT(updates[2].game_version(), updates[1].game_version());
}

TEST_F(ClockUpdatesTest, WithoutATimeLimitTheUpdateHasNoDeadline) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  ASSERT_EQ(UpdatesOf(created.game_id()).size(), 1u);
  EXPECT_FALSE(UpdatesOf(created.game_id())[0].has_deadline());
  EXPECT_EQ(UpdatesOf(created.game_id())[0].color(), v1::COLOR_WHITE);
}

TEST_F(ClockUpdatesTest, TheResultRecordCarriesTheWholeGame) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W32:B23,24,28");
  request.mutable_time_per_move()->set_seconds(45);
  const v1::CreateGameResponse created = Create(request);
  Play(created, "24-27");  // White has no move left
  const std::vector<v1::ResultRecord> results = store_.Results();
  ASSERT_EQ(results.size(), 1u);
  const v1::ResultRecord& record = results[0];
  const v1::GameState game = Get(created.game_id());
  EXPECT_EQ(record.initial_fen(), "B:W32:B23-24,28");
  ASSERT_EQ(record.moves_size(), 1);
  EXPECT_EQ(record.moves(0), "24-27");
  EXPECT_EQ(record.final_fen(), game.fen());
  EXPECT_NE(record.final_fen(), record.initial_fen());
  EXPECT_EQ(record.time_per_move().seconds(), 45);
  EXPECT_EQ(record.reason(), v1::RESULT_REASON_NO_MOVES);
  EXPECT_EQ(record.ended_by(), v1::COLOR_WHITE);  // the side that could not move
}

TEST_F(ClockUpdatesTest, AResignationNamesWhoResigned) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  Play(created, "32-28");
  grpc::ClientContext context;
  v1::ResignRequest resign;
  resign.set_game_id(created.game_id());
  resign.set_player_token(created.black_player_token());
  resign.set_expected_ply(1);
  v1::ResignResponse resigned;
  ASSERT_TRUE(stub_->Resign(&context, resign, &resigned).ok());
  const std::vector<v1::ResultRecord> results = store_.Results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].ended_by(), v1::COLOR_BLACK);
  EXPECT_FALSE(results[0].has_time_per_move());
  ASSERT_EQ(results[0].moves_size(), 1);
  EXPECT_EQ(results[0].moves(0), "32-28");
}

}  // namespace
}  // namespace draughts::game_state::testing
