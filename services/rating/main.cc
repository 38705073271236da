// rating: serves draughts.v1.RatingService and records every finished game
// from the results stream (archive, history, Elo). Wiring only; the logic
// is in archiver.h, results_consumer.h, rating_book.h and elo.h, the stores
// in pg_archive_store.h and redis_result_source.h.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/pg_migrations.h"
#include "platform/pg_pool.h"
#include "platform/readiness.h"
#include "platform/redis_client.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/shutdown_signal.h"
#include "platform/status_macros.h"
#include "rating/archive_metrics.h"
#include "rating/archiver.h"
#include "rating/pg_archive_store.h"
#include "rating/rating_service.h"
#include "rating/redis_result_source.h"
#include "rating/results_consumer.h"

namespace draughts::rating {
namespace {

std::string DefaultConsumerName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "rating", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec("rating",
                            "Ratings (draughts.v1.RatingService) and the archive of every finished "
                            "game, from the results stream into PostgreSQL.");
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_RATING", 50055, 9105);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port (results stream)");
  spec.AddString("pg", "DRAUGHTS_PG", "host=127.0.0.1 dbname=draughts connect_timeout=5",
                 "libpq connection string of the archive's PostgreSQL (keep a connect_timeout: "
                 "the readiness probe waits for it)");
  spec.AddInt("pg-pool-size", "DRAUGHTS_RATING_PG_POOL_SIZE", 4, "pooled PostgreSQL connections");
  spec.AddString("results-stream", "DRAUGHTS_RESULTS_STREAM", "draughts:results",
                 "Redis stream of ResultRecord written by game-state");
  spec.AddString("consumer-group", "DRAUGHTS_RATING_CONSUMER_GROUP", "rating",
                 "consumer group on the results stream, shared by every replica");
  spec.AddString("consumer-name", "DRAUGHTS_RATING_CONSUMER_NAME", "",
                 "this replica's name in the group (default hostname-pid; must be unique)");
  spec.AddDuration("claim-idle", "DRAUGHTS_RATING_CLAIM_IDLE", absl::Minutes(1),
                   "how long an entry stays pending with a stopped consumer before another "
                   "replica takes it over");
  spec.AddString("pdn-site", "DRAUGHTS_PDN_SITE", "draughts platform",
                 "the Site tag of exported PDN");
  spec.AddInt("initial-rating", "DRAUGHTS_RATING_INITIAL", 1500,
              "everyone's Elo at the start of each month, in each rule set");
  spec.AddInt("batch-size", "DRAUGHTS_RATING_BATCH_SIZE", 100,
              "results stream entries read and recorded in one transaction");
  return spec;
}

// The pool, with the migrations applied. While PostgreSQL is unreachable
// it waits and retries (a database that starts after us is no reason to
// crash-loop); null if a shutdown signal came meanwhile. Other errors (a
// malformed conninfo, a failed migration) end the start.
absl::StatusOr<std::unique_ptr<platform::PgPool>> OpenArchive(
    const platform::PgPoolOptions& options, platform::ShutdownSignal& signal) {
  absl::Duration backoff = absl::Milliseconds(200);
  while (true) {
    absl::StatusOr<std::unique_ptr<platform::PgPool>> pool = platform::PgPool::Create(options);
    absl::Status status = pool.status();
    if (pool.ok()) {
      absl::StatusOr<std::vector<int64_t>> applied =
          platform::ApplyMigrations(**pool, "rating", RatingMigrations());
      if (applied.ok()) {
        if (!applied->empty()) {
          platform::LogInfo("migrations applied", {{"count", applied->size()}});
        }
        return pool;
      }
      status = applied.status();
    }
    if (status.code() != absl::StatusCode::kUnavailable) return status;
    platform::LogWarn("PostgreSQL unreachable at start: retrying",
                      {{"status", status}, {"backoff", absl::FormatDuration(backoff)}});
    if (signal.WaitFor(backoff).has_value()) return std::unique_ptr<platform::PgPool>();
    backoff = std::min(backoff * 2, absl::Seconds(10));
  }
}

absl::Status Run(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection costs a graph update on
  // every lock and is a debugging aid.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "rating"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  ResultGroup group;
  DRAUGHTS_ASSIGN_OR_RETURN(group.stream, config.GetString("results-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.group, config.GetString("consumer-group"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.consumer, config.GetString("consumer-name"));
  if (group.consumer.empty()) group.consumer = DefaultConsumerName();
  if (group.stream.empty() || group.group.empty()) {
    return absl::InvalidArgumentError("--results-stream and --consumer-group must not be empty");
  }
  ResultsConsumerOptions consumer_options;
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.claim_idle, config.GetDuration("claim-idle"));
  if (consumer_options.claim_idle < absl::Seconds(1)) {
    return absl::InvalidArgumentError(
        "--claim-idle must be at least 1s (a live consumer's entries would be taken from it)");
  }
  consumer_options.claim_every =
      std::clamp(consumer_options.claim_idle / 2, absl::Seconds(1), absl::Seconds(30));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t batch_size, config.GetInt("batch-size"));
  if (batch_size < 1 || batch_size > 1000) {
    return absl::InvalidArgumentError("--batch-size must be 1-1000");
  }
  consumer_options.batch_size = static_cast<int>(batch_size);
  RatingServiceOptions service_options;
  DRAUGHTS_ASSIGN_OR_RETURN(service_options.pdn.site, config.GetString("pdn-site"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t initial_rating, config.GetInt("initial-rating"));
  if (initial_rating < 100 || initial_rating > 4000) {
    return absl::InvalidArgumentError("--initial-rating must be 100-4000");
  }
  service_options.elo.initial = static_cast<int>(initial_rating);

  platform::PgPoolOptions pg_options;
  DRAUGHTS_ASSIGN_OR_RETURN(pg_options.conninfo, config.GetString("pg"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pg_pool_size, config.GetInt("pg-pool-size"));
  if (pg_pool_size < 1 || pg_pool_size > 256) {
    return absl::InvalidArgumentError("--pg-pool-size must be 1-256");
  }
  pg_options.size = static_cast<int>(pg_pool_size);
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::ShutdownSignal> signal,
                            platform::ShutdownSignal::Install());
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::PgPool> pg, OpenArchive(pg_options, *signal));
  if (pg == nullptr) return absl::OkStatus();  // stopped while waiting

  ArchiveMetrics metrics(*platform::MetricsRegistry());
  PgArchiveStore archive(pg.get(), service_options.elo, &metrics);
  Archiver archiver(&archive, &metrics);
  RedisResultSource source(redis_options, group);
  ResultsConsumer consumer(&source, &archiver, &metrics, consumer_options);
  service_options.metrics = &metrics;
  RatingServiceImpl service(&archive, service_options);

  // Without Redis no result is archived, without PostgreSQL no call is
  // answered: health says NOT_SERVING until both answer again.
  serve.readiness_probes = {platform::RedisReadinessProbe(redis_options),
                            platform::PgReadinessProbe(*pg)};

  serve.shutdown_signal = signal.get();
  serve.on_started = [&](int grpc_port, int) {
    consumer.Start();
    platform::LogInfo("recording results", {{"redis", redis_address},
                                            {"stream", group.stream},
                                            {"group", group.group},
                                            {"consumer", group.consumer}});
    platform::PrintListeningPort(grpc_port);
  };
  // Entries being handled finish; the rest stay pending for the next start
  // or another replica.
  serve.on_shutdown_requested = [&] { consumer.Stop(); };
  return platform::Serve(serve, {&service});
}

}  // namespace
}  // namespace draughts::rating

int main(int argc, char** argv) {
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::rating::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "rating: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
