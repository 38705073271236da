// Readiness probes against real servers: a private redis-server killed and
// restarted (DRAUGHTS_TEST_REDIS_SERVER) flips a served health status, and
// the PostgreSQL probe answers through a real pool (DRAUGHTS_TEST_PG).
#include "platform/readiness.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "health_client.h"
#include "pg_test_env.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"
#include "platform/testing/echo_service.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using grpc::health::v1::HealthCheckResponse;

TEST(RedisReadinessTest, HealthIsNotServingWhileRedisIsDownAndServingWhenItIsBack) {
  auto binary = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(binary.ok()) << binary.status().message();
  auto redis = platform::testing::RedisServerProcess::Start(*binary);
  ASSERT_TRUE(redis.ok()) << redis.status();
  RedisOptions redis_options;
  redis_options.port = (*redis)->port();
  redis_options.connect_timeout = absl::Milliseconds(300);
  redis_options.command_timeout = absl::Milliseconds(500);
  RedisPool pool(redis_options, 2);

  platform::testing::EchoServiceImpl echo;
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  options.readiness_probes = {RedisReadinessProbe(pool)};
  options.readiness_interval = absl::Milliseconds(100);
  auto server = RunningServer::Start(options, {&echo});
  ASSERT_TRUE(server.ok()) << server.status();
  int port = (*server)->port();
  EXPECT_TRUE(testing::HealthBecomes(port, {"draughts.platform.testing.EchoService"},
                                     HealthCheckResponse::SERVING));

  (*redis)->Kill();
  EXPECT_TRUE(testing::HealthBecomes(port, {"draughts.platform.testing.EchoService"},
                                     HealthCheckResponse::NOT_SERVING));
  ASSERT_TRUE((*redis)->Restart().ok());
  EXPECT_TRUE(testing::HealthBecomes(port, {"draughts.platform.testing.EchoService"},
                                     HealthCheckResponse::SERVING));
  // The probe has its own connection: the pool's are untouched and work.
  auto lease = pool.Borrow();
  ASSERT_TRUE(lease.ok());
  EXPECT_TRUE((*lease)->Command({"PING"}).ok());
}

class PgReadinessTest : public PgTest {};

TEST_F(PgReadinessTest, ProbeAnswersThroughThePool) {
  std::unique_ptr<PgPool> pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  ReadinessProbe probe = PgReadinessProbe(*pool);
  EXPECT_EQ(probe.name, "postgres");
  EXPECT_TRUE(probe.check().ok());
}

}  // namespace
}  // namespace draughts::platform
