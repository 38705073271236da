// The generated gRPC code works end to end: a server implementing part of
// GameService answers through the generated stub, unary and streaming, and
// the calls it does not implement say UNIMPLEMENTED.

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "draughts/v1/game.grpc.pb.h"

namespace draughts::proto_test {
namespace {

class PartialGameService final : public v1::GameService::Service {
 public:
  grpc::Status GetGame(grpc::ServerContext*, const v1::GetGameRequest* request,
                       v1::GetGameResponse* response) override {
    if (request->game_id() != "g1") return {grpc::StatusCode::NOT_FOUND, "unknown game"};
    response->mutable_game()->set_game_id("g1");
    response->mutable_game()->set_ply(3);
    return grpc::Status::OK;
  }

  grpc::Status WatchGame(grpc::ServerContext*, const v1::WatchGameRequest* request,
                         grpc::ServerWriter<v1::GameEvent>* writer) override {
    for (int ply = 1; ply <= 3; ++ply) {
      v1::GameEvent event;
      event.set_game_id(request->game_id());
      event.set_ply(ply);
      if (!writer->Write(event)) break;
    }
    return grpc::Status::OK;
  }
};

class StubsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder builder;
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = v1::GameService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
  }

  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  PartialGameService service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::GameService::Stub> stub_;
};

TEST_F(StubsTest, UnaryCallsReachTheService) {
  grpc::ClientContext context;
  v1::GetGameRequest request;
  request.set_game_id("g1");
  v1::GetGameResponse response;
  const grpc::Status status = stub_->GetGame(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(response.game().game_id(), "g1");
  EXPECT_EQ(response.game().ply(), 3);
}

TEST_F(StubsTest, StatusCodesReachTheCaller) {
  grpc::ClientContext context;
  v1::GetGameRequest request;
  request.set_game_id("nope");
  v1::GetGameResponse response;
  EXPECT_EQ(stub_->GetGame(&context, request, &response).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(StubsTest, StreamsArriveInOrder) {
  grpc::ClientContext context;
  v1::WatchGameRequest request;
  request.set_game_id("g1");
  auto reader = stub_->WatchGame(&context, request);
  std::vector<int> plies;
  v1::GameEvent event;
  while (reader->Read(&event)) {
    EXPECT_EQ(event.game_id(), "g1");
    plies.push_back(event.ply());
  }
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_EQ(plies, (std::vector<int>{1, 2, 3}));
}

TEST_F(StubsTest, CallsNotImplementedSaySo) {
  grpc::ClientContext context;
  v1::SubmitMoveRequest request;
  v1::SubmitMoveResponse response;
  EXPECT_EQ(stub_->SubmitMove(&context, request, &response).error_code(),
            grpc::StatusCode::UNIMPLEMENTED);
}

}  // namespace
}  // namespace draughts::proto_test
