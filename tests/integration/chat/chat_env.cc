#include "chat_env.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/secret_tokens.h"
#include "platform/testing/test_env.h"

namespace draughts::chat::testing {
namespace {

std::unique_ptr<grpc::ClientContext> Context() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}

std::string UniquePrefix() {
  std::string random = platform::RandomUrlSafeString(6);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  return absl::StrCat("chat-it-", getpid(), "-", random, ":");
}

std::string NewKey() {
  return absl::StrCat("k-", platform::RandomUrlSafeString(12));
}

}  // namespace

std::string StatusText(const grpc::Status& status) {
  return absl::StrCat(static_cast<int>(status.error_code()), " ", status.error_message());
}

void TablesStandIn::AddTable(const std::string& table_id, bool spectators_muted) {
  std::lock_guard<std::mutex> lock(mu_);
  v1::Table& table = tables_[table_id];
  table.set_table_id(table_id);
  table.set_variant("international");
  table.mutable_options()->set_spectators_muted(spectators_muted);
}

grpc::Status TablesStandIn::GetTable(grpc::ServerContext*, const v1::GetTableRequest* request,
                                     v1::GetTableResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = tables_.find(request->table_id());
  if (found == tables_.end()) return {grpc::StatusCode::NOT_FOUND, "no such table"};
  *response->mutable_table() = found->second;
  return grpc::Status::OK;
}

void ChatIntegrationTest::SetUp() {
  absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(redis.ok()) << redis.status();
  absl::StatusOr<platform::RedisOptions> options = platform::ParseRedisAddress(*redis);
  ASSERT_TRUE(options.ok()) << options.status();
  redis_ = std::make_unique<platform::RedisClient>(*options);
  prefix_ = UniquePrefix();

  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &tables_port_);
  builder.RegisterService(&tables_);
  tables_server_ = builder.BuildAndStart();
  ASSERT_NE(tables_server_, nullptr);

  absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> game_state =
      platform::testing::ServerProcess::Start(
          GAME_STATE_BINARY,
          {absl::StrCat("--redis=", *redis), absl::StrCat("--key-prefix=", prefix_),
           "--metrics-port=-1", "--token-secret=chat-integration-test-secret", "--drain=100ms",
           "--shutdown-timeout=2s", "--log-level=warn"});
  ASSERT_TRUE(game_state.ok()) << game_state.status();
  game_state_ = *std::move(game_state);
  games_ = v1::GameService::NewStub(
      grpc::CreateChannel(game_state_->address(), grpc::InsecureChannelCredentials()));
  RestartChat({});
}

void ChatIntegrationTest::RestartChat(const std::vector<std::string>& extra_flags, bool metrics) {
  chat_.clear();
  chats_.clear();
  metrics_port_ = -1;
  if (metrics) {
    absl::StatusOr<int> port = platform::testing::PickFreePort();
    ASSERT_TRUE(port.ok()) << port.status();
    metrics_port_ = *port;
  }
  const std::string redis = *platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  for (int replica = 0; replica < 2; ++replica) {
    std::vector<std::string> args = {
        absl::StrCat("--redis=", redis),
        absl::StrCat("--key-prefix=", prefix_),
        absl::StrCat("--game-state=", game_state_->address()),
        absl::StrCat("--matchmaking=127.0.0.1:", tables_port_),
        absl::StrCat("--notices-stream=", prefix_, "draughts:chat-notices"),
        absl::StrCat("--consumer-name=chat-", replica),
        absl::StrCat("--metrics-port=", replica == 0 ? metrics_port_ : -1),
        "--drain=100ms",
        "--shutdown-timeout=2s",
        "--log-level=warn"};
    args.insert(args.end(), extra_flags.begin(), extra_flags.end());
    absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> chat =
        platform::testing::ServerProcess::Start(CHAT_BINARY, args);
    ASSERT_TRUE(chat.ok()) << chat.status();
    chat_.push_back(v1::ChatService::NewStub(
        grpc::CreateChannel((*chat)->address(), grpc::InsecureChannelCredentials())));
    chats_.push_back(*std::move(chat));
  }
}

std::string ChatIntegrationTest::ScrapeMetrics() const {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(metrics_port_));
  std::string response;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
    if (::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      ssize_t n = 0;
      while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) {
        response.append(buffer, static_cast<std::size_t>(n));
      }
    }
  }
  ::close(fd);
  return response;
}

void ChatIntegrationTest::TearDown() {
  chat_.clear();
  chats_.clear();
  games_.reset();
  game_state_.reset();
  if (tables_server_ != nullptr) tables_server_->Shutdown();
  if (redis_ == nullptr) return;
  // The test's keys only.
  std::string cursor = "0";
  do {
    absl::StatusOr<platform::RedisReply> page =
        redis_->Command({"SCAN", cursor, "MATCH", absl::StrCat(prefix_, "*"), "COUNT", "1000"});
    if (!page.ok() || page->elements().size() != 2) break;
    cursor = page->elements()[0].text();
    for (const platform::RedisReply& key : page->elements()[1].elements()) {
      redis_->Command({"DEL", key.text()}).IgnoreError();
    }
  } while (cursor != "0");
}

v1::CreateGameResponse ChatIntegrationTest::NewGame(const std::string& table_id,
                                                    bool spectators_muted) {
  v1::CreateGameRequest request;
  request.set_idempotency_key(NewKey());
  request.set_variant("international");
  request.set_table_id(table_id);
  if (spectators_muted) request.mutable_options()->set_spectators_muted(true);
  request.mutable_white()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_white()->set_player_id("ann");
  request.mutable_white()->set_display_name("Ann");
  request.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_black()->set_player_id("ben");
  request.mutable_black()->set_display_name("Ben");
  v1::CreateGameResponse created;
  const grpc::Status status = games_->CreateGame(Context().get(), request, &created);
  EXPECT_TRUE(status.ok()) << StatusText(status);
  return created;
}

v1::ChatRoom ChatIntegrationTest::GameRoom(const std::string& game_id) {
  v1::ChatRoom room;
  room.set_game_id(game_id);
  return room;
}

v1::ChatRoom ChatIntegrationTest::TableRoom(const std::string& table_id) {
  v1::ChatRoom room;
  room.set_table_id(table_id);
  return room;
}

v1::PostMessageRequest ChatIntegrationTest::PlayerPost(const v1::ChatRoom& room,
                                                       const std::string& game_id,
                                                       const std::string& token,
                                                       const std::string& text) {
  v1::PostMessageRequest request;
  *request.mutable_room() = room;
  request.mutable_author()->mutable_player()->set_game_id(game_id);
  request.mutable_author()->mutable_player()->set_player_token(token);
  request.set_text(text);
  request.set_idempotency_key(NewKey());
  return request;
}

v1::PostMessageRequest ChatIntegrationTest::SpectatorPost(const v1::ChatRoom& room,
                                                          const std::string& session,
                                                          const std::string& text,
                                                          const std::string& name) {
  v1::PostMessageRequest request;
  *request.mutable_room() = room;
  request.mutable_author()->set_spectator_session(session);
  request.mutable_author()->set_display_name(name);
  request.mutable_author()->set_player_id("g_watcher");
  request.set_text(text);
  request.set_idempotency_key(NewKey());
  return request;
}

grpc::Status ChatIntegrationTest::Post(int replica, const v1::PostMessageRequest& request,
                                       v1::ChatMessage* message) {
  v1::PostMessageResponse response;
  const grpc::Status status =
      chat_[static_cast<std::size_t>(replica)]->PostMessage(Context().get(), request, &response);
  if (message != nullptr) *message = response.message();
  return status;
}

std::vector<v1::ChatMessage> ChatIntegrationTest::ListAll(int replica, const v1::ChatRoom& room) {
  std::vector<v1::ChatMessage> newest_first;
  v1::ListMessagesRequest request;
  *request.mutable_room() = room;
  request.set_page_size(200);
  do {
    v1::ListMessagesResponse response;
    const grpc::Status status =
        chat_[static_cast<std::size_t>(replica)]->ListMessages(Context().get(), request, &response);
    EXPECT_TRUE(status.ok()) << StatusText(status);
    if (!status.ok()) break;
    newest_first.insert(newest_first.end(), response.messages().begin(), response.messages().end());
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return {newest_first.rbegin(), newest_first.rend()};
}

bool ChatIntegrationTest::WaitFor(const std::function<bool()>& condition, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!condition()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return true;
}

}  // namespace draughts::chat::testing
