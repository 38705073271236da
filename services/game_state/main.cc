// game_state: serves draughts.v1.GameService over Redis. Wiring only; the
// logic is in game_service.h and the storage in redis_game_store.h.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "game_state/event_feed_redis.h"
#include "game_state/game_service.h"
#include "game_state/live_games_gauge.h"
#include "game_state/outbox_relay.h"
#include "game_state/player_tokens.h"
#include "game_state/redis_game_store.h"
#include "platform/allocator_tuning.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/readiness.h"
#include "platform/redis_pipeliner.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/shutdown_signal.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

std::string DefaultReplicaId() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "game-state", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec(
      "game_state", "The authoritative draughts game (draughts.v1.GameService) over Redis.");
  // --listen (port 0 picks a free one, printed as LISTENING <port>),
  // --metrics-port, --log-level, --drain, --shutdown-timeout.
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_GAME_STATE", 50051, 9101);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port");
  spec.AddInt("redis-pool-size", "DRAUGHTS_REDIS_POOL_SIZE", 16, "pooled Redis connections");
  spec.AddInt("redis-pipeline-connections", "DRAUGHTS_GAME_STATE_PIPELINE_CONNECTIONS", 2,
              "connections carrying the moves' commits, each folding the commits in flight into "
              "one round trip");
  spec.AddString("replica-id", "DRAUGHTS_REPLICA_ID", "", "name in logs (default hostname-pid)");
  spec.AddString("token-secret", "DRAUGHTS_TOKEN_SECRET", "",
                 "secret shared by every replica (16+ bytes): lets a retried CreateGame return "
                 "the player tokens on any replica");
  spec.AddString("key-prefix", "DRAUGHTS_GAME_STATE_KEY_PREFIX", "",
                 "prefix of every Redis key (to share a Redis between environments)");
  spec.AddString("bot-jobs-stream", "DRAUGHTS_BOT_JOBS_STREAM", "draughts:bot-jobs",
                 "Redis stream of BotJob for the bot workers");
  spec.AddString("results-stream", "DRAUGHTS_RESULTS_STREAM", "draughts:results",
                 "Redis stream of ResultRecord for the rating and matchmaking services");
  spec.AddString("deadlines-stream", "DRAUGHTS_DEADLINES_STREAM", "draughts:deadlines",
                 "Redis stream of ClockUpdate for the clock service");
  spec.AddString("chat-notices-stream", "DRAUGHTS_CHAT_NOTICES_STREAM", "draughts:chat-notices",
                 "Redis stream of ChatNoticeRecord for the chat service");
  spec.AddDuration("finished-retention", "DRAUGHTS_FINISHED_RETENTION", absl::Hours(72),
                   "how long a finished game stays readable (at least 24h)");
  spec.AddInt("outbox-queue", "DRAUGHTS_GAME_STATE_OUTBOX_QUEUE", 10000,
              "committed changes waiting to be forwarded to the global streams; past this the "
              "sweeper forwards them a few seconds later");
  spec.AddDuration("idle-retention", "DRAUGHTS_IDLE_RETENTION", absl::Hours(24 * 14),
                   "how long an ongoing game may stay untouched before it is dropped");
  return spec;
}

absl::Status Run(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection costs a graph update on
  // every lock and is a debugging aid.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "game-state"));

  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string replica_id, config.GetString("replica-id"));
  if (replica_id.empty()) replica_id = DefaultReplicaId();

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pool_size, config.GetInt("redis-pool-size"));
  if (pool_size < 1 || pool_size > 1024) {
    return absl::InvalidArgumentError("--redis-pool-size must be 1-1024");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pipeline_connections,
                            config.GetInt("redis-pipeline-connections"));
  if (pipeline_connections < 1 || pipeline_connections > 64) {
    return absl::InvalidArgumentError("--redis-pipeline-connections must be 1-64");
  }
  OutboxRelayOptions relay_options;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t outbox_queue, config.GetInt("outbox-queue"));
  if (outbox_queue < 1 || outbox_queue > 10000000) {
    return absl::InvalidArgumentError("--outbox-queue must be 1-10000000");
  }
  relay_options.max_queued = static_cast<int>(outbox_queue);
  RedisKeys keys;
  DRAUGHTS_ASSIGN_OR_RETURN(keys.prefix, config.GetString("key-prefix"));
  DRAUGHTS_ASSIGN_OR_RETURN(keys.bot_jobs_stream, config.GetString("bot-jobs-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(keys.results_stream, config.GetString("results-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(keys.deadlines_stream, config.GetString("deadlines-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(keys.chat_notices_stream, config.GetString("chat-notices-stream"));
  RedisGameStoreOptions store_options;
  DRAUGHTS_ASSIGN_OR_RETURN(store_options.finished_retention,
                            config.GetDuration("finished-retention"));
  DRAUGHTS_ASSIGN_OR_RETURN(store_options.idle_retention, config.GetDuration("idle-retention"));
  // One Redis: a move's messages go to the global streams in its commit
  // script. A cluster keeps them in the game's slot (outbox) for the relay.
  store_options.direct_messages = redis_options.cluster_seeds.empty();
  store_options.stream_max_length = relay_options.stream_max_length;
  if (store_options.finished_retention < absl::Hours(24) ||
      store_options.idle_retention < absl::Hours(24)) {
    return absl::InvalidArgumentError(
        "--finished-retention and --idle-retention must be at least 24h (idempotency keys are "
        "remembered that long)");
  }

  DRAUGHTS_ASSIGN_OR_RETURN(std::string secret, config.GetString("token-secret"));
  std::unique_ptr<TokenSealer> sealer;
  if (secret.empty()) {
    platform::LogWarn(
        "no --token-secret: a CreateGame retried on another replica cannot return the tokens");
    sealer = std::make_unique<TokenSealer>(TokenSealer::Ephemeral());
  } else {
    DRAUGHTS_ASSIGN_OR_RETURN(TokenSealer shared, TokenSealer::FromSecret(secret));
    sealer = std::make_unique<TokenSealer>(std::move(shared));
  }

  GameMetrics metrics(*platform::MetricsRegistry());
  platform::RedisPool pool(redis_options, static_cast<int>(pool_size));
  // Without Redis every call fails: health says NOT_SERVING meanwhile, so
  // balancers send calls to replicas that can answer them.
  serve.readiness_probes = {platform::RedisReadinessProbe(pool)};
  // Declared before the store and the service: destroyed after them, it
  // forwards what the last calls queued (see the end of Run).
  OutboxRelay relay(&pool, keys, relay_options, &metrics, platform::MetricsRegistry().get());
  // Before the store and the service: the last commits' callbacks run on
  // its threads, which its destructor joins after the server stopped.
  platform::RedisPipeliner pipeliner(redis_options,
                                     {.connections = static_cast<int>(pipeline_connections)});
  RedisGameStore store(&pool, keys, &relay, store_options);
  store.set_pipeliner(&pipeliner);
  if (absl::Status loaded = store.Preload(); !loaded.ok()) {
    // Not fatal: Redis may come up after us; scripts load on first use.
    platform::LogWarn("Redis not ready at startup", {{"status", loaded}});
  }
  relay.StartSweeper();
  LiveGamesGauge live_games(
      &pool, {.live_games_key = keys.LiveGames(), .idle_retention = store_options.idle_retention},
      *platform::MetricsRegistry());
  live_games.Start();
  RedisEventFeed feed(&pool, redis_options, keys);
  GameServiceDeps deps;
  deps.metrics = &metrics;
  deps.store = &store;
  deps.feed = &feed;
  deps.sealer = sealer.get();
  GameServiceImpl service(std::move(deps));

  serve.on_started = [&](int grpc_port, int) {
    platform::LogInfo("game state", {{"replica", replica_id}, {"redis", redis_address}});
    platform::PrintListeningPort(grpc_port);
  };
  // Watchers are told to resume elsewhere at once; the rest drains.
  // The relay keeps forwarding during the drain: calls still commit then.
  serve.on_shutdown_requested = [&] { service.BeginShutdown(); };
  const absl::Status served = platform::Serve(serve, {&service});
  // No call runs any more: forward what is queued while Redis is known.
  relay.Stop();
  return served;
}

}  // namespace
}  // namespace draughts::game_state

int main(int argc, char** argv) {
  draughts::platform::ReexecWithAllocatorTuning(argv);
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::game_state::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "game_state: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
