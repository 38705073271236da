// A replica's health follows its Redis: NOT_SERVING while Redis is down
// (every call would fail there), SERVING again once Redis is back, with the
// process left running throughout.
#include <gtest/gtest.h>

#include <chrono>

#include "grpc/health/v1/health.grpc.pb.h"
#include "integration_env.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::game_state::testing {
namespace {

using grpc::health::v1::HealthCheckResponse;

HealthCheckResponse::ServingStatus Health(const std::string& address, const std::string& service) {
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  HealthCheckResponse response;
  grpc::Status status = stub->Check(&context, request, &response);
  return status.ok() ? response.status() : HealthCheckResponse::UNKNOWN;
}

// Both the server as a whole and the GameService, as balancers ask either.
bool HealthBecomes(const std::string& address, HealthCheckResponse::ServingStatus want) {
  const absl::Time deadline = absl::Now() + absl::Seconds(15);
  while (absl::Now() < deadline) {
    if (Health(address, "") == want && Health(address, "draughts.v1.GameService") == want) {
      return true;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  return false;
}

TEST(ReplicaReadinessTest, HealthIsNotServingWhileRedisIsDownAndServingWhenItIsBack) {
  absl::StatusOr<std::string> binary =
      platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  auto redis = platform::testing::RedisServerProcess::Start(*binary);
  ASSERT_TRUE(redis.ok()) << redis.status();
  absl::StatusOr<std::unique_ptr<ReplicaProcess>> replica =
      StartReplica((*redis)->address(), UniquePrefix(), {"--readiness-interval=100ms"});
  ASSERT_TRUE(replica.ok()) << replica.status();
  const std::string address = (*replica)->address();
  EXPECT_TRUE(HealthBecomes(address, HealthCheckResponse::SERVING));

  (*redis)->Kill();
  EXPECT_TRUE(HealthBecomes(address, HealthCheckResponse::NOT_SERVING));
  ASSERT_TRUE((*redis)->Restart().ok());
  EXPECT_TRUE(HealthBecomes(address, HealthCheckResponse::SERVING));
  EXPECT_TRUE((*replica)->running());
  // And it serves calls again, not only health checks.
  v1::CreateGameResponse created;
  auto stub = StubFor(address);
  grpc::Status status = CreateGame(*stub, PeopleGameRequest("international"), &created);
  EXPECT_TRUE(status.ok()) << StatusText(status);
}

}  // namespace
}  // namespace draughts::game_state::testing
