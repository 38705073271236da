// CreateGame, GetGame and ResolvePlayerToken.
#include <gtest/gtest.h>

#include "game_state/player_tokens.h"
#include "service_fixture.h"

namespace draughts::game_state::testing {
namespace {

using ::grpc::StatusCode;

grpc::Status TryCreate(v1::GameService::Stub& stub, const v1::CreateGameRequest& request,
                       v1::CreateGameResponse* response = nullptr) {
  grpc::ClientContext context;
  v1::CreateGameResponse ignored;
  return stub.CreateGame(&context, request, response != nullptr ? response : &ignored);
}

TEST_F(GameServiceTest, CreateGameStartsFromTheRuleSetsPosition) {
  v1::CreateGameRequest request = PeopleGame("international");
  request.mutable_time_per_move()->set_seconds(60);
  request.set_table_id("table-7");
  const v1::CreateGameResponse created = Create(request);
  const v1::GameState& game = created.game();
  EXPECT_FALSE(created.game_id().empty());
  EXPECT_EQ(game.game_id(), created.game_id());
  EXPECT_EQ(game.fen(), "W:W31-50:B1-20");
  EXPECT_EQ(game.initial_fen(), game.fen());
  EXPECT_EQ(game.side_to_move(), v1::COLOR_WHITE);
  EXPECT_EQ(game.ply(), 0);
  EXPECT_EQ(game.result(), v1::GAME_RESULT_ONGOING);
  EXPECT_EQ(game.version(), 1);
  EXPECT_EQ(game.white().seat().display_name(), "Alice");
  EXPECT_EQ(game.black().seat().kind(), v1::SEAT_KIND_GUEST);
  EXPECT_EQ(game.table_id(), "table-7");
  // The first move is due one time-per-move from now.
  EXPECT_EQ(game.move_deadline().seconds(), absl::ToUnixSeconds(now_) + 60);

  const std::vector<v1::GameEvent> events = store_.Events(created.game_id());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(events[0].has_game_created());
  EXPECT_EQ(events[0].event_id(), game.last_event_id());
  EXPECT_EQ(events[0].game_created().initial_fen(), game.fen());
  EXPECT_EQ(events[0].game_created().move_deadline().seconds(), game.move_deadline().seconds());

  // GetGame tells the same story.
  const v1::GameState fetched = Get(created.game_id());
  EXPECT_EQ(fetched.fen(), game.fen());
  EXPECT_EQ(fetched.version(), 1);
  EXPECT_EQ(fetched.last_event_id(), game.last_event_id());
}

TEST_F(GameServiceTest, EnglishBlackMovesFirst) {
  const v1::CreateGameResponse created = Create(PeopleGame("english"));
  EXPECT_EQ(created.game().fen(), "B:W21-32:B1-12");
  EXPECT_EQ(created.game().side_to_move(), v1::COLOR_BLACK);
  EXPECT_FALSE(created.game().has_move_deadline());  // no time limit asked for
}

TEST_F(GameServiceTest, TokensAreRandomSecretAndStoredOnlyAsHashes) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  const std::string& white = created.white_player_token();
  const std::string& black = created.black_player_token();
  EXPECT_GE(white.size(), 22u);  // 128+ bits in URL-safe base64
  EXPECT_NE(white, black);
  const StoredGame raw = store_.Raw(created.game_id());
  const std::string bytes = raw.SerializeAsString();
  EXPECT_EQ(bytes.find(white), std::string::npos);
  EXPECT_EQ(bytes.find(black), std::string::npos);
  EXPECT_TRUE(platform::SecretMatchesHash(white, raw.white().token_hash()));
  EXPECT_FALSE(platform::SecretMatchesHash(black, raw.white().token_hash()));
  EXPECT_TRUE(raw.white().computer_token().empty());
  // A second game gets other tokens.
  const v1::CreateGameResponse other = Create(PeopleGame());
  EXPECT_NE(other.white_player_token(), white);
}

TEST_F(GameServiceTest, CreateGameRetryReturnsTheFirstAnswer) {
  const v1::CreateGameRequest request = PeopleGame();
  const v1::CreateGameResponse first = Create(request);
  const v1::CreateGameResponse again = Create(request);
  EXPECT_EQ(again.game_id(), first.game_id());
  EXPECT_EQ(again.white_player_token(), first.white_player_token());
  EXPECT_EQ(again.black_player_token(), first.black_player_token());
  EXPECT_EQ(store_.Events(first.game_id()).size(), 1u);  // created once

  // The same key with another request is refused.
  v1::CreateGameRequest changed = request;
  changed.set_variant("english");
  grpc::Status status = TryCreate(*stub_, changed);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("idempotency_key"), std::string::npos);
}

TEST_F(GameServiceTest, CreateGameRetryWithAnotherSecretFailsRatherThanInventTokens) {
  const v1::CreateGameRequest request = PeopleGame();
  Create(request);
  // A replica sealing with another secret cannot return the tokens: it
  // must not invent new ones.
  sealer_ = TokenSealer::Ephemeral();
  v1::CreateGameResponse response;
  grpc::Status status = TryCreate(*stub_, request, &response);
  EXPECT_EQ(status.error_code(), StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("token_secret"), std::string::npos);
  EXPECT_TRUE(response.white_player_token().empty());
}

struct BadCreate {
  std::string name;
  std::function<void(v1::CreateGameRequest&)> spoil;
  std::string message;
};

TEST_F(GameServiceTest, CreateGameRefusesBadRequests) {
  const std::vector<BadCreate> cases = {
      {"no key", [](auto& r) { r.clear_idempotency_key(); }, "idempotency_key"},
      {"bad key", [](auto& r) { r.set_idempotency_key("a b{c}"); }, "idempotency_key"},
      {"long key", [](auto& r) { r.set_idempotency_key(std::string(65, 'k')); }, "idempotency_key"},
      {"no variant", [](auto& r) { r.clear_variant(); }, "variant"},
      {"unknown variant", [](auto& r) { r.set_variant("chess"); }, "unknown variant"},
      {"option not supported", [](auto& r) { r.mutable_options()->set_mandatory_capture(false); },
       "mandatory_capture"},
      {"forty-move option on international",
       [](auto& r) { r.mutable_options()->set_forty_move_rule_in_total(true); }, "40-move"},
      {"negative move limit", [](auto& r) { r.mutable_options()->set_move_limit(-1); },
       "move_limit"},
      {"seat without kind", [](auto& r) { r.mutable_white()->clear_kind(); }, "white.kind"},
      {"person without id", [](auto& r) { r.mutable_white()->clear_player_id(); },
       "white.player_id"},
      {"bot without level",
       [](auto& r) {
         r.mutable_black()->Clear();
         r.mutable_black()->set_kind(v1::SEAT_KIND_BOT);
       },
       "bot_level"},
      {"rated with a guest", [](auto& r) { r.set_rated(true); }, "rated"},
      {"custom position in a rated game",
       [](auto& r) {
         r.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
         r.set_rated(true);
         r.set_initial_fen("W:W31:B1");
       },
       "initial_fen"},
      {"bad FEN", [](auto& r) { r.set_initial_fen("X:W1:B2"); }, "initial_fen"},
      {"FEN off the board", [](auto& r) { r.set_initial_fen("W:W51:B1"); }, "initial_fen"},
      {"negative time", [](auto& r) { r.mutable_time_per_move()->set_seconds(-5); }, "negative"},
      {"more than an hour", [](auto& r) { r.mutable_time_per_move()->set_seconds(3601); },
       "1 hour"},
      {"long display name",
       [](auto& r) { r.mutable_white()->set_display_name(std::string(41, 'x')); }, "display_name"},
      {"41 characters of two bytes each",
       [](auto& r) {
         std::string name;
         for (int i = 0; i < 41; ++i) name += "\xc3\xa9";  // é
         r.mutable_black()->set_display_name(name);
       },
       "black.display_name"},
      {"empty display name", [](auto& r) { r.mutable_white()->clear_display_name(); },
       "white.display_name"},
      {"bot without display name",
       [](auto& r) {
         r.mutable_black()->Clear();
         r.mutable_black()->set_kind(v1::SEAT_KIND_BOT);
         r.mutable_black()->set_bot_level(v1::BOT_LEVEL_HARD);
       },
       "black.display_name"},
      {"rated hotseat: one player in both seats",
       [](auto& r) {
         r.set_rated(true);
         *r.mutable_black() = r.white();
       },
       "both seats"},
      {"side not to move without a piece", [](auto& r) { r.set_initial_fen("W:W31:B"); },
       "no piece"},
      {"side to move without a piece", [](auto& r) { r.set_initial_fen("B:W31:B"); }, "no piece"},
  };
  for (const BadCreate& bad : cases) {
    SCOPED_TRACE(bad.name);
    v1::CreateGameRequest request = PeopleGame();
    bad.spoil(request);
    grpc::Status status = TryCreate(*stub_, request);
    EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT) << StatusText(status);
    EXPECT_NE(status.error_message().find(bad.message), std::string::npos)
        << status.error_message();
  }
  EXPECT_EQ(store_.commits(), 0);
}

TEST_F(GameServiceTest, DisplayNamesCountCharactersNotBytes) {
  v1::CreateGameRequest request = PeopleGame();
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += "\xc3\xa9";  // 80 bytes, 40 characters
  request.mutable_white()->set_display_name(forty);
  request.mutable_black()->set_display_name("B");
  const v1::CreateGameResponse created = Create(request);
  EXPECT_EQ(created.game().white().seat().display_name(), forty);
  EXPECT_EQ(created.game().black().seat().display_name(), "B");
}

TEST_F(GameServiceTest, RatedGameBetweenTwoAccounts) {
  v1::CreateGameRequest request = PeopleGame();
  request.set_rated(true);
  request.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_black()->set_player_id("bob");
  EXPECT_TRUE(Create(request).game().rated());
}

TEST_F(GameServiceTest, NobodyIsConnectedUntilTheClockSaysSoButBots) {
  const v1::CreateGameResponse people = Create(PeopleGame());
  EXPECT_FALSE(people.game().white().connected());
  EXPECT_FALSE(people.game().black().connected());
  EXPECT_FALSE(Get(people.game_id()).white().connected());
  const v1::CreateGameResponse bot = Create(BotGame("english", v1::COLOR_WHITE));
  EXPECT_TRUE(bot.game().white().connected());
  EXPECT_FALSE(bot.game().black().connected());
}

TEST_F(GameServiceTest, CreateGameFromAPosition) {
  v1::CreateGameRequest request = PeopleGame("english");
  request.set_initial_fen("B:W32:B23,24,28");
  const v1::CreateGameResponse created = Create(request);
  EXPECT_EQ(created.game().fen(), "B:W32:B23-24,28");
  EXPECT_EQ(created.game().side_to_move(), v1::COLOR_BLACK);
  // A position that is already decided is not a game.
  v1::CreateGameRequest over = PeopleGame("english");
  over.set_initial_fen("W:W:B1");
  grpc::Status status = TryCreate(*stub_, over);
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT) << StatusText(status);
}

TEST_F(GameServiceTest, GetGameErrors) {
  for (const auto& [id, code] : std::vector<std::pair<std::string, StatusCode>>{
           {"", StatusCode::INVALID_ARGUMENT},
           {"a{b}", StatusCode::INVALID_ARGUMENT},
           {std::string(65, 'a'), StatusCode::INVALID_ARGUMENT},
           {"nosuchgame", StatusCode::NOT_FOUND}}) {
    grpc::ClientContext context;
    v1::GetGameRequest request;
    request.set_game_id(id);
    v1::GetGameResponse response;
    EXPECT_EQ(stub_->GetGame(&context, request, &response).error_code(), code) << id;
  }
}

TEST_F(GameServiceTest, StoreOutageIsUnavailable) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  store_.FailNext(absl::UnavailableError("redis down"));
  grpc::ClientContext context;
  v1::GetGameRequest request;
  request.set_game_id(created.game_id());
  v1::GetGameResponse response;
  EXPECT_EQ(stub_->GetGame(&context, request, &response).error_code(), StatusCode::UNAVAILABLE);
}

TEST_F(GameServiceTest, ResolvePlayerTokenNamesTheSeat) {
  const v1::CreateGameResponse created = Create(PeopleGame());
  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    grpc::ClientContext context;
    v1::ResolvePlayerTokenRequest request;
    request.set_game_id(created.game_id());
    request.set_player_token(TokenOf(created, color));
    v1::ResolvePlayerTokenResponse response;
    ASSERT_TRUE(stub_->ResolvePlayerToken(&context, request, &response).ok());
    EXPECT_EQ(response.color(), color);
    EXPECT_EQ(response.seat().player_id(), color == v1::COLOR_WHITE ? "alice" : "guest-bob");
  }
  grpc::ClientContext context;
  v1::ResolvePlayerTokenRequest request;
  request.set_game_id(created.game_id());
  request.set_player_token("not-a-token");
  v1::ResolvePlayerTokenResponse response;
  EXPECT_EQ(stub_->ResolvePlayerToken(&context, request, &response).error_code(),
            StatusCode::PERMISSION_DENIED);
}

}  // namespace
}  // namespace draughts::game_state::testing
