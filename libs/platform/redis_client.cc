#include "platform/redis_client.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <cerrno>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <mutex>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "platform/absl_compat.h"
#include "platform/redis_cluster.h"
#include "platform/store_metrics.h"

namespace draughts::platform {
namespace {

struct timeval NonNegativeTimeval(absl::Duration duration) {
  if (duration < absl::ZeroDuration()) duration = absl::ZeroDuration();
  return absl::ToTimeval(duration);
}

// hiredis writes with write(2); a write to a socket the server closed would
// raise SIGPIPE and kill the process. Ignore it (errors come back as EPIPE)
// unless the program installed its own handler.
void IgnoreSigpipeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current;
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      ::signal(SIGPIPE, SIG_IGN);
    }
  });
}

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

namespace {

absl::StatusOr<RedisOptions> ParseOneAddress(std::string_view address) {
  size_t colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == address.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("redis address \"", ToAbsl(address), "\" is not host:port"));
  }
  std::string_view host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  int port = 0;
  if (!absl::SimpleAtoi(ToAbsl(address.substr(colon + 1)), &port) || port <= 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("redis address \"", ToAbsl(address), "\" has no valid port"));
  }
  RedisOptions options;
  options.host = std::string(host);
  options.port = port;
  return options;
}

absl::Status ParseClusterParameter(std::string_view parameter, RedisOptions& options) {
  const size_t equals = parameter.find('=');
  int64_t value = -1;
  if (equals == std::string_view::npos ||
      !absl::SimpleAtoi(ToAbsl(parameter.substr(equals + 1)), &value) || value < 0) {
    return absl::InvalidArgumentError(absl::StrCat("redis cluster parameter \"", ToAbsl(parameter),
                                                   "\" is not name=non-negative number"));
  }
  const std::string_view name = parameter.substr(0, equals);
  if (name == "wait") {
    options.cluster_wait_replicas = static_cast<int>(value);
  } else if (name == "wait_timeout_ms") {
    options.cluster_wait_timeout = absl::Milliseconds(std::max<int64_t>(1, value));
  } else if (name == "failover_wait_ms") {
    options.cluster_failover_wait = absl::Milliseconds(value);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown redis cluster parameter \"",
                                                   ToAbsl(name),
                                                   "\" (wait, wait_timeout_ms, failover_wait_ms)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<RedisOptions> ParseRedisAddress(std::string_view address) {
  constexpr std::string_view kClusterScheme = "cluster://";
  const bool scheme = absl::StartsWith(ToAbsl(address), ToAbsl(kClusterScheme));
  if (!scheme && address.find(',') == std::string_view::npos) return ParseOneAddress(address);
  if (scheme) address.remove_prefix(kClusterScheme.size());
  std::string_view parameters;
  if (const size_t question = address.find('?'); question != std::string_view::npos) {
    parameters = address.substr(question + 1);
    address = address.substr(0, question);
  }
  RedisOptions options;
  for (absl::string_view seed : absl::StrSplit(ToAbsl(address), ',', absl::SkipEmpty())) {
    absl::StatusOr<RedisOptions> one = ParseOneAddress(ToStd(seed));
    if (!one.ok()) return one.status();
    options.cluster_seeds.emplace_back(one->host, one->port);
  }
  if (options.cluster_seeds.empty()) {
    return absl::InvalidArgumentError("redis cluster address names no host:port");
  }
  options.host = options.cluster_seeds.front().first;
  options.port = options.cluster_seeds.front().second;
  for (absl::string_view parameter : absl::StrSplit(ToAbsl(parameters), '&', absl::SkipEmpty())) {
    if (absl::Status status = ParseClusterParameter(ToStd(parameter), options); !status.ok()) {
      return status;
    }
  }
  return options;
}

void RedisClient::ContextDeleter::operator()(redisContext* context) const {
  redisFree(context);
}

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {
  if (!options_.cluster_seeds.empty()) cluster_ = std::make_unique<RedisClusterClient>(options_);
}

RedisClient::~RedisClient() = default;

void RedisClient::Disconnect() {
  context_.reset();
  if (cluster_ != nullptr) cluster_->Disconnect();
}

bool RedisClient::connected() const {
  return cluster_ != nullptr ? cluster_->connected() : context_ != nullptr;
}

absl::Status RedisClient::Connect() {
  if (cluster_ != nullptr) return cluster_->Connect();
  return EnsureConnected();
}

absl::Status RedisClient::ConnectionLost(std::string_view what) {
  std::string detail = context_ != nullptr ? context_->errstr : "no connection";
  context_.reset();
  return absl::UnavailableError(
      absl::StrCat("redis ", options_.host, ":", options_.port, ": ", ToAbsl(what), ": ", detail));
}

absl::Status RedisClient::ConnectOnce() {
  IgnoreSigpipeOnce();
  struct timeval timeout = NonNegativeTimeval(options_.connect_timeout);
  std::unique_ptr<redisContext, ContextDeleter> context(
      redisConnectWithTimeout(options_.host.c_str(), options_.port, timeout));
  if (context == nullptr) return absl::ResourceExhaustedError("redis: cannot allocate a context");
  if (context->err != 0) {
    return absl::UnavailableError(absl::StrCat("cannot connect to redis ", options_.host, ":",
                                               options_.port, ": ", context->errstr));
  }
  redisEnableKeepAlive(context.get());
  context_ = std::move(context);
  if (absl::Status status = SetTimeout(options_.command_timeout); !status.ok()) return status;

  // AUTH / SELECT are part of connecting: a reconnect must restore them.
  if (!options_.password.empty()) {
    auto reply = RunCommand({"AUTH", options_.password}, options_.command_timeout);
    if (!reply.ok()) {
      context_.reset();
      return reply.status();
    }
  }
  if (options_.database != 0) {
    std::string db = absl::StrCat(options_.database);
    auto reply = RunCommand({"SELECT", db}, options_.command_timeout);
    if (!reply.ok()) {
      context_.reset();
      return reply.status();
    }
  }
  return absl::OkStatus();
}

bool RedisClient::SocketLooksAlive() const {
  // Between commands the server never sends anything (a subscriber reads
  // with ReadPushed, not Command), so a readable or hung-up socket means the
  // server closed it.
  struct pollfd pfd = {context_->fd, POLLIN | POLLRDHUP, 0};
  int ready = ::poll(&pfd, 1, 0);
  return ready == 0;
}

absl::Status RedisClient::EnsureConnected() {
  if (context_ != nullptr && context_->err == 0 && SocketLooksAlive()) return absl::OkStatus();
  context_.reset();
  absl::Status last;
  absl::Duration backoff = options_.initial_backoff;
  int attempts = std::max(1, options_.connect_attempts);
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    last = ConnectOnce();
    if (last.ok()) return last;
    // Bad credentials or database will not fix themselves: stop at once.
    if (last.code() != absl::StatusCode::kUnavailable) return last;
    if (attempt < attempts) {
      absl::SleepFor(backoff);
      backoff = std::min(backoff * 2, options_.max_backoff);
    }
  }
  return absl::UnavailableError(absl::StrCat(last.message(), " (after ", attempts, " attempts)"));
}

absl::Status RedisClient::SetTimeout(absl::Duration timeout) {
  if (redisSetTimeout(context_.get(), NonNegativeTimeval(timeout)) != REDIS_OK) {
    return ConnectionLost("cannot set socket timeout");
  }
  return absl::OkStatus();
}

absl::StatusOr<RedisReply> RedisClient::RunCommand(const std::vector<std::string_view>& argv,
                                                   absl::Duration timeout, bool keep_error_reply) {
  if (argv.empty()) return absl::InvalidArgumentError("redis: empty command");
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  pointers.reserve(argv.size());
  lengths.reserve(argv.size());
  for (std::string_view arg : argv) {
    pointers.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  bool custom_timeout = timeout != options_.command_timeout;
  if (custom_timeout) {
    if (absl::Status status = SetTimeout(timeout); !status.ok()) return status;
  }
  ReplyPtr reply(static_cast<redisReply*>(redisCommandArgv(
      context_.get(), static_cast<int>(argv.size()), pointers.data(), lengths.data())));
  if (reply == nullptr) {
    return ConnectionLost(absl::StrCat("connection lost during ", ToAbsl(argv[0]),
                                       " (it may or may not have been applied)"));
  }
  if (custom_timeout) {
    if (absl::Status status = SetTimeout(options_.command_timeout); !status.ok()) return status;
  }
  RedisReply converted = RedisReply::FromHiredis(reply.get());
  if (converted.is_error() && !keep_error_reply) return RedisErrorToStatus(converted.text());
  return converted;
}

absl::StatusOr<RedisReply> RedisClient::RawCommand(const std::vector<std::string>& argv,
                                                   absl::Duration timeout) {
  if (argv.empty()) return absl::InvalidArgumentError("redis: empty command");
  const auto start = std::chrono::steady_clock::now();
  absl::Status connected = EnsureConnected();
  absl::StatusOr<RedisReply> reply =
      connected.ok() ? RunCommand(std::vector<std::string_view>(argv.begin(), argv.end()), timeout,
                                  /*keep_error_reply=*/true)
                     : absl::StatusOr<RedisReply>(std::move(connected));
  RecordRedisCall(
      argv[0], SecondsSince(start),
      reply.ok() && reply->is_error() ? RedisErrorToStatus(reply->text()) : reply.status(),
      /*blocking=*/timeout != options_.command_timeout);
  return reply;
}

absl::StatusOr<RedisReply> RedisClient::CommandWithTimeout(const std::vector<std::string>& argv,
                                                           absl::Duration timeout) {
  if (argv.empty()) return absl::InvalidArgumentError("redis: empty command");
  if (cluster_ != nullptr) return cluster_->Command(argv, timeout);
  const auto start = std::chrono::steady_clock::now();
  absl::Status connected = EnsureConnected();
  absl::StatusOr<RedisReply> reply =
      connected.ok() ? RunCommand(std::vector<std::string_view>(argv.begin(), argv.end()), timeout)
                     : absl::StatusOr<RedisReply>(std::move(connected));
  RecordRedisCall(argv[0], SecondsSince(start), reply.status(),
                  /*blocking=*/timeout != options_.command_timeout);
  return reply;
}

absl::StatusOr<RedisReply> RedisClient::Command(const std::vector<std::string>& argv) {
  return CommandWithTimeout(argv, options_.command_timeout);
}

absl::StatusOr<RedisReply> RedisClient::Command(std::initializer_list<std::string_view> argv) {
  if (argv.size() == 0) return absl::InvalidArgumentError("redis: empty command");
  if (cluster_ != nullptr) {
    return cluster_->Command(std::vector<std::string>(argv.begin(), argv.end()),
                             options_.command_timeout);
  }
  const auto start = std::chrono::steady_clock::now();
  absl::Status connected = EnsureConnected();
  absl::StatusOr<RedisReply> reply =
      connected.ok() ? RunCommand(std::vector<std::string_view>(argv), options_.command_timeout)
                     : absl::StatusOr<RedisReply>(std::move(connected));
  RecordRedisCall(*argv.begin(), SecondsSince(start), reply.status(), /*blocking=*/false);
  return reply;
}

absl::StatusOr<std::vector<RedisReply>> RedisClient::Pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  if (commands.empty()) return std::vector<RedisReply>();
  for (const std::vector<std::string>& command : commands) {
    if (command.empty()) return absl::InvalidArgumentError("redis: empty command in pipeline");
  }
  if (cluster_ != nullptr) return cluster_->Pipeline(commands);
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<RedisReply>> replies = RunPipeline(commands);
  RecordRedisCall("PIPELINE", SecondsSince(start), replies.status(), /*blocking=*/false);
  return replies;
}

absl::StatusOr<std::vector<RedisReply>> RedisClient::RunPipeline(
    const std::vector<std::vector<std::string>>& commands) {
  std::vector<RedisReply> replies;
  if (absl::Status status = EnsureConnected(); !status.ok()) return status;
  for (const std::vector<std::string>& command : commands) {
    std::vector<const char*> pointers;
    std::vector<size_t> lengths;
    for (const std::string& arg : command) {
      pointers.push_back(arg.data());
      lengths.push_back(arg.size());
    }
    if (redisAppendCommandArgv(context_.get(), static_cast<int>(command.size()), pointers.data(),
                               lengths.data()) != REDIS_OK) {
      return ConnectionLost("cannot buffer pipelined command");
    }
  }
  replies.reserve(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_.get(), &raw) != REDIS_OK) {
      return ConnectionLost(absl::StrCat("connection lost in a pipeline after ", i, " of ",
                                         commands.size(),
                                         " replies (the rest may or may not have been applied)"));
    }
    ReplyPtr reply(static_cast<redisReply*>(raw));
    replies.push_back(RedisReply::FromHiredis(reply.get()));
  }
  return replies;
}

absl::StatusOr<std::vector<RedisReply>> RedisClient::ReadPushed(absl::Duration timeout,
                                                                int wake_fd) {
  if (cluster_ != nullptr) {
    return absl::FailedPreconditionError(
        "redis: subscribe on one node of a cluster, not through it");
  }
  if (context_ == nullptr || context_->err != 0) return ConnectionLost("subscriber read");
  std::vector<RedisReply> pushed;
  // Replies already in hiredis's buffer first: poll() cannot see those.
  auto take_buffered = [&]() -> absl::Status {
    while (true) {
      void* raw = nullptr;
      if (redisGetReplyFromReader(context_.get(), &raw) != REDIS_OK) {
        return ConnectionLost("unreadable pushed message");
      }
      if (raw == nullptr) return absl::OkStatus();
      ReplyPtr reply(static_cast<redisReply*>(raw));
      pushed.push_back(RedisReply::FromHiredis(reply.get()));
    }
  };
  if (absl::Status status = take_buffered(); !status.ok()) return status;
  if (!pushed.empty()) return pushed;
  struct pollfd fds[2] = {{context_->fd, POLLIN | POLLRDHUP, 0}, {wake_fd, POLLIN, 0}};
  const int ready =
      ::poll(fds, wake_fd >= 0 ? 2 : 1,
             static_cast<int>(std::max<int64_t>(0, absl::ToInt64Milliseconds(timeout))));
  if (ready < 0 && errno != EINTR) return ConnectionLost("poll");
  if (ready <= 0 || fds[0].revents == 0) return pushed;
  if (redisBufferRead(context_.get()) != REDIS_OK) return ConnectionLost("subscriber read");
  if (absl::Status status = take_buffered(); !status.ok()) return status;
  return pushed;
}

}  // namespace draughts::platform
