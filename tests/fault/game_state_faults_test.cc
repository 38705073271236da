// game_state under load through two faults: a replica killed with SIGKILL
// (clients carry on through the other replica) and Redis killed and
// restarted on its append-only file (live games resume where they were).
// Either way every move a client was told about is in the game's event
// stream exactly once, in order, and nothing else is.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "../integration/game_state/integration_env.h"
#include "absl/strings/str_cat.h"
#include "fault_env.h"
#include "platform/testing/test_env.h"

namespace draughts::fault {
namespace {

using game_state::testing::PeopleGameRequest;
using game_state::testing::ReplicaProcess;
using game_state::testing::StartReplica;
using game_state::testing::UniquePrefix;

// Games played at once, and moves in each (the long versions raise them).
int Games() {
  return EnvInt("DRAUGHTS_FAULT_GAMES", 6);
}
int Plies() {
  return EnvInt("DRAUGHTS_FAULT_PLIES", 60);
}

struct Crowd {
  std::vector<PlayedMoves> games;
  std::vector<int> retries;
};

// Games() clients, each with its own connections, play at once; `fault`
// runs once `moves_before_fault` moves have been acknowledged in all.
Crowd PlayThroughAFault(const std::vector<std::string>& addresses, int moves_before_fault,
                        const std::function<void()>& fault) {
  const int games = Games();
  Crowd crowd;
  crowd.games.resize(static_cast<std::size_t>(games));
  crowd.retries.resize(static_cast<std::size_t>(games));
  std::atomic<int> acknowledged{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < games; ++i) {
    clients.emplace_back([&, i] {
      // Each client starts on a different replica.
      std::vector<std::string> mine = addresses;
      std::rotate(mine.begin(), mine.begin() + (i % static_cast<int>(mine.size())), mine.end());
      RetryingGameClient client(mine, absl::Seconds(45));
      crowd.games[static_cast<std::size_t>(i)] = PlayGame(
          client, PeopleGameRequest("international"), Plies(), [&] { acknowledged.fetch_add(1); });
      crowd.retries[static_cast<std::size_t>(i)] = client.retries();
    });
  }
  const bool reached = WaitFor([&] { return acknowledged.load() >= moves_before_fault; });
  fault();
  for (std::thread& client : clients) client.join();
  EXPECT_TRUE(reached) << "only " << acknowledged.load() << " moves before the fault";
  return crowd;
}

void ExpectEveryAcknowledgedMoveOnce(const Crowd& crowd, const std::string& redis,
                                     const std::string& prefix) {
  int total_retries = 0;
  for (std::size_t i = 0; i < crowd.games.size(); ++i) {
    const PlayedMoves& game = crowd.games[i];
    ASSERT_TRUE(game.failure.ok())
        << "game " << i << ": " << game.failure.error_code() << " " << game.failure.error_message();
    // Played on to the end or to the planned length: the fault stopped no one.
    EXPECT_TRUE(static_cast<int>(game.acknowledged.size()) == Plies() ||
                game.last.result() != v1::GAME_RESULT_ONGOING)
        << game.game_id;
    EXPECT_EQ(game.last.ply(), static_cast<int>(game.acknowledged.size()));
    EXPECT_EQ(
        CompareWithEventStream(redis, absl::StrCat(prefix, "game:{", game.game_id, "}:events"),
                               game.acknowledged),
        "")
        << game.game_id;
    total_retries += crowd.retries[i];
  }
  // The fault was felt (else the test proved nothing).
  EXPECT_GT(total_retries, 0);
}

TEST(GameStateFaults, AReplicaKilledUnderLoadLosesNoAcknowledgedMove) {
  absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(redis.ok()) << redis.status();
  const std::string prefix = UniquePrefix();
  std::vector<std::unique_ptr<ReplicaProcess>> replicas;
  std::vector<std::string> addresses;
  for (int i = 0; i < 2; ++i) {
    auto replica = StartReplica(*redis, prefix);
    ASSERT_TRUE(replica.ok()) << replica.status();
    addresses.push_back((*replica)->address());
    replicas.push_back(*std::move(replica));
  }
  const Crowd crowd = PlayThroughAFault(addresses, Games() * Plies() / 4, [&] {
    replicas[0]->Kill();  // requests in flight on it get UNAVAILABLE
  });
  ExpectEveryAcknowledgedMoveOnce(crowd, *redis, prefix);
}

TEST(GameStateFaults, RedisRestartedOnItsAppendOnlyFileResumesEveryLiveGame) {
  absl::StatusOr<std::string> binary =
      platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status();
  // always: a move is on disk before game_state hears the script's answer,
  // so an acknowledged move survives even a crash of the machine.
  auto redis = AofRedis::Start(*binary, "always");
  ASSERT_TRUE(redis.ok()) << redis.status();
  const std::string prefix = UniquePrefix();
  std::vector<std::unique_ptr<ReplicaProcess>> replicas;
  std::vector<std::string> addresses;
  for (int i = 0; i < 2; ++i) {
    auto replica = StartReplica((*redis)->address(), prefix);
    ASSERT_TRUE(replica.ok()) << replica.status();
    addresses.push_back((*replica)->address());
    replicas.push_back(*std::move(replica));
  }
  const Crowd crowd = PlayThroughAFault(addresses, Games() * Plies() / 4, [&] {
    (*redis)->Kill();  // a crash: no chance to write anything more
    // Down long enough for every client to meet it.
    absl::SleepFor(absl::Milliseconds(EnvInt("DRAUGHTS_FAULT_REDIS_DOWN_MS", 500)));
    ASSERT_TRUE((*redis)->Restart().ok());
  });
  ExpectEveryAcknowledgedMoveOnce(crowd, (*redis)->address(), prefix);
}

}  // namespace
}  // namespace draughts::fault
