// The rating binary end to end: flags, migrations at start, the consumer
// archiving from the results stream, GetArchivedGame, health following
// Redis, SIGTERM.
#include <grpcpp/grpcpp.h>

#include <google/protobuf/util/message_differencer.h>

#include <thread>

#include "draughts/v1/rating.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "platform/redis_streams.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"
#include "rating_env.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using platform::testing::ServerProcess;

class RatingBinaryTest : public RatingIntegrationTest {};

TEST_F(RatingBinaryTest, ArchivesFromTheStreamAndServesTheGame) {
  {
    // The group exists before the first result, as once the service runs.
    RedisResultSource creator(redis_options_, Group("creator"));
    ASSERT_TRUE(creator.CreateGroup().ok());
  }
  auto process = ServerProcess::Start(
      RATING_BINARY, {
                         "--metrics-port=-1",
                         "--drain=0s",
                         absl::StrCat("--redis=", redis_options_.host, ":", redis_options_.port),
                         "--pg=" + conninfo_,
                         "--results-stream=" + stream_,
                         "--consumer-group=rating",
                         "--consumer-name=binary-test",
                         "--claim-idle=5s",
                         "--pdn-site=binary",
                     });
  ASSERT_TRUE(process.ok()) << process.status();
  auto channel = grpc::CreateChannel((*process)->address(), grpc::InsecureChannelCredentials());
  auto stub = v1::RatingService::NewStub(channel);

  const v1::ResultRecord record = PlayedRecord("g-binary", "international", 24, 3);
  AddResult(record.SerializeAsString(), "g-binary");
  v1::GetArchivedGameResponse response;
  grpc::Status status;
  ASSERT_TRUE(WaitFor([&] {
    grpc::ClientContext context;
    v1::GetArchivedGameRequest request;
    request.set_game_id("g-binary");
    status = stub->GetArchivedGame(&context, request, &response);
    return status.ok();
  })) << status.error_message();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(response.game().record(), record));
  EXPECT_NE(response.game().pdn().find("[Site \"binary\"]"), std::string::npos)
      << response.game().pdn();
  EXPECT_EQ(PendingCount(), 0);

  {
    // The Elo calls answer: an unrated game leaves Alice at the initial rating.
    grpc::ClientContext context;
    v1::GetRatingRequest request;
    request.set_player_id("alice-id");
    request.set_variant("international");
    request.set_month("2026-01");
    v1::GetRatingResponse rating;
    ASSERT_TRUE(stub->GetRating(&context, request, &rating).ok());
    EXPECT_EQ(rating.rating().elo(), 1500);
    EXPECT_EQ(rating.rank(), 0);
  }
  // An idle client connection holds up the server's shutdown for seconds.
  stub.reset();
  channel.reset();
  auto code = (*process)->Terminate();
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
}

TEST_F(RatingBinaryTest, WaitsForPostgreSQLAtStartInsteadOfExiting) {
  {
    RedisResultSource creator(redis_options_, Group("creator"));
    ASSERT_TRUE(creator.CreateGroup().ok());
  }
  SetLoginAllowed(false);
  std::thread comes_back([this] {
    absl::SleepFor(absl::Milliseconds(1500));
    SetLoginAllowed(true);
  });
  const absl::Time started = absl::Now();
  auto process = ServerProcess::Start(
      RATING_BINARY, {
                         "--metrics-port=-1",
                         "--drain=0s",
                         absl::StrCat("--redis=", redis_options_.host, ":", redis_options_.port),
                         "--pg=" + conninfo_,
                         "--results-stream=" + stream_,
                     });
  comes_back.join();
  ASSERT_TRUE(process.ok()) << process.status();
  EXPECT_GE(absl::Now() - started, absl::Milliseconds(1500)) << "listened without its database";
  AddResult(PlayedRecord("g-late").SerializeAsString(), "g-late");
  EXPECT_TRUE(WaitFor([&] { return ArchivedRows("g-late") == 1; }));
  auto code = (*process)->Terminate();
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
}

TEST_F(RatingBinaryTest, HealthIsNotServingWhileItsRedisIsDownAndServingOnceItIsBack) {
  using grpc::health::v1::HealthCheckResponse;
  auto redis_binary = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
  ASSERT_TRUE(redis_binary.ok()) << redis_binary.status().message();
  auto redis = platform::testing::RedisServerProcess::Start(*redis_binary);
  ASSERT_TRUE(redis.ok()) << redis.status();
  auto process = ServerProcess::Start(RATING_BINARY, {
                                                         "--metrics-port=-1",
                                                         "--drain=0s",
                                                         "--readiness-interval=100ms",
                                                         "--redis=" + (*redis)->address(),
                                                         "--pg=" + conninfo_,
                                                         "--results-stream=" + stream_,
                                                     });
  ASSERT_TRUE(process.ok()) << process.status();
  auto channel = grpc::CreateChannel((*process)->address(), grpc::InsecureChannelCredentials());
  auto health = grpc::health::v1::Health::NewStub(channel);
  auto rating = v1::RatingService::NewStub(channel);
  // The whole server ("") and the service by name report the same.
  auto health_becomes = [&](HealthCheckResponse::ServingStatus want) {
    return WaitFor([&] {
      for (const std::string service : {"", "draughts.v1.RatingService"}) {
        grpc::health::v1::HealthCheckRequest request;
        request.set_service(service);
        HealthCheckResponse answer;
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
        if (!health->Check(&context, request, &answer).ok() || answer.status() != want) {
          return false;
        }
      }
      return true;
    });
  };
  EXPECT_TRUE(health_becomes(HealthCheckResponse::SERVING));

  (*redis)->Kill();
  EXPECT_TRUE(health_becomes(HealthCheckResponse::NOT_SERVING));
  {
    // Not ready is not down: the archive, in PostgreSQL, still answers.
    grpc::ClientContext context;
    v1::GetArchivedGameRequest request;
    request.set_game_id("g-never-played");
    v1::GetArchivedGameResponse response;
    EXPECT_EQ(rating->GetArchivedGame(&context, request, &response).error_code(),
              grpc::StatusCode::NOT_FOUND);
  }

  ASSERT_TRUE((*redis)->Restart().ok());  // empty: the stream and group are gone
  EXPECT_TRUE(health_becomes(HealthCheckResponse::SERVING));
  // And the consumer is back too: a result written now is archived.
  platform::RedisClient writer(*platform::ParseRedisAddress((*redis)->address()));
  const std::string record = PlayedRecord("g-after-outage").SerializeAsString();
  ASSERT_TRUE(
      platform::StreamAdd(writer, stream_, {{"data", record}, {"game_id", "g-after-outage"}}).ok());
  EXPECT_TRUE(WaitFor([&] { return ArchivedRows("g-after-outage") == 1; }));

  health.reset();
  rating.reset();
  channel.reset();
  auto code = (*process)->Terminate();
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, 0);
}

TEST_F(RatingBinaryTest, ABadFlagIsAClearErrorAtStart) {
  auto process = ServerProcess::Start(RATING_BINARY, {"--claim-idle=0s", "--pg=" + conninfo_},
                                      absl::Seconds(10));
  ASSERT_FALSE(process.ok());
}

}  // namespace
}  // namespace draughts::rating::testing
