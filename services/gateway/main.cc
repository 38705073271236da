// gateway: the HTTP + WebSocket edge of the platform for browsers. Wiring
// only; see gateway_server.h and docs/WEB_PROTOCOL.md.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gateway/account_handlers.h"
#include "gateway/archive_backend.h"
#include "gateway/chat_backend.h"
#include "gateway/clock_backend.h"
#include "gateway/game_backend.h"
#include "gateway/gateway_config.h"
#include "gateway/gateway_metrics.h"
#include "gateway/gateway_server.h"
#include "gateway/listen_address.h"
#include "gateway/lobby_handlers.h"
#include "gateway/login_limiter.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/password_hasher.h"
#include "gateway/pg_account_store.h"
#include "gateway/redis_idempotency_store.h"
#include "gateway/redis_session_store.h"
#include "platform/allocator_tuning.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/redis_pool.h"
#include "platform/service_options.h"
#include "platform/shutdown_signal.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

absl::Status CheckRange(const char* name, int64_t value, int64_t low, int64_t high) {
  if (value < low || value > high) {
    return absl::InvalidArgumentError(absl::StrCat("--", name, " must be ", low, "-", high));
  }
  return absl::OkStatus();
}

absl::Status Run(int argc, char** argv) {
  const platform::ConfigSpec spec = GatewayConfigSpec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "gateway"));

  GatewayOptions options;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string listen, config.GetString("listen"));
  DRAUGHTS_ASSIGN_OR_RETURN(ListenAddress address, ParseListenAddress(listen));
  options.host = address.host;
  options.port = address.port;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t metrics_port, config.GetInt("metrics-port"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("metrics-port", metrics_port, -1, 65535));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string web_root, config.GetString("web-root"));
  options.web_root = web_root;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t io_threads, config.GetInt("io-threads"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("io-threads", io_threads, 1, 64));
  options.io_threads = static_cast<int>(io_threads);
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t worker_threads, config.GetInt("worker-threads"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("worker-threads", worker_threads, 1, 1024));
  options.worker_threads = static_cast<int>(worker_threads);
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t max_sockets, config.GetInt("max-sockets"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("max-sockets", max_sockets, 1, 100000));
  options.max_sockets = static_cast<int>(max_sockets);
  DRAUGHTS_ASSIGN_OR_RETURN(options.shutdown_timeout, config.GetDuration("shutdown-timeout"));
  if (options.shutdown_timeout < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--shutdown-timeout must not be negative");
  }
  if (!std::filesystem::is_directory(options.web_root)) {
    platform::LogWarn("--web-root is not a directory: only the API is served",
                      {{"web_root", web_root}});
  }

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string key_prefix, config.GetString("session-key-prefix"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string game_state, config.GetString("game-state"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string rating, config.GetString("rating"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string matchmaking_address, config.GetString("matchmaking"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string clock_address, config.GetString("clock"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string chat_address, config.GetString("chat"));

  DRAUGHTS_ASSIGN_OR_RETURN(options.secure_cookie, config.GetBool("secure-cookie"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.client_address_header,
                            config.GetString("client-address-header"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string pg_conninfo, config.GetString("pg"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pg_pool_size, config.GetInt("pg-pool-size"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("pg-pool-size", pg_pool_size, 1, 256));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t opslimit, config.GetInt("password-opslimit"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t memlimit_kib, config.GetInt("password-memlimit-kib"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("password-opslimit", opslimit, 1, 100));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("password-memlimit-kib", memlimit_kib, 8, 4 << 20));
  LoginLimits limits;
  DRAUGHTS_ASSIGN_OR_RETURN(limits.per_name, config.GetInt("login-limit-per-name"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("login-limit-per-name", limits.per_name, 1, 1000000));
  DRAUGHTS_ASSIGN_OR_RETURN(limits.per_address, config.GetInt("login-limit-per-address"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("login-limit-per-address", limits.per_address, 1, 1000000));
  DRAUGHTS_ASSIGN_OR_RETURN(limits.window, config.GetDuration("login-limit-window"));
  if (limits.window < absl::Seconds(1)) {
    return absl::InvalidArgumentError("--login-limit-window must be at least 1s");
  }

  platform::RedisPool pool(redis_options, options.worker_threads);
  RedisSessionStore sessions(&pool, key_prefix);
  RedisIdempotencyStore idempotency(&pool, key_prefix);
  GatewayMetrics metrics(*platform::MetricsRegistry());
  platform::GrpcClientOptions game_client_options;
  game_client_options.target = game_state;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GameClient> game_client,
                            GameClient::Create(game_client_options));
  GameBackend games(std::move(game_client));
  platform::GrpcClientOptions rating_client_options;
  rating_client_options.target = rating;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<RatingClient> rating_client,
                            RatingClient::Create(rating_client_options));
  ArchiveBackend archive(std::move(rating_client));
  platform::GrpcClientOptions matchmaking_client_options;
  matchmaking_client_options.target = matchmaking_address;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<MatchmakingClient> matchmaking_client,
                            MatchmakingClient::Create(matchmaking_client_options));
  MatchmakingBackend matchmaking(std::move(matchmaking_client));
  platform::GrpcClientOptions clock_client_options;
  clock_client_options.target = clock_address;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<ClockClient> clock_client,
                            ClockClient::Create(clock_client_options));
  ClockBackend clock(std::move(clock_client));
  platform::GrpcClientOptions chat_client_options;
  chat_client_options.target = chat_address;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<ChatClient> chat_client,
                            ChatClient::Create(chat_client_options));
  ChatBackend chat(std::move(chat_client));
  // The lobby reads players' ratings for quick pairing over a channel of
  // its own (the archive's client is owned by ArchiveBackend).
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<RatingReader> rating_reader,
                            RatingReader::Create(rating_client_options));
  ActionRateLimits lobby_limits;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t actions_per_second, config.GetInt("lobby-actions-per-second"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("lobby-actions-per-second", actions_per_second, 1, 10000));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t action_burst, config.GetInt("lobby-action-burst"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange("lobby-action-burst", action_burst, 1, 10000));
  lobby_limits.per_second = static_cast<double>(actions_per_second);
  lobby_limits.burst = static_cast<double>(action_burst);
  LobbyHandlers lobby(&idempotency, &matchmaking, rating_reader.get(), lobby_limits);

  // Accounts: only with --pg. The store connects on first use, so a
  // database that is down (or not up yet) leaves guest play untouched.
  std::unique_ptr<PgAccountStore> account_store;
  std::unique_ptr<PasswordHasher> hasher;
  std::unique_ptr<LoginLimiter> limiter;
  std::unique_ptr<AccountHandlers> accounts;
  if (!pg_conninfo.empty()) {
    platform::PgPoolOptions pg_options;
    pg_options.conninfo = pg_conninfo;
    pg_options.size = static_cast<int>(pg_pool_size);
    account_store = std::make_unique<PgAccountStore>(pg_options);
    PasswordHashOptions hash_options;
    hash_options.opslimit = static_cast<uint64_t>(opslimit);
    hash_options.memlimit = static_cast<std::size_t>(memlimit_kib) * 1024;
    DRAUGHTS_ASSIGN_OR_RETURN(PasswordHasher created, PasswordHasher::Create(hash_options));
    hasher = std::make_unique<PasswordHasher>(std::move(created));
    limiter = std::make_unique<LoginLimiter>(&pool, key_prefix, limits);
    accounts = std::make_unique<AccountHandlers>(&sessions, account_store.get(), hasher.get(),
                                                 limiter.get(), &metrics, options.secure_cookie);
    // Connect now if we can (migrations applied before the first request);
    // if not, the first account request tries again.
    (void)account_store->Ping();
  }

  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::ShutdownSignal> signal,
                            platform::ShutdownSignal::Install());
  int bound_metrics_port = 0;
  if (metrics_port >= 0) {
    DRAUGHTS_ASSIGN_OR_RETURN(bound_metrics_port, platform::StartMetricsExposer(
                                                      "0.0.0.0", static_cast<int>(metrics_port)));
  }
  GatewayServer server(options, &sessions, &idempotency, &games, &archive, &metrics, accounts.get(),
                       &matchmaking, &lobby);
  server.EnableTableSockets(&clock, &chat);
  DRAUGHTS_RETURN_IF_ERROR(server.Start());
  platform::LogInfo("serving", {{"port", server.port()},
                                {"malloc", platform::MallocProvider()},
                                {"metrics_port", bound_metrics_port},
                                {"game_state", game_state},
                                {"rating", rating},
                                {"matchmaking", matchmaking_address},
                                {"clock", clock_address},
                                {"chat", chat_address},
                                {"redis", redis_address},
                                {"accounts", accounts != nullptr ? "postgres" : "disabled"},
                                {"web_root", web_root}});
  // For scripts and tests that start us on port 0.
  std::printf("LISTENING %d\n", server.port());
  std::fflush(stdout);

  const int signal_number = signal->Wait();
  platform::LogInfo("shutdown requested: closing sockets", {{"signal", signal_number}});
  server.Shutdown();
  platform::StopMetricsExposer();
  platform::LogInfo("stopped");
  return absl::OkStatus();
}

}  // namespace
}  // namespace draughts::gateway

int main(int argc, char** argv) {
  draughts::platform::ReexecWithAllocatorTuning(argv);
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::gateway::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "gateway: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
