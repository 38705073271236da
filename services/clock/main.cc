// clock: serves draughts.v1.ClockService, arms deadlines from the deadlines
// stream and fires them (automatic moves, the disconnect rule) through
// game-state. Wiring only; the logic is in deadline_firer.h,
// deadline_scheduler.h, deadlines_consumer.h and clock_service.h, the
// storage in redis_clock_store.h.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "clock/clock_metrics.h"
#include "clock/clock_service.h"
#include "clock/deadline_firer.h"
#include "clock/deadline_scheduler.h"
#include "clock/deadlines_consumer.h"
#include "clock/grpc_game_calls.h"
#include "clock/redis_clock_store.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/readiness.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/status_macros.h"

namespace draughts::clock {
namespace {

std::string DefaultConsumerName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "clock", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec("clock",
                            "Per-move deadlines and the presence of players "
                            "(draughts.v1.ClockService) over Redis.");
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_CLOCK", 50053, 9103);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port");
  spec.AddInt("redis-pool-size", "DRAUGHTS_CLOCK_REDIS_POOL_SIZE", 48,
              "pooled Redis connections (firing workers, the claim loop and calls share them)");
  spec.AddString("key-prefix", "DRAUGHTS_CLOCK_KEY_PREFIX", "",
                 "prefix of every Redis key of the clock (the same on every replica)");
  spec.AddInt("shards", "DRAUGHTS_CLOCK_SHARDS", 16,
              "timer sets the games are spread over (Redis Cluster slots); the same on every "
              "replica, never changed while games run");
  spec.AddString("game-state", "DRAUGHTS_GAME_STATE_ADDR", "127.0.0.1:50051",
                 "game-state host:port (PlayAutomaticMove, RecordPresence, DeclareAbandoned)");
  spec.AddDuration("game-state-timeout", "DRAUGHTS_CLOCK_GAME_STATE_TIMEOUT", absl::Seconds(5),
                   "time budget of one call to game-state, retries on UNAVAILABLE included");
  spec.AddString("deadlines-stream", "DRAUGHTS_DEADLINES_STREAM", "draughts:deadlines",
                 "Redis stream of ClockUpdate written by game-state (its full key)");
  spec.AddString("consumer-group", "DRAUGHTS_CLOCK_CONSUMER_GROUP", "clock",
                 "consumer group on the deadlines stream, shared by every replica");
  spec.AddString("consumer-name", "DRAUGHTS_CLOCK_CONSUMER_NAME", "",
                 "this replica's name in the group (default hostname-pid; must be unique)");
  spec.AddDuration("claim-idle", "DRAUGHTS_CLOCK_CLAIM_IDLE", absl::Seconds(30),
                   "how long a deadlines stream entry stays pending with a stopped replica "
                   "before another takes it over");
  spec.AddDuration("poll-interval", "DRAUGHTS_CLOCK_POLL_INTERVAL", absl::Milliseconds(50),
                   "how often each replica claims the timers that are due");
  spec.AddDuration("claim-lease", "DRAUGHTS_CLOCK_CLAIM_LEASE", absl::Seconds(10),
                   "how long a claimed timer is this replica's; one claimed by a replica that "
                   "died fires again after it (must exceed --game-state-timeout)");
  spec.AddInt("fire-workers", "DRAUGHTS_CLOCK_FIRE_WORKERS", 64,
              "threads firing due timers (calls to game-state) at once");
  spec.AddDuration("heartbeat-interval", "DRAUGHTS_CLOCK_HEARTBEAT_INTERVAL", absl::Seconds(10),
                   "how often the gateway beats per connection (Heartbeat's answer); a seat is "
                   "connected while a connection beat within 3 intervals");
  spec.AddDuration("abandon-after", "DRAUGHTS_CLOCK_ABANDON_AFTER", absl::Minutes(2),
                   "how long a seat may stay disconnected before its game is abandoned (the "
                   "2-minute rule: at least 2m unless --allow-short-times)");
  spec.AddBool("allow-short-times", "DRAUGHTS_CLOCK_ALLOW_SHORT_TIMES", false,
               "TESTS ONLY: accept an --abandon-after under 2m and sub-second intervals");
  return spec;
}

absl::Status CheckRange(absl::Duration value, absl::Duration low, absl::Duration high,
                        const std::string& flag) {
  if (value < low || value > high) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, " must be ", absl::FormatDuration(low), "-", absl::FormatDuration(high)));
  }
  return absl::OkStatus();
}

absl::Status Run(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection costs a graph update on
  // every lock and is a debugging aid.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "clock"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));

  DRAUGHTS_ASSIGN_OR_RETURN(const bool short_times, config.GetBool("allow-short-times"));
  // Production values are checked against the product's rules; tests may
  // shorten them to run in seconds.
  const absl::Duration min_interval = short_times ? absl::Milliseconds(20) : absl::Seconds(1);
  const absl::Duration min_abandon = short_times ? absl::Milliseconds(100) : absl::Minutes(2);

  FirerOptions firer_options;
  PresenceSettings& presence = firer_options.presence;
  DRAUGHTS_ASSIGN_OR_RETURN(presence.heartbeat_interval, config.GetDuration("heartbeat-interval"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange(presence.heartbeat_interval, min_interval, absl::Seconds(60),
                                      "heartbeat-interval"));
  DRAUGHTS_ASSIGN_OR_RETURN(presence.abandon_after, config.GetDuration("abandon-after"));
  DRAUGHTS_RETURN_IF_ERROR(
      CheckRange(presence.abandon_after, min_abandon, absl::Hours(1), "abandon-after"));
  firer_options.retry_delay = std::min(absl::Seconds(1), presence.abandon_after / 4);

  SchedulerOptions scheduler_options;
  DRAUGHTS_ASSIGN_OR_RETURN(scheduler_options.poll_interval, config.GetDuration("poll-interval"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange(scheduler_options.poll_interval, absl::Milliseconds(5),
                                      absl::Seconds(1), "poll-interval"));
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration call_timeout, config.GetDuration("game-state-timeout"));
  DRAUGHTS_RETURN_IF_ERROR(
      CheckRange(call_timeout, absl::Milliseconds(100), absl::Minutes(1), "game-state-timeout"));
  DRAUGHTS_ASSIGN_OR_RETURN(scheduler_options.claim_lease, config.GetDuration("claim-lease"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange(scheduler_options.claim_lease,
                                      short_times ? absl::Milliseconds(200) : absl::Seconds(1),
                                      absl::Minutes(10), "claim-lease"));
  if (scheduler_options.claim_lease <= call_timeout) {
    return absl::InvalidArgumentError(
        "--claim-lease must exceed --game-state-timeout (a firing still waiting for game-state "
        "would be repeated by another replica)");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t workers, config.GetInt("fire-workers"));
  if (workers < 1 || workers > 256)
    return absl::InvalidArgumentError("--fire-workers must be 1-256");
  scheduler_options.workers = static_cast<int>(workers);

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pool_size, config.GetInt("redis-pool-size"));
  if (pool_size < 2 || pool_size > 1024) {
    return absl::InvalidArgumentError("--redis-pool-size must be 2-1024");
  }
  RedisClockStoreOptions store_options;
  DRAUGHTS_ASSIGN_OR_RETURN(store_options.key_prefix, config.GetString("key-prefix"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t shards, config.GetInt("shards"));
  if (shards < 1 || shards > 1024) return absl::InvalidArgumentError("--shards must be 1-1024");
  store_options.shards = static_cast<int>(shards);
  store_options.abandon_after = presence.abandon_after;

  DeadlinesConsumerOptions consumer_options;
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.stream, config.GetString("deadlines-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.group, config.GetString("consumer-group"));
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.consumer, config.GetString("consumer-name"));
  if (consumer_options.consumer.empty()) consumer_options.consumer = DefaultConsumerName();
  if (consumer_options.stream.empty() || consumer_options.group.empty()) {
    return absl::InvalidArgumentError("--deadlines-stream and --consumer-group must not be empty");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.claim_idle, config.GetDuration("claim-idle"));
  DRAUGHTS_RETURN_IF_ERROR(CheckRange(consumer_options.claim_idle,
                                      short_times ? absl::Milliseconds(200) : absl::Seconds(1),
                                      absl::Hours(1), "claim-idle"));
  consumer_options.claim_every =
      std::clamp(consumer_options.claim_idle / 2, absl::Milliseconds(100), absl::Seconds(30));

  DRAUGHTS_ASSIGN_OR_RETURN(std::string game_state_address, config.GetString("game-state"));
  platform::GrpcClientOptions client_options;
  client_options.target = game_state_address;
  client_options.timeout = call_timeout;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GrpcGameCalls::Client> game_client,
                            GrpcGameCalls::Client::Create(std::move(client_options)));

  ClockMetrics metrics(*platform::MetricsRegistry());
  platform::RedisPool pool(redis_options, static_cast<int>(pool_size));
  RedisClockStore store(&pool, store_options);
  if (absl::Status loaded = store.Preload(); !loaded.ok()) {
    // Not fatal: Redis may come up after us; scripts load on first use.
    platform::LogWarn("Redis not ready at startup", {{"status", loaded}});
  }
  GrpcGameCalls game(std::move(game_client));
  DeadlineFirer firer(&store, &game, &metrics, firer_options);
  DeadlineScheduler scheduler(&store, &firer, &metrics, scheduler_options);
  DeadlinesConsumer consumer(redis_options, &store, &metrics, consumer_options);
  ClockServiceDeps deps;
  deps.store = &store;
  deps.metrics = &metrics;
  deps.presence = presence;
  ClockServiceImpl service(std::move(deps));

  // Without Redis nothing is armed or fired: NOT_SERVING meanwhile.
  serve.readiness_probes = {platform::RedisReadinessProbe(pool)};
  serve.on_started = [&](int grpc_port, int) {
    consumer.Start();
    scheduler.Start();
    platform::LogInfo("clock", {{"redis", redis_address},
                                {"game_state", game_state_address},
                                {"stream", consumer_options.stream},
                                {"consumer", consumer_options.consumer},
                                {"abandon_after", presence.abandon_after}});
    platform::PrintListeningPort(grpc_port);
  };
  // Claimed timers are fired before the process ends; what is not claimed
  // yet stays in Redis for the other replicas.
  serve.on_shutdown_requested = [&] {
    consumer.Stop();
    scheduler.Stop();
  };
  return platform::Serve(serve, {&service});
}

}  // namespace
}  // namespace draughts::clock

int main(int argc, char** argv) {
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::clock::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "clock: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
