// RatingService through a real in-process gRPC channel over the in-memory
// archive: GetArchivedGame's answers and error codes.
#include "rating/rating_service.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <memory>

#include "fake_archive_store.h"
#include "rules/pdn.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

class RatingServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    stub_ = v1::RatingService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }
  void TearDown() override { server_->Shutdown(); }

  grpc::Status Get(const std::string& game_id, v1::GetArchivedGameResponse* response) {
    grpc::ClientContext context;
    v1::GetArchivedGameRequest request;
    request.set_game_id(game_id);
    return stub_->GetArchivedGame(&context, request, response);
  }

  FakeArchiveStore store_;
  RatingServiceImpl service_{&store_, PdnSettings{"unit"}};
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::RatingService::Stub> stub_;
};

TEST_F(RatingServiceTest, ReturnsTheArchivedRecordWithItsPdnAndArchiveTime) {
  const v1::ResultRecord record = PlayedRecord("g1", "international", 30, 2);
  const absl::Time archived_at = absl::FromUnixMicros(1767300000123456);
  ASSERT_TRUE(store_.Insert(record, archived_at).ok());

  v1::GetArchivedGameResponse response;
  const grpc::Status status = Get("g1", &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(response.game().record(), record));
  EXPECT_EQ(
      google::protobuf::util::TimeUtil::TimestampToMicroseconds(response.game().archived_at()),
      absl::ToUnixMicros(archived_at));
  auto games = rules::ReadPdn(response.game().pdn());
  ASSERT_TRUE(games.ok()) << response.game().pdn();
  EXPECT_EQ(games->front().moves.size(), static_cast<size_t>(record.moves_size()));
  EXPECT_EQ(*games->front().FindTag("Site"), "unit");
}

TEST_F(RatingServiceTest, AnEmptyGameIdIsInvalid) {
  v1::GetArchivedGameResponse response;
  const grpc::Status status = Get("", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("game_id"), std::string::npos);
}

TEST_F(RatingServiceTest, AGameNotArchivedIsNotFound) {
  ASSERT_TRUE(store_.Insert(PlayedRecord("g1"), absl::Now()).ok());
  v1::GetArchivedGameResponse response;
  const grpc::Status status = Get("g2", &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(status.error_message().find("g2"), std::string::npos);
}

TEST_F(RatingServiceTest, TheArchiveDownIsUnavailable) {
  store_.FailWith(absl::UnavailableError("PostgreSQL down"));
  v1::GetArchivedGameResponse response;
  EXPECT_EQ(Get("g1", &response).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(RatingServiceTest, ARecordThatDoesNotReplayIsReturnedWithoutPdn) {
  v1::ResultRecord record = PlayedRecord("g1");
  record.set_moves(0, "1-50");
  ASSERT_TRUE(store_.Insert(record, absl::Now()).ok());
  v1::GetArchivedGameResponse response;
  ASSERT_TRUE(Get("g1", &response).ok());
  EXPECT_EQ(response.game().record().game_id(), "g1");
  EXPECT_TRUE(response.game().pdn().empty());
}

}  // namespace
}  // namespace draughts::rating::testing
