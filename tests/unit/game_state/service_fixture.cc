#include "service_fixture.h"

#include <grpcpp/server_builder.h>

#include "absl/strings/str_cat.h"

namespace draughts::game_state::testing {

std::string StatusText(const grpc::Status& status) {
  return absl::StrCat(static_cast<int>(status.error_code()), " ", status.error_message());
}

void GameServiceTest::SetUp() {
  metrics_ = std::make_unique<GameMetrics>(*registry_);
  GameServiceDeps deps;
  deps.metrics = metrics_.get();
  deps.store = &store_;
  deps.feed = &store_;
  deps.sealer = &sealer_;
  deps.now = [this] { return now_; };
  deps.random_index = [this](std::size_t n) { return next_random_ % n; };
  service_ = std::make_unique<GameServiceImpl>(std::move(deps), options_);
  grpc::ServerBuilder builder;
  builder.RegisterService(service_.get());
  server_ = builder.BuildAndStart();
  ASSERT_NE(server_, nullptr);
  stub_ = v1::GameService::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));
}

void GameServiceTest::TearDown() {
  service_->BeginShutdown();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
}

v1::CreateGameRequest GameServiceTest::PeopleGame(const std::string& variant) {
  v1::CreateGameRequest request;
  request.set_idempotency_key(absl::StrCat("test-game-", ++keys_));
  request.set_variant(variant);
  request.mutable_white()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_white()->set_player_id("alice");
  request.mutable_white()->set_display_name("Alice");
  request.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  request.mutable_black()->set_player_id("guest-bob");
  request.mutable_black()->set_display_name("Bob");
  return request;
}

v1::CreateGameRequest GameServiceTest::BotGame(const std::string& variant, v1::Color bot_color) {
  v1::CreateGameRequest request = PeopleGame(variant);
  v1::Seat& bot =
      bot_color == v1::COLOR_WHITE ? *request.mutable_white() : *request.mutable_black();
  bot.Clear();
  bot.set_kind(v1::SEAT_KIND_BOT);
  bot.set_bot_level(v1::BOT_LEVEL_EASY);
  bot.set_display_name("Computer (Easy)");
  return request;
}

v1::CreateGameResponse GameServiceTest::Create(const v1::CreateGameRequest& request) {
  grpc::ClientContext context;
  v1::CreateGameResponse response;
  grpc::Status status = stub_->CreateGame(&context, request, &response);
  EXPECT_TRUE(status.ok()) << StatusText(status);
  return response;
}

v1::GameState GameServiceTest::Get(const std::string& game_id) {
  grpc::ClientContext context;
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  v1::GetGameResponse response;
  grpc::Status status = stub_->GetGame(&context, request, &response);
  EXPECT_TRUE(status.ok()) << StatusText(status);
  return response.game();
}

const std::string& GameServiceTest::TokenOf(const v1::CreateGameResponse& created,
                                            v1::Color color) {
  return color == v1::COLOR_WHITE ? created.white_player_token() : created.black_player_token();
}

grpc::Status GameServiceTest::Move(const std::string& game_id, const std::string& token,
                                   const std::string& move, int expected_ply,
                                   v1::SubmitMoveResponse* response) {
  grpc::ClientContext context;
  v1::SubmitMoveRequest request;
  request.set_game_id(game_id);
  request.set_player_token(token);
  request.set_move(move);
  request.set_expected_ply(expected_ply);
  v1::SubmitMoveResponse ignored;
  return stub_->SubmitMove(&context, request, response != nullptr ? response : &ignored);
}

v1::SubmitMoveResponse GameServiceTest::Play(const v1::CreateGameResponse& created,
                                             const std::string& move) {
  const v1::GameState state = Get(created.game_id());
  v1::SubmitMoveResponse response;
  grpc::Status status =
      Move(created.game_id(), TokenOf(created, state.side_to_move()), move, state.ply(), &response);
  EXPECT_TRUE(status.ok()) << move << ": " << StatusText(status);
  return response;
}

void GameServiceTest::ExpectRefused(const grpc::Status& status, grpc::StatusCode code,
                                    const std::string& text, const std::string& game_id,
                                    const v1::GameState& before) {
  EXPECT_EQ(status.error_code(), code) << StatusText(status);
  EXPECT_NE(status.error_message().find(text), std::string::npos)
      << "message \"" << status.error_message() << "\" lacks \"" << text << "\"";
  const v1::GameState after = Get(game_id);
  EXPECT_EQ(after.version(), before.version());
  EXPECT_EQ(after.ply(), before.ply());
  EXPECT_EQ(after.fen(), before.fen());
  EXPECT_EQ(after.result(), before.result());
  EXPECT_EQ(after.draw_offered_by(), before.draw_offered_by());
}

}  // namespace draughts::game_state::testing
