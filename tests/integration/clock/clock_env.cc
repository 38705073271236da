#include "clock_env.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "platform/proto_time.h"
#include "platform/secret_tokens.h"
#include "platform/testing/test_env.h"

namespace draughts::clock::testing {
namespace {

std::unique_ptr<grpc::ClientContext> Context() {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  return context;
}

// GET /metrics over a plain socket (the exposer speaks HTTP/1.1).
std::string FetchMetrics(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string body;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request =
        "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[8192];
      ssize_t n = 0;
      while ((n = read(fd, buffer, sizeof buffer)) > 0) body.append(buffer, static_cast<size_t>(n));
    }
  }
  close(fd);
  return body;
}

}  // namespace

void ClockIntegrationTest::SetUp() {
  auto redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(redis.ok()) << redis.status().message();
  redis_address_ = *redis;
  auto options = platform::ParseRedisAddress(redis_address_);
  ASSERT_TRUE(options.ok());
  redis_ = std::make_unique<platform::RedisClient>(*options);
  std::string random = platform::RandomUrlSafeString(6);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  prefix_ = absl::StrCat("clock-it-", getpid(), "-", random, ":");
  auto game_state = ServerProcess::Start(
      GAME_STATE_BINARY, {"--redis=" + redis_address_, "--key-prefix=" + prefix_,
                          "--metrics-port=-1", "--token-secret=clock-integration-test-secret",
                          "--drain=0s", "--shutdown-timeout=2s", "--log-level=warn"});
  ASSERT_TRUE(game_state.ok()) << game_state.status();
  game_state_ = *std::move(game_state);
  game_ = v1::GameService::NewStub(
      grpc::CreateChannel(game_state_->address(), grpc::InsecureChannelCredentials()));
}

void ClockIntegrationTest::TearDown() {
  if (redis_ == nullptr || prefix_.empty()) return;
  // Drop the test's keys.
  absl::StatusOr<platform::RedisReply> keys = redis_->Command({"KEYS", prefix_ + "*"});
  if (keys.ok()) {
    for (const platform::RedisReply& key : keys->elements()) {
      redis_->Command({"DEL", key.text()}).IgnoreError();
    }
  }
}

ClockReplica ClockIntegrationTest::StartClock(const std::vector<std::string>& extra) {
  ClockReplica replica;
  auto port = platform::testing::PickFreePort();
  EXPECT_TRUE(port.ok());
  replica.metrics_port = port.ok() ? *port : 0;
  std::vector<std::string> args = {
      "--redis=" + redis_address_,
      "--key-prefix=" + prefix_,
      "--deadlines-stream=" + prefix_ + "draughts:deadlines",
      "--game-state=" + game_state_->address(),
      absl::StrCat("--metrics-port=", replica.metrics_port),
      "--allow-short-times",
      "--poll-interval=20ms",
      "--game-state-timeout=1s",
      "--claim-lease=2s",
      "--claim-idle=1s",
      "--drain=0s",
      "--shutdown-timeout=2s",
      "--log-level=warn",
  };
  args.insert(args.end(), extra.begin(), extra.end());
  auto process = ServerProcess::Start(CLOCK_BINARY, args);
  EXPECT_TRUE(process.ok()) << process.status();
  if (!process.ok()) return replica;
  replica.process = *std::move(process);
  replica.stub = v1::ClockService::NewStub(
      grpc::CreateChannel(replica.process->address(), grpc::InsecureChannelCredentials()));
  return replica;
}

v1::CreateGameResponse ClockIntegrationTest::CreateGame(absl::Duration per_move,
                                                        bool computer_plays_for_absent) {
  v1::CreateGameRequest request;
  request.set_idempotency_key(absl::StrCat("clock-it-", platform::RandomUrlSafeString(12)));
  request.set_variant("international");
  request.mutable_white()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_white()->set_player_id("ann");
  request.mutable_white()->set_display_name("Ann");
  request.mutable_black()->set_kind(v1::SEAT_KIND_PERSON);
  request.mutable_black()->set_player_id("ben");
  request.mutable_black()->set_display_name("Ben");
  if (per_move > absl::ZeroDuration()) {
    request.mutable_time_per_move()->set_seconds(absl::ToInt64Seconds(per_move));
    request.mutable_time_per_move()->set_nanos(static_cast<int32_t>(
        absl::ToInt64Nanoseconds(per_move - absl::Seconds(absl::ToInt64Seconds(per_move)))));
  }
  if (computer_plays_for_absent) request.mutable_options()->set_computer_plays_for_absent(true);
  v1::CreateGameResponse response;
  const grpc::Status status = game_->CreateGame(Context().get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response;
}

v1::GameState ClockIntegrationTest::GetGame(const std::string& game_id) {
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  v1::GetGameResponse response;
  const grpc::Status status = game_->GetGame(Context().get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response.game();
}

std::vector<v1::GameEvent> ClockIntegrationTest::WatchAll(const std::string& game_id) {
  v1::WatchGameRequest request;
  request.set_game_id(game_id);
  auto context = Context();
  auto reader = game_->WatchGame(context.get(), request);
  std::vector<v1::GameEvent> events;
  v1::GameEvent event;
  while (reader->Read(&event)) events.push_back(event);
  const grpc::Status status = reader->Finish();
  EXPECT_TRUE(status.ok()) << status.error_message();
  return events;
}

grpc::Status ClockIntegrationTest::Beat(v1::ClockService::Stub& clock, const std::string& game_id,
                                        v1::Color color, const std::string& connection,
                                        bool closing) {
  v1::HeartbeatRequest request;
  request.set_game_id(game_id);
  request.set_color(color);
  request.set_connection_id(connection);
  request.set_closing(closing);
  v1::HeartbeatResponse response;
  return clock.Heartbeat(Context().get(), request, &response);
}

bool ClockIntegrationTest::WaitFor(const std::function<bool()>& condition, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!condition()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return true;
}

double ClockIntegrationTest::Counter(int metrics_port, const std::string& name,
                                     const std::string& labels) {
  double total = 0;
  std::istringstream lines(FetchMetrics(metrics_port));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name, 0) != 0 || line.size() <= name.size()) continue;
    const char next = line[name.size()];
    if (next != '{' && next != ' ') continue;
    if (!labels.empty() && line.find(labels) == std::string::npos) continue;
    const std::size_t space = line.rfind(' ');
    total += std::stod(line.substr(space + 1));
  }
  return total;
}

}  // namespace draughts::clock::testing
