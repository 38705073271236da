#include "gateway_env.h"

#include <unistd.h>

#include <fstream>

#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"
#include "platform/testing/test_env.h"

namespace draughts::gateway::testing {

absl::Status GatewayEnv::Start() {
  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis,
                            platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis));
  std::string random = NewSessionId().substr(0, 8);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  prefix_ = absl::StrCat("gw-it-", getpid(), "-", random, ":");

  web_root_ = std::filesystem::temp_directory_path() / absl::StrCat("gateway-web-", getpid());
  std::filesystem::create_directories(web_root_ / "js");
  std::ofstream(web_root_ / "index.html") << "<!doctype html><title>draughts</title>";
  std::ofstream(web_root_ / "js" / "app.js") << "export const ok = true;";

  game_state::RedisKeys& keys = keys_;
  keys.prefix = prefix_;
  keys.bot_jobs_stream = prefix_ + "bot-jobs";
  keys.results_stream = prefix_ + "results";
  pool_ = std::make_unique<platform::RedisPool>(redis_options, 8);
  relay_ = std::make_unique<game_state::OutboxRelay>(pool_.get(), keys);
  store_ = std::make_unique<game_state::RedisGameStore>(pool_.get(), keys, relay_.get());
  feed_ = std::make_unique<game_state::RedisEventFeed>(pool_.get(), redis_options, keys);
  sealer_ = std::make_unique<game_state::TokenSealer>(game_state::TokenSealer::Ephemeral());
  registry_ = std::make_shared<prometheus::Registry>();
  game_metrics_ = std::make_unique<game_state::GameMetrics>(*registry_);
  game_state::GameServiceDeps deps;
  deps.store = store_.get();
  deps.feed = feed_.get();
  deps.sealer = sealer_.get();
  deps.metrics = game_metrics_.get();
  service_ = std::make_unique<game_state::GameServiceImpl>(std::move(deps));
  platform::ServeOptions serve;
  serve.address = "127.0.0.1:0";
  serve.metrics_registry = registry_;
  serve.drain = absl::ZeroDuration();
  DRAUGHTS_ASSIGN_OR_RETURN(server_, platform::RunningServer::Start(serve, {service_.get()}));

  metrics_ = std::make_unique<GatewayMetrics>(*registry_);
  platform::GrpcClientOptions game_client_options;
  game_client_options.target = absl::StrCat("127.0.0.1:", server_->port());
  game_client_options.metrics_registry = registry_;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GameClient> game_client,
                            GameClient::Create(game_client_options));
  games_ = std::make_unique<GameBackend>(std::move(game_client));
  platform::GrpcClientOptions rating_client_options;
  rating_client_options.target = rating_address_;
  rating_client_options.metrics_registry = registry_;
  // Short: the test of an absent rating service waits for the retries.
  rating_client_options.timeout = absl::Seconds(2);
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<RatingClient> rating_client,
                            RatingClient::Create(rating_client_options));
  archive_ = std::make_unique<ArchiveBackend>(std::move(rating_client));
  if (accounts_enabled_) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string pg,
                              platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG"));
    platform::PgPoolOptions pg_options;
    pg_options.conninfo = pg;
    pg_options.size = 2;
    account_store_ = std::make_unique<PgAccountStore>(pg_options);
    limiter_ = std::make_unique<LoginLimiter>(pool_.get(), prefix_, limits_);
    DRAUGHTS_RETURN_IF_ERROR(account_store_->Ping());
  }
  absl::Status started;
  gateway_ = NewGateway(&started);
  return started;
}

std::unique_ptr<GatewayServer> GatewayEnv::NewGateway(absl::Status* status) {
  GatewayOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.web_root = web_root_;
  options.io_threads = 2;
  options.worker_threads = 4;
  options.max_sockets = 50;
  options.shutdown_timeout = absl::Seconds(10);
  replica_sessions_.push_back(std::make_unique<RedisSessionStore>(pool_.get(), prefix_));
  replica_idempotency_.push_back(std::make_unique<RedisIdempotencyStore>(pool_.get(), prefix_));
  AccountHandlers* accounts = nullptr;
  if (accounts_enabled_) {
    absl::StatusOr<PasswordHasher> hasher = PasswordHasher::Create(hashing_);
    if (!hasher.ok()) {
      *status = hasher.status();
      return nullptr;
    }
    hashers_.push_back(std::make_unique<PasswordHasher>(*std::move(hasher)));
    replica_accounts_.push_back(std::make_unique<AccountHandlers>(
        replica_sessions_.back().get(), account_store_.get(), hashers_.back().get(), limiter_.get(),
        metrics_.get(), false));
    accounts = replica_accounts_.back().get();
  }
  auto gateway = std::make_unique<GatewayServer>(options, replica_sessions_.back().get(),
                                                 replica_idempotency_.back().get(), games_.get(),
                                                 archive_.get(), metrics_.get(), accounts);
  *status = gateway->Start();
  return gateway;
}

std::unique_ptr<GatewayServer> GatewayEnv::NewGatewayWithAccounts(AccountStore* store,
                                                                  PasswordHashOptions hashing,
                                                                  absl::Status* status) {
  GatewayOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.web_root = web_root_;
  options.io_threads = 1;
  options.worker_threads = 4;
  options.max_sockets = 50;
  options.shutdown_timeout = absl::Seconds(10);
  replica_sessions_.push_back(std::make_unique<RedisSessionStore>(pool_.get(), prefix_));
  replica_idempotency_.push_back(std::make_unique<RedisIdempotencyStore>(pool_.get(), prefix_));
  if (limiter_ == nullptr) limiter_ = std::make_unique<LoginLimiter>(pool_.get(), prefix_, limits_);
  absl::StatusOr<PasswordHasher> hasher = PasswordHasher::Create(hashing);
  if (!hasher.ok()) {
    *status = hasher.status();
    return nullptr;
  }
  hashers_.push_back(std::make_unique<PasswordHasher>(*std::move(hasher)));
  replica_accounts_.push_back(std::make_unique<AccountHandlers>(
      replica_sessions_.back().get(), store, hashers_.back().get(), limiter_.get(), metrics_.get(),
      false));
  auto gateway = std::make_unique<GatewayServer>(
      options, replica_sessions_.back().get(), replica_idempotency_.back().get(), games_.get(),
      archive_.get(), metrics_.get(), replica_accounts_.back().get());
  *status = gateway->Start();
  return gateway;
}

GatewayEnv::~GatewayEnv() {
  gateway_.reset();
  games_.reset();
  archive_.reset();
  if (service_ != nullptr) service_->BeginShutdown();
  if (server_ != nullptr) server_->DrainAndStop(absl::ZeroDuration(), absl::Seconds(2));
  server_.reset();
  service_.reset();
  feed_.reset();
  store_.reset();
  relay_.reset();
  if (!web_root_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(web_root_, ignored);
  }
}

}  // namespace draughts::gateway::testing
