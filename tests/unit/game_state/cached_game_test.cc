// A replica decides a change on the copy of the game it committed last,
// without reading it first; the store's version check keeps that safe when
// another replica changed the game in between. These tests play two
// replicas (two service instances, each with its own cache) over one store.
#include <string>

#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using grpc::StatusCode;

class CachedGameTest : public GameServiceTest {
 protected:
  void SetUp() override {
    GameServiceTest::SetUp();
    GameServiceDeps deps;
    deps.store = &store_;
    deps.feed = &store_;
    deps.sealer = &sealer_;
    deps.now = [this] { return now_; };
    deps.random_index = [](std::size_t) { return std::size_t{0}; };
    other_ = std::make_unique<GameServiceImpl>(std::move(deps), options_);
    // SubmitMove is a callback-API method: called through a server of its own.
    grpc::ServerBuilder builder;
    builder.RegisterService(other_.get());
    other_server_ = builder.BuildAndStart();
    ASSERT_NE(other_server_, nullptr);
    other_stub_ =
        v1::GameService::NewStub(other_server_->InProcessChannel(grpc::ChannelArguments()));
  }

  // Calls on the other replica (the synchronous handlers ignore the
  // context and are called directly).
  grpc::Status OtherMove(const std::string& id, const std::string& token, const std::string& move,
                         int ply) {
    grpc::ClientContext context;
    v1::SubmitMoveRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_move(move);
    request.set_expected_ply(ply);
    v1::SubmitMoveResponse response;
    return other_stub_->SubmitMove(&context, request, &response);
  }
  grpc::Status OtherOffer(const std::string& id, const std::string& token, int ply) {
    grpc::ServerContext context;
    v1::OfferDrawRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::OfferDrawResponse response;
    return other_->OfferDraw(&context, &request, &response);
  }
  grpc::Status OtherUndo(const std::string& id, const std::string& token, int ply) {
    grpc::ServerContext context;
    v1::UndoMoveRequest request;
    request.set_game_id(id);
    request.set_player_token(token);
    request.set_expected_ply(ply);
    v1::UndoMoveResponse response;
    return other_->UndoMove(&context, &request, &response);
  }

  v1::CreateGameResponse SamePlyOtherPosition();

  // GetGame with min_version on this replica (`other` false) or the other.
  grpc::Status GetAtLeast(bool other, const std::string& id, int64_t min_version,
                          v1::GetGameResponse& response) {
    grpc::ClientContext context;
    v1::GetGameRequest request;
    request.set_game_id(id);
    request.set_include_legal_moves(true);
    request.set_min_version(min_version);
    return (other ? other_stub_ : stub_)->GetGame(&context, request, &response);
  }

  // Destroyed in reverse order: the server stops before the service goes.
  std::unique_ptr<GameServiceImpl> other_;
  std::unique_ptr<grpc::Server> other_server_;
  std::unique_ptr<v1::GameService::Stub> other_stub_;
};

TEST_F(CachedGameTest, TheNextChangeOnTheSameReplicaReadsNothing) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  const int before_first = store_.loads();
  // This replica has not seen the game yet: it reads it.
  ASSERT_TRUE(Move(id, created.white_player_token(), "32-28", 0).ok());
  EXPECT_EQ(store_.loads(), before_first + 1);
  const int loads = store_.loads();
  const int commits = store_.commits();
  ASSERT_TRUE(Move(id, created.black_player_token(), "19-23", 1).ok());
  v1::SubmitMoveResponse third;
  ASSERT_TRUE(Move(id, created.white_player_token(), "28x19", 2, &third).ok());
  EXPECT_EQ(store_.loads(), loads);
  EXPECT_EQ(store_.commits(), commits + 2);
  EXPECT_EQ(third.game().ply(), 3);
  EXPECT_EQ(third.game().version(), 4);
  EXPECT_EQ(third.move().captured_size(), 1);
  // What was answered is what is stored, event id included.
  const v1::GameState stored = Get(id);
  EXPECT_EQ(stored.SerializeAsString(), third.game().SerializeAsString());
  EXPECT_EQ(stored.last_event_id(), store_.Events(id).back().event_id());
}

TEST_F(CachedGameTest, AMoveMadeOnAnotherReplicaIsReadBeforeDeciding) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  Play(created, "32-28");
  ASSERT_TRUE(OtherMove(id, created.black_player_token(), "19-23", 1).ok());
  const int loads = store_.loads();
  // This replica's copy is at ply 1; the game is at ply 2.
  v1::SubmitMoveResponse moved;
  ASSERT_TRUE(Move(id, created.white_player_token(), "28x19", 2, &moved).ok());
  EXPECT_EQ(store_.loads(), loads + 1);
  EXPECT_EQ(moved.game().ply(), 3);
  ASSERT_EQ(moved.game().moves_size(), 3);
  EXPECT_EQ(moved.game().moves(1), "19-23");
  // And a stale ply is still refused as such.
  const v1::GameState before = Get(id);
  ExpectRefused(Move(id, created.black_player_token(), "17-22", 2), StatusCode::ABORTED, "stale",
                id, before);
}

TEST_F(CachedGameTest, AStaleCopyAtTheSamePlyLosesOnTheVersionAndIsDecidedAgain) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  Play(created, "32-28");
  // The other replica changes the game without moving: same ply, new version.
  ASSERT_TRUE(OtherOffer(id, created.white_player_token(), 1).ok());
  const int loads = store_.loads();
  v1::SubmitMoveResponse response;
  const grpc::Status status = Move(id, created.black_player_token(), "19-23", 1, &response);
  ASSERT_TRUE(status.ok()) << StatusText(status);
  // The refused commit handed back the stored game: no read was needed.
  EXPECT_EQ(store_.loads(), loads);
  EXPECT_EQ(MetricValue(*registry_, "draughts_game_version_races_lost_total"), 1);
  // Black, the addressee, played on: the offer lapsed with the move.
  EXPECT_EQ(response.game().ply(), 2);
  EXPECT_EQ(response.game().draw_offered_by(), v1::COLOR_UNSPECIFIED);
  const std::vector<v1::GameEvent> events = store_.Events(id);
  ASSERT_EQ(events.size(), 5u);  // created, moved, offered, moved, lapsed
  EXPECT_TRUE(events[2].has_draw_offered());
  EXPECT_TRUE(events[3].has_move_played());
  EXPECT_TRUE(events[4].draw_declined().lapsed());
}

// English, the bot plays White: this replica plays 11-15 22-18 and keeps
// that copy; the other replica takes both back and plays 10-14 22-17, so
// the game is at ply 2 again in another position.
v1::CreateGameResponse CachedGameTest::SamePlyOtherPosition() {
  const v1::CreateGameResponse created = Create(BotGame("english", v1::COLOR_WHITE));
  const std::string& id = created.game_id();
  const std::string& person = created.black_player_token();
  const std::string& bot = created.white_player_token();
  EXPECT_TRUE(Move(id, person, "11-15", 0).ok());
  EXPECT_TRUE(Move(id, bot, "22-18", 1).ok());
  EXPECT_TRUE(OtherUndo(id, person, 2).ok());
  EXPECT_TRUE(OtherMove(id, person, "10-14", 0).ok());
  EXPECT_TRUE(OtherMove(id, bot, "22-17", 1).ok());
  return created;
}

TEST_F(CachedGameTest, AMoveIllegalOnlyInAStaleCopyIsAccepted) {
  const v1::CreateGameResponse created = SamePlyOtherPosition();
  // 11-15 is no move in this replica's copy (11 is empty there and 15x22 is
  // compulsory) but is one in the game as stored.
  v1::SubmitMoveResponse response;
  const grpc::Status status =
      Move(created.game_id(), created.black_player_token(), "11-15", 2, &response);
  ASSERT_TRUE(status.ok()) << StatusText(status);
  EXPECT_EQ(response.game().ply(), 3);
  ASSERT_EQ(response.game().moves_size(), 3);
  EXPECT_EQ(response.game().moves(0), "10-14");
  EXPECT_EQ(response.game().moves(2), "11-15");
}

TEST_F(CachedGameTest, AMoveLegalOnlyInAStaleCopyIsRefused) {
  const v1::CreateGameResponse created = SamePlyOtherPosition();
  const v1::GameState before = Get(created.game_id());
  // 15x22 is the compulsory capture in this replica's copy; in the game as
  // stored there is no piece on 15.
  ExpectRefused(Move(created.game_id(), created.black_player_token(), "15x22", 2),
                StatusCode::INVALID_ARGUMENT, "", created.game_id(), before);
  EXPECT_EQ(MetricValue(*registry_, "draughts_game_version_races_lost_total"), 1);
}

TEST_F(CachedGameTest, GetGameForAVersionThisReplicaCommittedReadsNothing) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  ASSERT_TRUE(Move(id, created.white_player_token(), "32-28", 0).ok());
  const int64_t version = Get(id).version();
  const int loads = store_.loads();
  v1::GetGameResponse got;
  ASSERT_TRUE(GetAtLeast(false, id, version, got).ok());
  EXPECT_EQ(store_.loads(), loads) << "answered from the replica's copy";
  EXPECT_EQ(got.game().version(), version);
  EXPECT_EQ(got.game().ply(), 1);
  EXPECT_EQ(got.legal_moves().ply(), 1);
  EXPECT_GT(got.legal_moves().moves_size(), 0);
  // An older version asked: the copy (newer) will do.
  ASSERT_TRUE(GetAtLeast(false, id, version - 1, got).ok());
  EXPECT_EQ(store_.loads(), loads);
  // No minimum: the game as stored, read.
  ASSERT_TRUE(GetAtLeast(false, id, 0, got).ok());
  EXPECT_EQ(store_.loads(), loads + 1);
  EXPECT_EQ(got.game().version(), version);
}

TEST_F(CachedGameTest, GetGameForAVersionAnotherReplicaCommittedReadsTheStore) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  const std::string& id = created.game_id();
  ASSERT_TRUE(Move(id, created.white_player_token(), "32-28", 0).ok());
  ASSERT_TRUE(OtherMove(id, created.black_player_token(), "19-23", 1).ok());
  const int64_t newest = Get(id).version();
  const int loads = store_.loads();
  // This replica's copy is one move behind: not good enough, so it reads.
  v1::GetGameResponse got;
  ASSERT_TRUE(GetAtLeast(false, id, newest, got).ok());
  EXPECT_EQ(store_.loads(), loads + 1);
  EXPECT_EQ(got.game().version(), newest);
  EXPECT_EQ(got.game().ply(), 2);
  EXPECT_EQ(got.legal_moves().ply(), 2);
  // The replica that committed it answers from its copy.
  ASSERT_TRUE(GetAtLeast(true, id, newest, got).ok());
  EXPECT_EQ(store_.loads(), loads + 1);
  EXPECT_EQ(got.game().version(), newest);
}

TEST_F(CachedGameTest, GetGameRefusesANegativeMinVersion) {
  const v1::CreateGameResponse created = Create(PeopleGame("international"));
  v1::GetGameResponse got;
  EXPECT_EQ(GetAtLeast(false, created.game_id(), -1, got).error_code(),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(GetAtLeast(false, "no-such-game", 5, got).error_code(), StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace draughts::game_state::testing
