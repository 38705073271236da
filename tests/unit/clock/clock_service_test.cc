// ClockService over the in-memory store with a manual time source: the
// documented errors of each call, the game_version order shared with the
// deadlines stream, GetClock's countdown and presence, Heartbeat.
#include "clock/clock_service.h"

#include <gtest/gtest.h>

#include "clock/deadlines_consumer.h"
#include "fake_clock_store.h"
#include "platform/proto_time.h"

namespace draughts::clock::testing {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1800000000);

class ClockServiceTest : public ::testing::Test {
 protected:
  ClockServiceTest() : service_(Deps()) {}

  ClockServiceDeps Deps() {
    ClockServiceDeps deps;
    deps.store = &store_;
    deps.now = [this] { return now_; };
    return deps;
  }

  static v1::ArmDeadlineRequest Arm(int64_t version, int ply, absl::Time deadline) {
    v1::ArmDeadlineRequest request;
    request.set_game_id("g1");
    request.set_game_version(version);
    request.set_expected_ply(ply);
    request.set_color(ply % 2 == 0 ? v1::COLOR_WHITE : v1::COLOR_BLACK);
    *request.mutable_deadline() = platform::ToProtoTime(deadline);
    request.add_human_seats(v1::COLOR_WHITE);
    return request;
  }

  absl::StatusCode ArmCode(const v1::ArmDeadlineRequest& request) {
    return service_.DoArmDeadline(request).code();
  }

  absl::Time now_ = kStart;
  FakeClockStore store_;
  ClockServiceImpl service_;
};

TEST_F(ClockServiceTest, ArmDeadlineRefusesMalformedRequestsAndChangesNothing) {
  v1::ArmDeadlineRequest request = Arm(1, 0, kStart + absl::Seconds(30));
  request.set_game_id("");
  EXPECT_EQ(ArmCode(request), absl::StatusCode::kInvalidArgument);
  request = Arm(1, -1, kStart);
  EXPECT_EQ(ArmCode(request), absl::StatusCode::kInvalidArgument);
  request = Arm(-1, 0, kStart);
  EXPECT_EQ(ArmCode(request), absl::StatusCode::kInvalidArgument);
  request = Arm(1, 0, kStart);
  request.set_color(v1::COLOR_UNSPECIFIED);
  EXPECT_EQ(ArmCode(request), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ArmCode(Arm(1, 0, kStart + absl::Hours(25))), absl::StatusCode::kInvalidArgument);
  request = Arm(1, 0, kStart);
  request.add_human_seats(v1::COLOR_UNSPECIFIED);
  EXPECT_EQ(ArmCode(request), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(store_.games.empty());
}

TEST_F(ClockServiceTest, ArmingFollowsGameVersionsAndTheStreamSharesTheRule) {
  EXPECT_EQ(ArmCode(Arm(5, 3, kStart + absl::Seconds(30))), absl::StatusCode::kOk);
  EXPECT_EQ(ArmCode(Arm(5, 3, kStart + absl::Seconds(30))), absl::StatusCode::kOk) << "a repeat";
  EXPECT_EQ(ArmCode(Arm(4, 2, kStart + absl::Seconds(10))), absl::StatusCode::kAborted);
  EXPECT_EQ(store_.games["g1"].expected_ply, 3);

  // An older update on the stream is old news: OK, nothing changes.
  v1::ClockUpdate late;
  late.set_game_id("g1");
  late.set_game_version(4);
  late.set_expected_ply(2);
  late.set_color(v1::COLOR_WHITE);
  EXPECT_TRUE(ApplyClockUpdate(store_, late, now_, nullptr).ok());
  EXPECT_EQ(store_.games["g1"].expected_ply, 3);
  // The game's end cancels; a late arming after it changes nothing.
  v1::ClockUpdate over;
  over.set_game_id("g1");
  over.set_game_version(7);
  over.set_game_over(true);
  EXPECT_TRUE(ApplyClockUpdate(store_, over, now_, nullptr).ok());
  late.set_game_version(6);
  EXPECT_TRUE(ApplyClockUpdate(store_, late, now_, nullptr).ok());
  EXPECT_EQ(store_.games.count("g1"), 0u);
  // A stream entry no game-state writes is reported malformed.
  v1::ClockUpdate broken;
  broken.set_game_id("g2");
  EXPECT_EQ(ApplyClockUpdate(store_, broken, now_, nullptr).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(ClockServiceTest, GetClockCountsDownAndNeverBelowZero) {
  v1::GetClockRequest request;
  request.set_game_id("g1");
  v1::GetClockResponse response;
  EXPECT_EQ(service_.DoGetClock(request, response).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(service_.DoArmDeadline(Arm(1, 0, kStart + absl::Seconds(30))).ok());
  now_ += absl::Milliseconds(10500);
  ASSERT_TRUE(service_.DoGetClock(request, response).ok());
  EXPECT_TRUE(response.armed());
  EXPECT_EQ(platform::FromProtoDuration(response.remaining()), absl::Milliseconds(19500));
  EXPECT_EQ(platform::FromProtoTime(response.server_time()), now_);
  ASSERT_EQ(response.presence_size(), 1);
  EXPECT_FALSE(response.presence(0).connected());
  EXPECT_EQ(platform::FromProtoTime(response.presence(0).abandon_deadline()),
            kStart + absl::Minutes(2));
  now_ += absl::Minutes(1);
  ASSERT_TRUE(service_.DoGetClock(request, response).ok());
  EXPECT_EQ(platform::FromProtoDuration(response.remaining()), absl::ZeroDuration());

  request.set_game_id("");
  EXPECT_EQ(service_.DoGetClock(request, response).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ClockServiceTest, HeartbeatChecksItsRequestAndTellsTheInterval) {
  ASSERT_TRUE(service_.DoArmDeadline(Arm(1, 0, kStart + absl::Seconds(30))).ok());
  v1::HeartbeatRequest beat;
  beat.set_game_id("g1");
  beat.set_color(v1::COLOR_WHITE);
  beat.set_connection_id("tab");
  v1::HeartbeatResponse response;
  ASSERT_TRUE(service_.DoHeartbeat(beat, response).ok());
  EXPECT_TRUE(response.connected());
  EXPECT_EQ(platform::FromProtoDuration(response.interval()), absl::Seconds(10));
  beat.set_closing(true);
  ASSERT_TRUE(service_.DoHeartbeat(beat, response).ok());
  EXPECT_FALSE(response.connected());

  v1::HeartbeatRequest bad = beat;
  bad.set_connection_id("");
  EXPECT_EQ(service_.DoHeartbeat(bad, response).code(), absl::StatusCode::kInvalidArgument);
  bad = beat;
  bad.set_color(v1::COLOR_UNSPECIFIED);
  EXPECT_EQ(service_.DoHeartbeat(bad, response).code(), absl::StatusCode::kInvalidArgument);
  bad = beat;
  bad.set_color(v1::COLOR_BLACK);  // not a human seat of this game
  EXPECT_EQ(service_.DoHeartbeat(bad, response).code(), absl::StatusCode::kFailedPrecondition);
  bad = beat;
  bad.set_game_id("unknown");
  EXPECT_EQ(service_.DoHeartbeat(bad, response).code(), absl::StatusCode::kNotFound);
}

TEST_F(ClockServiceTest, CancelForgetsTheGameAndARepeatIsOk) {
  ASSERT_TRUE(service_.DoArmDeadline(Arm(1, 0, kStart + absl::Seconds(30))).ok());
  v1::CancelDeadlineRequest cancel;
  cancel.set_game_id("g1");
  cancel.set_expected_ply(0);
  EXPECT_TRUE(service_.DoCancelDeadline(cancel).ok());
  EXPECT_TRUE(service_.DoCancelDeadline(cancel).ok());
  EXPECT_EQ(store_.games.count("g1"), 0u);
  cancel.set_expected_ply(-1);
  EXPECT_EQ(service_.DoCancelDeadline(cancel).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draughts::clock::testing
