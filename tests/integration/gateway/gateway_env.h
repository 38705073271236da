// A whole stack for the gateway tests, in this process: GameService (the
// game_state library) over the test Redis on a free port, and the gateway
// in front of it on another free port, with a small web root. Every key
// carries a prefix unique to the run. The archive routes call a rating
// service at rating_address (none runs there unless a test starts one).
#ifndef DRAUGHTS_TESTS_INTEGRATION_GATEWAY_GATEWAY_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_GATEWAY_GATEWAY_ENV_H_

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "game_state/event_feed_redis.h"
#include "game_state/game_metrics.h"
#include "game_state/game_service.h"
#include "game_state/outbox_relay.h"
#include "game_state/player_tokens.h"
#include "game_state/redis_game_store.h"
#include "gateway/account_handlers.h"
#include "gateway/archive_backend.h"
#include "gateway/game_backend.h"
#include "gateway/gateway_metrics.h"
#include "gateway/gateway_server.h"
#include "gateway/login_limiter.h"
#include "gateway/password_hasher.h"
#include "gateway/pg_account_store.h"
#include "gateway/redis_idempotency_store.h"
#include "gateway/redis_session_store.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"

namespace draughts::gateway::testing {

class GatewayEnv {
 public:
  GatewayEnv() = default;
  ~GatewayEnv();

  // Before Start(): where the gateway finds RatingService (default: a port
  // nothing listens on, so the archive routes answer 503).
  void set_rating_address(std::string address) { rating_address_ = std::move(address); }

  // Before Start(): serve the account routes, over the PostgreSQL of
  // DRAUGHTS_TEST_PG, with these limits and small Argon2id factors unless
  // given. Start() then fails with a clear message when it is not set.
  void EnableAccounts(LoginLimits limits, PasswordHashOptions hashing = {1, 8 << 10}) {
    accounts_enabled_ = true;
    limits_ = limits;
    hashing_ = hashing;
  }

  // Fails with a clear message when DRAUGHTS_TEST_REDIS is not set.
  absl::Status Start();

  // The Redis stream game_state writes finished games' results to (what a
  // rating service must consume); valid after Start().
  std::string results_stream() const { return keys_.Results(); }

  int port() const { return gateway_->port(); }
  // The in-process GameService, for tests that call it directly (as
  // matchmaking will).
  int game_state_port() const { return server_->port(); }
  const std::filesystem::path& web_root() const { return web_root_; }

  // Another gateway replica on the same stack, with store adapters of its
  // own (so what it shares with the first is only what is in Redis).
  std::unique_ptr<GatewayServer> NewGateway(absl::Status* status);
  // A replica whose accounts use `store` and `hashing` (a database that is
  // down, other work factors); the limiter and Redis are shared.
  std::unique_ptr<GatewayServer> NewGatewayWithAccounts(AccountStore* store,
                                                        PasswordHashOptions hashing,
                                                        absl::Status* status);
  // The key prefix of this run (every Redis key the gateway writes has it).
  const std::string& prefix() const { return prefix_; }
  // The accounts store of the first gateway (after EnableAccounts).
  AccountStore* account_store() { return account_store_.get(); }
  prometheus::Registry& registry() { return *registry_; }
  platform::RedisPool& redis() { return *pool_; }
  // The first gateway's session store.
  RedisSessionStore& sessions() { return *replica_sessions_.front(); }
  // The first gateway's idempotency store.
  RedisIdempotencyStore& idempotency() { return *replica_idempotency_.front(); }

 private:
  std::string prefix_;
  std::string rating_address_ = "127.0.0.1:1";
  game_state::RedisKeys keys_;
  std::filesystem::path web_root_;
  std::unique_ptr<platform::RedisPool> pool_;
  std::unique_ptr<game_state::OutboxRelay> relay_;
  std::unique_ptr<game_state::RedisGameStore> store_;
  std::unique_ptr<game_state::RedisEventFeed> feed_;
  std::unique_ptr<game_state::TokenSealer> sealer_;
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<game_state::GameMetrics> game_metrics_;
  std::unique_ptr<game_state::GameServiceImpl> service_;
  std::unique_ptr<platform::RunningServer> server_;
  // One per replica; they outlive every gateway.
  std::vector<std::unique_ptr<RedisSessionStore>> replica_sessions_;
  std::vector<std::unique_ptr<RedisIdempotencyStore>> replica_idempotency_;
  std::unique_ptr<GatewayMetrics> metrics_;
  std::unique_ptr<GameBackend> games_;
  std::unique_ptr<ArchiveBackend> archive_;
  bool accounts_enabled_ = false;
  LoginLimits limits_;
  PasswordHashOptions hashing_;
  std::unique_ptr<PgAccountStore> account_store_;
  std::unique_ptr<LoginLimiter> limiter_;
  std::vector<std::unique_ptr<PasswordHasher>> hashers_;
  std::vector<std::unique_ptr<AccountHandlers>> replica_accounts_;
  std::unique_ptr<GatewayServer> gateway_;
};

}  // namespace draughts::gateway::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_GATEWAY_GATEWAY_ENV_H_
