#include "bot_env.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <random>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/redis_consumer_group.h"
#include "platform/testing/test_env.h"

namespace draughts::bot::testing {
namespace {

std::string HttpGet(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string body;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request =
        absl::StrCat("GET ", path, " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char chunk[4096];
      ssize_t n = 0;
      while ((n = read(fd, chunk, sizeof chunk)) > 0) body.append(chunk, static_cast<size_t>(n));
    }
  }
  close(fd);
  return body;
}

}  // namespace

v1::Seat BotSeat(v1::BotLevel level, const std::string& engine_id) {
  v1::Seat seat;
  seat.set_kind(v1::SEAT_KIND_BOT);
  seat.set_display_name("Robot");
  seat.set_bot_level(level);
  seat.set_engine_id(engine_id);
  return seat;
}

void BotIntegrationTest::SetUp() {
  absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(redis.ok()) << redis.status();
  redis_address_ = *redis;
  absl::StatusOr<platform::RedisOptions> options = platform::ParseRedisAddress(redis_address_);
  ASSERT_TRUE(options.ok()) << options.status();
  redis_ = std::make_unique<platform::RedisClient>(*options);
  std::mt19937_64 random(std::random_device{}());
  prefix_ = absl::StrCat("bot-it-", getpid(), "-", random() % 1000000000, ":");
  StartGameState();
}

void BotIntegrationTest::TearDown() {
  game_.reset();
  if (game_state_ != nullptr) game_state_->Kill();
  if (redis_ != nullptr) {
    // The test's keys: games, outboxes and streams.
    std::string cursor = "0";
    do {
      absl::StatusOr<platform::RedisReply> scan =
          redis_->Command({"SCAN", cursor, "MATCH", prefix_ + "*", "COUNT", "1000"});
      if (!scan.ok() || scan->elements().size() != 2) break;
      cursor = scan->elements()[0].text();
      for (const platform::RedisReply& key : scan->elements()[1].elements()) {
        (void)redis_->Command({"DEL", key.text()});
      }
    } while (cursor != "0");
  }
}

void BotIntegrationTest::StartGameState() {
  auto process = ServerProcess::Start(
      GAME_STATE_BINARY,
      {absl::StrCat("--redis=", redis_address_), absl::StrCat("--key-prefix=", prefix_),
       "--metrics-port=-1", "--drain=0s", "--shutdown-timeout=2s", "--log-level=warn"});
  ASSERT_TRUE(process.ok()) << process.status();
  game_state_ = *std::move(process);
  game_ = v1::GameService::NewStub(
      grpc::CreateChannel(game_state_->address(), grpc::InsecureChannelCredentials()));
}

BotProcess BotIntegrationTest::StartBot(const std::string& consumer,
                                        const std::vector<std::string>& extra_args) {
  BotProcess bot;
  absl::StatusOr<int> metrics_port = platform::testing::PickFreePort();
  EXPECT_TRUE(metrics_port.ok()) << metrics_port.status();
  if (!metrics_port.ok()) return bot;
  bot.metrics_port = *metrics_port;
  std::vector<std::string> args = {absl::StrCat("--redis=", redis_address_),
                                   absl::StrCat("--game-state=", game_state_->address()),
                                   "--jobs-stream=" + JobsStream(),
                                   "--consumer-group=bot",
                                   "--consumer-name=" + consumer,
                                   absl::StrCat("--metrics-port=", bot.metrics_port),
                                   "--drain=0s",
                                   "--shutdown-timeout=2s",
                                   "--log-level=warn",
                                   "--jobs-per-worker=2",
                                   "--claim-idle=2s",
                                   "--hard-move-time=150ms",
                                   "--easy-pause=0s",
                                   "--table-mb=2"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto process = ServerProcess::Start(BOT_BINARY, args);
  EXPECT_TRUE(process.ok()) << process.status();
  if (!process.ok()) return bot;
  bot.process = *std::move(process);
  platform::StreamConsumer group({.stream = JobsStream(), .group = "bot", .consumer = "test"});
  EXPECT_TRUE(WaitFor([&] { return group.Info(*redis_).ok(); }))
      << "the bot never created its consumer group";
  return bot;
}

v1::CreateGameResponse BotIntegrationTest::CreateGameAgainst(const v1::Seat& bot,
                                                             const std::string& fen,
                                                             int move_limit) {
  v1::CreateGameRequest request;
  request.set_idempotency_key(absl::StrCat("bot-it-", std::random_device{}()));
  request.set_variant("english");
  request.set_initial_fen(fen);
  request.mutable_options()->set_move_limit(move_limit);
  *request.mutable_black() = bot;
  v1::Seat& person = *request.mutable_white();
  person.set_kind(v1::SEAT_KIND_PERSON);
  person.set_player_id("p-ann");
  person.set_display_name("Ann");
  v1::CreateGameResponse response;
  grpc::ClientContext context;
  const grpc::Status status = game_->CreateGame(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response;
}

v1::GameState BotIntegrationTest::GetGame(const std::string& game_id) {
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  v1::GetGameResponse response;
  grpc::ClientContext context;
  const grpc::Status status = game_->GetGame(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  return response.game();
}

PlayedGame BotIntegrationTest::PlayToTheEnd(const v1::CreateGameResponse& game,
                                            absl::Duration timeout) {
  PlayedGame played;
  const absl::Time deadline = absl::Now() + timeout;
  absl::Time submitted = absl::InfinitePast();
  int last_ply = -1;
  while (absl::Now() < deadline) {
    const v1::GameState state = GetGame(game.game_id());
    const bool over = state.result() != v1::GAME_RESULT_ONGOING;
    if (state.ply() != last_ply && last_ply >= 0 && submitted != absl::InfinitePast() &&
        (over || state.side_to_move() == v1::COLOR_WHITE)) {
      // The bot answered the player's last move.
      played.reply_times.push_back(absl::Now() - submitted);
      submitted = absl::InfinitePast();
    }
    if (over) {
      played.final_state = state;
      break;
    }
    if (state.side_to_move() != v1::COLOR_WHITE) {
      absl::SleepFor(absl::Milliseconds(10));
      continue;
    }
    v1::ListLegalMovesRequest list;
    list.set_game_id(game.game_id());
    v1::ListLegalMovesResponse moves;
    {
      grpc::ClientContext context;
      const grpc::Status status = game_->ListLegalMoves(&context, list, &moves);
      EXPECT_TRUE(status.ok()) << status.error_message();
      if (!status.ok() || moves.moves().empty()) break;
    }
    v1::SubmitMoveRequest move;
    move.set_game_id(game.game_id());
    move.set_player_token(game.white_player_token());
    move.set_move(moves.moves(0).notation());
    move.set_expected_ply(state.ply());
    v1::SubmitMoveResponse answer;
    grpc::ClientContext context;
    const grpc::Status status = game_->SubmitMove(&context, move, &answer);
    EXPECT_TRUE(status.ok()) << status.error_message();
    if (!status.ok()) break;
    submitted = absl::Now();
    last_ply = answer.game().ply();
  }
  // Black (the bot) moved first from the FEN: it played every even ply.
  played.bot_moves = (played.final_state.ply() + 1) / 2;
  return played;
}

int64_t BotIntegrationTest::PendingJobs(const std::string& consumer) {
  platform::StreamConsumer group({.stream = JobsStream(), .group = "bot", .consumer = "test"});
  absl::StatusOr<platform::PendingSummary> pending = group.Pending(*redis_);
  if (!pending.ok()) return -1;
  if (consumer.empty()) return pending->count;
  for (const auto& [name, count] : pending->per_consumer) {
    if (name == consumer) return count;
  }
  return 0;
}

double BotIntegrationTest::ScrapeMetric(int metrics_port, const std::string& name,
                                        const std::string& label) {
  const std::string body = HttpGet(metrics_port, "/metrics");
  if (body.empty()) return -1;
  std::istringstream lines(body);
  std::string line;
  double sum = 0;
  while (std::getline(lines, line)) {
    if (line.rfind(name, 0) != 0 || line.size() <= name.size()) continue;
    const char next = line[name.size()];
    if (next != '{' && next != ' ') continue;
    if (!label.empty() && line.find(label) == std::string::npos) continue;
    double value = 0;
    if (absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &value)) sum += value;
  }
  return sum;
}

bool BotIntegrationTest::WaitFor(const std::function<bool()>& condition, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!condition()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return true;
}

}  // namespace draughts::bot::testing
