// The rating binary end to end: flags, migrations at start, the consumer
// archiving from the results stream, GetArchivedGame, health, SIGTERM.
#include <grpcpp/grpcpp.h>

#include <google/protobuf/util/message_differencer.h>

#include <thread>

#include "draughts/v1/rating.grpc.pb.h"
#include "rating_env.h"
#include "rating_process.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

class RatingBinaryTest : public RatingIntegrationTest {};

TEST_F(RatingBinaryTest, ArchivesFromTheStreamAndServesTheGame) {
  {
    // The group exists before the first result, as once the service runs.
    RedisResultSource creator(redis_options_, Group("creator"));
    ASSERT_TRUE(creator.CreateGroup().ok());
  }
  auto process = RatingProcess::Start({
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
    grpc::ClientContext context;
    v1::GetRatingResponse rating;
    EXPECT_EQ(stub->GetRating(&context, {}, &rating).error_code(), grpc::StatusCode::UNIMPLEMENTED);
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
  auto process = RatingProcess::Start({
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

TEST_F(RatingBinaryTest, ABadFlagIsAClearErrorAtStart) {
  auto process = RatingProcess::Start({"--claim-idle=0s", "--pg=" + conninfo_}, absl::Seconds(10));
  ASSERT_FALSE(process.ok());
}

}  // namespace
}  // namespace draughts::rating::testing
