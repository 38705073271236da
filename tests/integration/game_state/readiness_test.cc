// A replica's health follows its Redis: NOT_SERVING while Redis is down
// (every call would fail there), SERVING again once Redis is back, with the
// process left running throughout.
#include <gtest/gtest.h>

#include <chrono>

#include "health_client.h"
#include "integration_env.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::game_state::testing {
namespace {

using grpc::health::v1::HealthCheckResponse;

TEST(ReplicaReadinessTest, HealthIsNotServingWhileRedisIsDownAndServingWhenItIsBack) {
  absl::StatusOr<std::string> binary =
      platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  auto redis = platform::testing::RedisServerProcess::Start(*binary);
  ASSERT_TRUE(redis.ok()) << redis.status();
  absl::StatusOr<std::unique_ptr<ReplicaProcess>> replica =
      StartReplica((*redis)->address(), UniquePrefix(), {"--readiness-interval=100ms"});
  ASSERT_TRUE(replica.ok()) << replica.status();
  const int port = (*replica)->port();
  EXPECT_TRUE(platform::testing::HealthBecomes(port, {"draughts.v1.GameService"},
                                               HealthCheckResponse::SERVING, absl::Seconds(15)));

  (*redis)->Kill();
  EXPECT_TRUE(platform::testing::HealthBecomes(
      port, {"draughts.v1.GameService"}, HealthCheckResponse::NOT_SERVING, absl::Seconds(15)));
  ASSERT_TRUE((*redis)->Restart().ok());
  EXPECT_TRUE(platform::testing::HealthBecomes(port, {"draughts.v1.GameService"},
                                               HealthCheckResponse::SERVING, absl::Seconds(15)));
  EXPECT_TRUE((*replica)->running());
  // And it serves calls again, not only health checks.
  v1::CreateGameResponse created;
  auto stub = StubFor((*replica)->address());
  grpc::Status status = CreateGame(*stub, PeopleGameRequest("international"), &created);
  EXPECT_TRUE(status.ok()) << StatusText(status);
}

}  // namespace
}  // namespace draughts::game_state::testing
