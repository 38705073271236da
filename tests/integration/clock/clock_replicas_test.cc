// Several clock replicas on one Redis: a replica killed with deadlines
// pending leaves them to the others (on time), a claim taken by a replica
// that died fires again once its lease ends, two replicas never fire one
// deadline twice, and the store applies a batch of stream changes in one
// pipeline exactly as one by one.
#include "clock/redis_clock_store.h"
#include "clock_env.h"
#include "platform/proto_time.h"
#include "platform/redis_pool.h"

namespace draughts::clock::testing {
namespace {

class ClockReplicasTest : public ClockIntegrationTest {
 protected:
  // The first automatic move's lateness after the game's first deadline.
  absl::Duration FirstMoveLateness(const std::string& id) {
    absl::Time deadline = absl::InfinitePast();
    for (const v1::GameEvent& event : WatchUntilFirstMove(id)) {
      if (event.has_game_created()) {
        deadline = platform::FromProtoTime(event.game_created().move_deadline());
      }
      if (event.has_move_played()) return platform::FromProtoTime(event.timestamp()) - deadline;
    }
    return absl::InfiniteDuration();
  }

  std::vector<v1::GameEvent> WatchUntilFirstMove(const std::string& id) {
    v1::WatchGameRequest request;
    request.set_game_id(id);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    auto reader = game_->WatchGame(&context, request);
    std::vector<v1::GameEvent> events;
    v1::GameEvent event;
    while (reader->Read(&event)) {
      events.push_back(event);
      if (event.has_move_played()) {
        context.TryCancel();
        break;
      }
    }
    reader->Finish().IgnoreError();
    return events;
  }

  bool Tracked(v1::ClockService::Stub& clock, const std::string& id) {
    grpc::ClientContext context;
    v1::GetClockRequest request;
    request.set_game_id(id);
    v1::GetClockResponse response;
    return clock.GetClock(&context, request, &response).ok() && response.armed();
  }
};

TEST_F(ClockReplicasTest, AKilledReplicasPendingDeadlinesFireOnTimeFromAnother) {
  ClockReplica doomed = StartClock();
  ClockReplica survivor = StartClock();
  ASSERT_NE(doomed.process, nullptr);
  ASSERT_NE(survivor.process, nullptr);
  std::vector<std::string> games;
  for (int i = 0; i < 8; ++i) games.push_back(CreateGame(absl::Seconds(2)).game().game_id());
  for (const std::string& id : games)
    ASSERT_TRUE(WaitFor([&] { return Tracked(*survivor.stub, id); }));
  doomed.process->Kill();
  for (const std::string& id : games) {
    const absl::Duration late = FirstMoveLateness(id);
    EXPECT_GE(late, absl::ZeroDuration()) << id;
    EXPECT_LT(late, absl::Seconds(1)) << id;
  }
  // The survivor counts a move once game_state's answer is back, which may
  // be just after the move's event was read above.
  EXPECT_TRUE(WaitFor([&] {
    return Counter(survivor.metrics_port, "draughts_clock_automatic_moves_total",
                   "outcome=\"played\"") >= 8;
  }));
}

TEST_F(ClockReplicasTest, AClaimOfADeadReplicaFiresAgainWhenItsLeaseEnds) {
  ClockReplica clock = StartClock();
  ASSERT_NE(clock.process, nullptr);
  const v1::CreateGameResponse created = CreateGame(absl::Seconds(2));
  const std::string id = created.game().game_id();
  ASSERT_TRUE(WaitFor([&] { return Tracked(*clock.stub, id); }));
  const absl::Time deadline = platform::FromProtoTime(created.game().move_deadline());

  // A replica claims the deadline (as if due) and dies before firing it.
  auto options = platform::ParseRedisAddress(redis_address_);
  ASSERT_TRUE(options.ok());
  platform::RedisPool pool(*options, 1);
  RedisClockStore dead(&pool, {.key_prefix = prefix_});
  const absl::Duration lease = absl::Milliseconds(1500);
  // (The clock rounds deadlines up to the millisecond.)
  const absl::Time due = deadline + absl::Milliseconds(1);
  auto claimed = dead.ClaimDue(due, due + lease, 100);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  int ours = 0;
  for (const DueTimer& timer : *claimed) {
    if (timer.game_id == id && timer.kind == DueTimer::Kind::kMove) ++ours;
  }
  ASSERT_EQ(ours, 1);

  // Not at the deadline, but when the lease ends, and then within 1 s.
  const absl::Duration late = FirstMoveLateness(id);
  EXPECT_GE(late, lease - absl::Milliseconds(50));
  EXPECT_LT(late, lease + absl::Seconds(1));
}

TEST_F(ClockReplicasTest, AMoveTimerWhoseGameRecordLostItsFieldsDoesNotStopOtherClaims) {
  auto options = platform::ParseRedisAddress(redis_address_);
  ASSERT_TRUE(options.ok());
  platform::RedisPool pool(*options, 1);
  RedisClockStore store(&pool, {.key_prefix = prefix_});
  const absl::Time now = absl::Now();
  for (const std::string id : {"broken-game", "sound-game"}) {
    ArmCommand arm;
    arm.game_id = id;
    arm.game_version = 3;
    arm.expected_ply = 2;
    arm.color = v1::COLOR_WHITE;
    arm.deadline = now - absl::Seconds(1);
    arm.human_seats = {v1::COLOR_WHITE, v1::COLOR_BLACK};
    ASSERT_TRUE(store.Arm(arm, now - absl::Seconds(2)).ok());
  }
  // Only the version left in the broken game's record (as a tombstone
  // written over a claim leaves it), its move timer still due.
  {
    auto lease = pool.Borrow();
    ASSERT_TRUE(lease.ok());
    ASSERT_TRUE((*lease)->Command({"HDEL", store.GameKey("broken-game"), "ply", "color"}).ok());
  }

  auto claimed = store.ClaimDue(now, now + absl::Seconds(5), 100);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  bool sound = false;
  for (const DueTimer& timer : *claimed) {
    if (timer.game_id == "sound-game" && timer.kind == DueTimer::Kind::kMove) {
      sound = true;
      EXPECT_EQ(timer.game_version, 3);
      EXPECT_EQ(timer.expected_ply, 2);
      EXPECT_EQ(timer.color, v1::COLOR_WHITE);
    }
  }
  EXPECT_TRUE(sound) << "the sound game's deadline was not claimed";
}

TEST_F(ClockReplicasTest, TwoReplicasNeverFireOneDeadlineTwice) {
  ClockReplica a = StartClock();
  ClockReplica b = StartClock();
  ASSERT_NE(a.process, nullptr);
  ASSERT_NE(b.process, nullptr);
  constexpr int kGames = 30;
  std::vector<std::string> games;
  for (int i = 0; i < kGames; ++i) games.push_back(CreateGame(absl::Seconds(1)).game().game_id());
  // Each game: five automatic moves (the third in a row by White ends it).
  for (const std::string& id : games) {
    ASSERT_TRUE(WaitFor([&] { return GetGame(id).result() != v1::GAME_RESULT_ONGOING; },
                        absl::Seconds(40)));
  }
  int automatic = 0;
  for (const std::string& id : games) {
    const v1::GameState game = GetGame(id);
    EXPECT_EQ(game.reason(), v1::RESULT_REASON_TIMEOUTS);
    automatic += game.ply();
  }
  EXPECT_EQ(automatic, 5 * kGames);
  auto total = [&](const std::string& name, const std::string& labels) {
    return Counter(a.metrics_port, name, labels) + Counter(b.metrics_port, name, labels);
  };
  // One call per deadline: a second firing would be answered not_played.
  // A call is counted once game_state's answer is back, which may follow
  // the game's end.
  EXPECT_TRUE(WaitFor([&] {
    return total("draughts_clock_automatic_moves_total", "outcome=\"played\"") == automatic;
  }));
  EXPECT_EQ(total("draughts_clock_automatic_moves_total", "outcome=\"not_played\""), 0);
  EXPECT_EQ(total("draughts_clock_timers_fired_total", "kind=\"move\""), automatic);
}

TEST_F(ClockReplicasTest, ProductionValuesAreCheckedAtStart) {
  // A shortened 2-minute rule needs the test flag.
  auto refused = ServerProcess::Start(
      CLOCK_BINARY, {"--redis=" + redis_address_, "--metrics-port=-1", "--abandon-after=30s"},
      absl::Seconds(10));
  EXPECT_FALSE(refused.ok());
  auto lease = ServerProcess::Start(CLOCK_BINARY,
                                    {"--redis=" + redis_address_, "--metrics-port=-1",
                                     "--claim-lease=2s", "--game-state-timeout=5s"},
                                    absl::Seconds(10));
  EXPECT_FALSE(lease.ok());
}

// The deadlines consumer applies a batch of stream entries in one pipeline:
// each change must come out exactly as Arm or Cancel called one at a time.
TEST_F(ClockReplicasTest, ABatchOfChangesInOnePipelineEndsAsArmAndCancelOneByOne) {
  auto options = platform::ParseRedisAddress(redis_address_);
  ASSERT_TRUE(options.ok());
  platform::RedisPool pool(*options, 1);
  RedisClockStore store(&pool, {.key_prefix = prefix_});
  const absl::Time now = absl::Now();
  auto arm = [&](const std::string& id, int64_t version) {
    ArmCommand command;
    command.game_id = id;
    command.game_version = version;
    command.expected_ply = static_cast<int>(version);
    command.color = version % 2 == 0 ? v1::COLOR_WHITE : v1::COLOR_BLACK;
    command.deadline = now + absl::Seconds(version);
    command.human_seats = {v1::COLOR_WHITE};
    return DeadlineChange{id, version, command};
  };
  auto cancel = [](const std::string& id, int64_t version) {
    return DeadlineChange{id, version, std::nullopt};
  };
  auto changes_of = [&](const std::string& game, const std::string& other) {
    return std::vector<DeadlineChange>{arm(game, 5), arm(other, 1),   arm(game, 5),
                                       arm(game, 4), arm(game, 6),    cancel(game, 7),
                                       arm(game, 6), cancel(game, 3), arm(other, 2)};
  };
  auto pipelined = store.ApplyChanges(changes_of("piped", "piped-other"), now);
  ASSERT_TRUE(pipelined.ok()) << pipelined.status();
  auto one_by_one = store.ClockStore::ApplyChanges(changes_of("single", "single-other"), now);
  ASSERT_TRUE(one_by_one.ok()) << one_by_one.status();

  const std::vector<ChangeOutcome> expected = {
      ChangeOutcome::kArmed, ChangeOutcome::kArmed,     ChangeOutcome::kRepeated,
      ChangeOutcome::kStale, ChangeOutcome::kArmed,     ChangeOutcome::kCancelled,
      ChangeOutcome::kStale, ChangeOutcome::kCancelled, ChangeOutcome::kArmed};
  ASSERT_EQ(pipelined->size(), expected.size());
  ASSERT_EQ(one_by_one->size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_TRUE((*pipelined)[i].ok()) << i << ": " << (*pipelined)[i].status();
    ASSERT_TRUE((*one_by_one)[i].ok()) << i << ": " << (*one_by_one)[i].status();
    EXPECT_EQ(*(*pipelined)[i], expected[i]) << "change " << i;
    EXPECT_EQ(*(*one_by_one)[i], expected[i]) << "change " << i;
  }
  // The same state: the game over, the other armed at its second version.
  for (const std::string& prefix : {std::string("piped"), std::string("single")}) {
    auto game = store.Load(prefix);
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_FALSE(game->has_value()) << prefix << " is over";
    auto other = store.Load(prefix + "-other");
    ASSERT_TRUE(other.ok()) << other.status();
    ASSERT_TRUE(other->has_value());
    EXPECT_EQ((*other)->game_version, 2);
    EXPECT_EQ((*other)->expected_ply, 2);
  }
}

}  // namespace
}  // namespace draughts::clock::testing
