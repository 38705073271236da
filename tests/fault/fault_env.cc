#include "fault_env.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "platform/redis_client.h"
#include "platform/redis_streams.h"
#include "platform/testing/test_env.h"

extern char** environ;

namespace draughts::fault {
namespace {

absl::StatusOr<std::string> TempDir(const std::string& stem) {
  std::string pattern = (std::filesystem::temp_directory_path() / (stem + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp: ", std::strerror(errno)));
  }
  return pattern;
}

bool RedisAnswers(int port) {
  platform::RedisOptions options;
  options.port = port;
  options.connect_attempts = 1;
  options.connect_timeout = absl::Milliseconds(200);
  platform::RedisClient client(options);
  absl::StatusOr<platform::RedisReply> pong = client.Command({"PING"});
  return pong.ok() && pong->type() != platform::RedisReply::Type::kError;
}

// The shell-quoted form of `text`, for std::system / popen.
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool Transient(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
         status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
}

}  // namespace

int EnvInt(const char* name, int fallback) {
  const char* text = std::getenv(name);
  int value = 0;
  return text != nullptr && absl::SimpleAtoi(text, &value) ? value : fallback;
}

bool WaitFor(const std::function<bool()>& condition, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!condition()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return true;
}

// ---------------------------------------------------------------- AofRedis

absl::StatusOr<std::unique_ptr<AofRedis>> AofRedis::Start(const std::string& binary,
                                                          const std::string& appendfsync) {
  absl::StatusOr<std::string> dir = TempDir("draughts-fault-redis");
  if (!dir.ok()) return dir.status();
  absl::Status launched;
  for (int attempt = 0; attempt < 5; ++attempt) {
    absl::StatusOr<int> port = platform::testing::PickFreePort();
    if (!port.ok()) return port.status();
    std::unique_ptr<AofRedis> redis(new AofRedis(binary, appendfsync, *port, *dir));
    launched = redis->Launch();
    if (launched.ok()) return redis;
  }
  return launched;
}

AofRedis::~AofRedis() {
  Kill();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string AofRedis::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

absl::Status AofRedis::Launch() {
  std::vector<std::string> args = {binary_,
                                   "--port",
                                   absl::StrCat(port_),
                                   "--bind",
                                   "127.0.0.1",
                                   "--save",
                                   "",
                                   "--appendonly",
                                   "yes",
                                   "--appendfsync",
                                   appendfsync_,
                                   "--dir",
                                   dir_,
                                   "--logfile",
                                   dir_ + "/redis.log",
                                   "--daemonize",
                                   "no"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, binary_.c_str(), nullptr, nullptr, argv.data(), environ);
  if (rc != 0) return absl::FailedPreconditionError(absl::StrCat("spawn ", binary_, ": ", rc));
  pid_ = pid;
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (absl::Now() < deadline) {
    // Answers PING only once the append-only file is loaded.
    if (RedisAnswers(port_)) return absl::OkStatus();
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return absl::UnavailableError(absl::StrCat("redis-server exited at start, see ", dir_));
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  Kill();
  return absl::DeadlineExceededError("redis-server did not answer within 20 s");
}

void AofRedis::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

absl::Status AofRedis::Restart() {
  Kill();
  absl::Status status;
  // The port may linger a moment after the kill.
  for (int attempt = 0; attempt < 50; ++attempt) {
    status = Launch();
    if (status.ok()) return status;
    absl::SleepFor(absl::Milliseconds(100));
  }
  return status;
}

// --------------------------------------------------------- PrivatePostgres

absl::StatusOr<std::unique_ptr<PrivatePostgres>> PrivatePostgres::Start(const std::string& pg_bin) {
  absl::StatusOr<std::string> dir = TempDir("draughts-fault-pg");
  if (!dir.ok()) return dir.status();
  absl::StatusOr<int> port = platform::testing::PickFreePort();
  if (!port.ok()) return port.status();
  std::unique_ptr<PrivatePostgres> pg(new PrivatePostgres(pg_bin, *port, *dir));
  if (absl::Status status = pg->Run(absl::StrCat("init ", Quoted(*dir), " ", *port));
      !status.ok()) {
    return status;
  }
  pg->running_ = true;
  return pg;
}

PrivatePostgres::~PrivatePostgres() {
  Run(absl::StrCat("destroy ", Quoted(dir_))).IgnoreError();
}

std::string PrivatePostgres::conninfo() const {
  return absl::StrCat("host=127.0.0.1 port=", port_,
                      " dbname=draughts_test user=postgres connect_timeout=2");
}

absl::Status PrivatePostgres::Run(const std::string& command) const {
  const std::string line =
      absl::StrCat("PG_BIN=", Quoted(pg_bin_), " ", FAULT_PRIVATE_PG, " ", command);
  const int rc = std::system(line.c_str());
  if (rc != 0) return absl::InternalError(absl::StrCat("`", line, "` failed (", rc, ")"));
  return absl::OkStatus();
}

absl::Status PrivatePostgres::Stop() {
  running_ = false;
  return Run(absl::StrCat("stop ", Quoted(dir_)));
}

absl::Status PrivatePostgres::Resume() {
  absl::Status status = Run(absl::StrCat("start ", Quoted(dir_), " ", port_));
  running_ = status.ok();
  return status;
}

absl::StatusOr<std::string> PrivatePostgres::Query(const std::string& sql) const {
  const std::string line = absl::StrCat("PG_BIN=", Quoted(pg_bin_), " ", FAULT_PRIVATE_PG,
                                        " query ", port_, " ", Quoted(sql));
  FILE* pipe = ::popen(line.c_str(), "r");
  if (pipe == nullptr) return absl::InternalError("popen failed");
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  const int rc = ::pclose(pipe);
  if (rc != 0) return absl::UnavailableError(absl::StrCat("query failed: ", sql));
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// ------------------------------------------------------ RetryingGameClient

RetryingGameClient::RetryingGameClient(const std::vector<std::string>& addresses,
                                       absl::Duration patience)
    : patience_(patience) {
  for (const std::string& address : addresses) {
    stubs_.push_back(
        v1::GameService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials())));
  }
}

grpc::Status RetryingGameClient::Call(
    const std::function<grpc::Status(v1::GameService::Stub&, grpc::ClientContext*)>& call) {
  const absl::Time give_up = absl::Now() + patience_;
  absl::Duration pause = absl::Milliseconds(20);
  while (true) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    const grpc::Status status = call(*stubs_[next_], &context);
    if (!Transient(status) || absl::Now() + pause > give_up) return status;
    // The replica may be gone: the next attempt goes to the next one.
    ++retries_;
    next_ = (next_ + 1) % stubs_.size();
    absl::SleepFor(pause);
    pause = std::min(pause * 2, absl::Milliseconds(500));
  }
}

grpc::Status RetryingGameClient::CreateGame(const v1::CreateGameRequest& request,
                                            v1::CreateGameResponse* response) {
  return Call([&](v1::GameService::Stub& stub, grpc::ClientContext* context) {
    return stub.CreateGame(context, request, response);
  });
}

grpc::Status RetryingGameClient::ListLegalMoves(const std::string& game_id,
                                                v1::ListLegalMovesResponse* response) {
  v1::ListLegalMovesRequest request;
  request.set_game_id(game_id);
  return Call([&](v1::GameService::Stub& stub, grpc::ClientContext* context) {
    return stub.ListLegalMoves(context, request, response);
  });
}

grpc::Status RetryingGameClient::SubmitMove(const v1::SubmitMoveRequest& request,
                                            v1::SubmitMoveResponse* response) {
  return Call([&](v1::GameService::Stub& stub, grpc::ClientContext* context) {
    return stub.SubmitMove(context, request, response);
  });
}

grpc::Status RetryingGameClient::Resign(const v1::ResignRequest& request,
                                        v1::ResignResponse* response) {
  return Call([&](v1::GameService::Stub& stub, grpc::ClientContext* context) {
    return stub.Resign(context, request, response);
  });
}

grpc::Status RetryingGameClient::GetGame(const std::string& game_id, v1::GameState* game) {
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  v1::GetGameResponse response;
  grpc::Status status = Call([&](v1::GameService::Stub& stub, grpc::ClientContext* context) {
    return stub.GetGame(context, request, &response);
  });
  *game = response.game();
  return status;
}

// ------------------------------------------------------------ playing

PlayedMoves PlayGame(RetryingGameClient& client, const v1::CreateGameRequest& request, int plies,
                     const std::function<void()>& after_each_move) {
  PlayedMoves played;
  v1::CreateGameResponse created;
  played.failure = client.CreateGame(request, &created);
  if (!played.failure.ok()) return played;
  played.game_id = created.game_id();
  played.white_token = created.white_player_token();
  played.black_token = created.black_player_token();
  played.last = created.game();
  while (static_cast<int>(played.acknowledged.size()) < plies &&
         played.last.result() == v1::GAME_RESULT_ONGOING) {
    v1::ListLegalMovesResponse legal;
    played.failure = client.ListLegalMoves(played.game_id, &legal);
    if (!played.failure.ok()) return played;
    if (legal.moves_size() == 0) break;
    v1::SubmitMoveRequest move;
    move.set_game_id(played.game_id);
    move.set_player_token(legal.side_to_move() == v1::COLOR_WHITE ? created.white_player_token()
                                                                  : created.black_player_token());
    move.set_move(legal.moves(legal.ply() % legal.moves_size()).notation());
    move.set_expected_ply(legal.ply());
    v1::SubmitMoveResponse response;
    played.failure = client.SubmitMove(move, &response);
    if (!played.failure.ok()) return played;
    played.acknowledged.push_back(response.move().notation());
    played.last = response.game();
    if (after_each_move) after_each_move();
  }
  return played;
}

std::string CompareWithEventStream(const std::string& redis_address, const std::string& events_key,
                                   const std::vector<std::string>& acknowledged) {
  absl::StatusOr<platform::RedisOptions> options = platform::ParseRedisAddress(redis_address);
  if (!options.ok()) return options.status().ToString();
  platform::RedisClient redis(*options);
  absl::StatusOr<std::vector<platform::StreamEntry>> entries =
      platform::StreamRange(redis, events_key);
  if (!entries.ok()) return entries.status().ToString();
  std::vector<std::string> in_stream;
  for (const platform::StreamEntry& entry : *entries) {
    for (const auto& [field, value] : entry.fields) {
      v1::GameEvent event;
      if (field == "data" && event.ParseFromString(value) && event.has_move_played()) {
        in_stream.push_back(event.move_played().notation());
      }
    }
  }
  if (in_stream == acknowledged) return "";
  return absl::StrCat("acknowledged [", absl::StrJoin(acknowledged, " "), "] but the stream has [",
                      absl::StrJoin(in_stream, " "), "]");
}

}  // namespace draughts::fault
