// bot: the bot workers (bot jobs stream -> engine -> GameService.SubmitMove)
// and draughts.v1.BotService. Wiring only; the workers are in
// job_worker_pool.h, the engines in move_chooser.h and engine_catalog.h.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "bot/bot_metrics.h"
#include "bot/bot_service.h"
#include "bot/engine_catalog.h"
#include "bot/grpc_move_submitter.h"
#include "bot/hub_engine_config.h"
#include "bot/job_worker_pool.h"
#include "bot/move_chooser.h"
#include "bot/redis_job_source.h"
#include "egdb/registry.h"
#include "engine/book.h"
#include "platform/config.h"
#include "platform/grpc_client.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/readiness.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/status_macros.h"
#include "rules/variant.h"

namespace draughts::bot {
namespace {

std::string DefaultConsumerName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "bot", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec("bot",
                            "Bot workers (bot jobs stream -> engine -> GameService.SubmitMove) and "
                            "draughts.v1.BotService.");
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_BOT", 50054, 9104);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port (bot jobs stream)");
  spec.AddString("game-state", "DRAUGHTS_GAME_STATE_ADDR", "127.0.0.1:50051",
                 "game-state host:port (SubmitMove)");
  spec.AddString("jobs-stream", "DRAUGHTS_BOT_JOBS_STREAM", "draughts:bot-jobs",
                 "Redis stream of BotJob written by game-state");
  spec.AddString("consumer-group", "DRAUGHTS_BOT_CONSUMER_GROUP", "bot",
                 "consumer group on the jobs stream, shared by every bot process");
  spec.AddString("consumer-name", "DRAUGHTS_BOT_CONSUMER_NAME", "",
                 "this process's name in the group (default hostname-pid; must be unique)");
  spec.AddInt("jobs-per-worker", "DRAUGHTS_BOT_JOBS_PER_WORKER", 4,
              "jobs this process thinks about at once (one thread and engine each)");
  spec.AddDuration("claim-idle", "DRAUGHTS_BOT_CLAIM_IDLE", absl::Seconds(15),
                   "how long a job stays pending with a stopped worker before another takes it "
                   "over (well above the longest think)");
  spec.AddString("engines", "DRAUGHTS_BOT_ENGINES", "",
                 "file listing the external Hub engines (see README); empty: built-in only");
  spec.AddInt("search-threads", "DRAUGHTS_BOT_SEARCH_THREADS", 2,
              "ChooseMove searches at once; more get RESOURCE_EXHAUSTED");
  spec.AddDuration("easy-pause", "DRAUGHTS_BOT_EASY_PAUSE", absl::Milliseconds(800),
                   "Easy moves no sooner than a random 50-100% of this after the human's move "
                   "(0s: at once)");
  spec.AddDuration("hard-move-time", "DRAUGHTS_BOT_HARD_MOVE_TIME", absl::ZeroDuration(),
                   "Hard's thinking time in games (0s: the level's own, about 1.5s); for tests");
  spec.AddInt("table-mb", "DRAUGHTS_BOT_TABLE_MB", 16,
              "transposition table per search thread, in MB");
  spec.AddString("book-dir", "DRAUGHTS_BOT_BOOK_DIR", "",
                 "directory of opening books (*.book, data/book) Medium and Hard play from; "
                 "empty: none");
  spec.AddDuration("stop-grace", "DRAUGHTS_BOT_STOP_GRACE", absl::Seconds(3),
                   "at SIGTERM, how long moves being thought about may take before their search "
                   "is cut (then submitted)");
  return spec;
}

// A book that cannot be read is left out (the engine searches instead) and
// logged; a directory that cannot be read stops the start.
absl::StatusOr<std::shared_ptr<const engine::BookShelf>> LoadBooks(const std::string& directory) {
  auto shelf = std::make_shared<engine::BookShelf>();
  rules::Result<engine::BookShelf::LoadReport> report = shelf->LoadDirectory(directory);
  if (!report.ok()) return absl::InvalidArgumentError("--book-dir: " + report.error().message);
  for (const std::string& loaded : report->loaded) {
    platform::LogInfo("opening book loaded", {{"book", loaded}});
  }
  for (const std::string& refused : report->refused) {
    platform::LogError("opening book refused: playing without it", {{"error", refused}});
  }
  return std::shared_ptr<const engine::BookShelf>(std::move(shelf));
}

// The endgame databases of $DRAUGHTS_EGDB_DIR load before the first job
// instead of within some game's first endgame move (English's 6 pieces take
// seconds to read).
void LoadEndgameDatabases() {
  const std::shared_ptr<egdb::Registry> registry = egdb::Registry::FromEnvironment();
  if (registry == nullptr) return;
  for (const rules::Variant& variant : rules::AllVariants()) {
    if (registry->For(variant) != nullptr) {
      platform::LogInfo("endgame databases loaded", {{"variant", variant.id}});
    }
  }
}

absl::Status Run(int argc, char** argv) {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  // A write to an external engine that died must be an error, not our end.
  signal(SIGPIPE, SIG_IGN);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "bot"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string game_state_address, config.GetString("game-state"));
  JobGroup group;
  DRAUGHTS_ASSIGN_OR_RETURN(group.stream, config.GetString("jobs-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.group, config.GetString("consumer-group"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.consumer, config.GetString("consumer-name"));
  if (group.consumer.empty()) group.consumer = DefaultConsumerName();
  if (group.stream.empty() || group.group.empty()) {
    return absl::InvalidArgumentError("--jobs-stream and --consumer-group must not be empty");
  }
  JobWorkerPoolOptions pool_options;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t jobs_per_worker, config.GetInt("jobs-per-worker"));
  if (jobs_per_worker < 1 || jobs_per_worker > 1024) {
    return absl::InvalidArgumentError("--jobs-per-worker must be 1-1024");
  }
  pool_options.jobs_per_worker = static_cast<int>(jobs_per_worker);
  DRAUGHTS_ASSIGN_OR_RETURN(pool_options.claim_idle, config.GetDuration("claim-idle"));
  if (pool_options.claim_idle < absl::Seconds(1)) {
    return absl::InvalidArgumentError(
        "--claim-idle must be at least 1s (a living worker's jobs would be taken from it)");
  }
  pool_options.claim_every =
      std::clamp(pool_options.claim_idle / 3, absl::Milliseconds(500), absl::Seconds(10));
  DRAUGHTS_ASSIGN_OR_RETURN(pool_options.easy_pause, config.GetDuration("easy-pause"));
  if (pool_options.easy_pause < absl::ZeroDuration() ||
      pool_options.easy_pause > absl::Seconds(10)) {
    return absl::InvalidArgumentError("--easy-pause must be 0s-10s");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t table_mb, config.GetInt("table-mb"));
  if (table_mb < 1 || table_mb > 4096)
    return absl::InvalidArgumentError("--table-mb must be 1-4096");
  pool_options.table_megabytes = static_cast<std::size_t>(table_mb);
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t search_threads, config.GetInt("search-threads"));
  if (search_threads < 1 || search_threads > 256) {
    return absl::InvalidArgumentError("--search-threads must be 1-256");
  }
  MoveChooserOptions chooser_options;
  DRAUGHTS_ASSIGN_OR_RETURN(chooser_options.hard_move_time, config.GetDuration("hard-move-time"));
  if (chooser_options.hard_move_time < absl::ZeroDuration() ||
      chooser_options.hard_move_time > absl::Seconds(60)) {
    return absl::InvalidArgumentError("--hard-move-time must be 0s-60s");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::string book_dir, config.GetString("book-dir"));
  if (!book_dir.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(chooser_options.books, LoadBooks(book_dir));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(absl::Duration stop_grace, config.GetDuration("stop-grace"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string engines_path, config.GetString("engines"));
  std::vector<HubEngineConfig> externals;
  if (!engines_path.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(externals, LoadHubEngineConfig(engines_path));
  }

  LoadEndgameDatabases();
  BotMetrics metrics(*platform::MetricsRegistry());
  EngineCatalog catalog(std::move(externals), &metrics);
  MoveChooser chooser(&catalog, chooser_options, &metrics);
  BotServiceOptions service_options;
  service_options.search_threads = static_cast<int>(search_threads);
  service_options.table_megabytes = static_cast<std::size_t>(table_mb);
  BotServiceImpl service(&catalog, &chooser, service_options);

  platform::GrpcClientOptions game_options;
  game_options.target = game_state_address;
  // Bounds how long a stopping worker waits for its last submissions.
  game_options.timeout = absl::Seconds(3);
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GrpcMoveSubmitter::GameClient> game_client,
                            GrpcMoveSubmitter::GameClient::Create(game_options));
  GrpcMoveSubmitter submitter(std::move(game_client));
  platform::RedisPool redis_pool(redis_options, 4);
  RedisJobSource source(&redis_pool, group);
  JobWorkerPool pool(&source, &chooser, &submitter, &metrics, pool_options);

  // Without Redis no job reaches this worker: health says NOT_SERVING.
  serve.readiness_probes = {platform::RedisReadinessProbe(redis_pool)};
  serve.on_started = [&](int grpc_port, int) {
    pool.Start();
    platform::LogInfo("bot workers", {{"redis", redis_address},
                                      {"stream", group.stream},
                                      {"group", group.group},
                                      {"consumer", group.consumer},
                                      {"jobs_per_worker", jobs_per_worker},
                                      {"external_engines", catalog.engines().size() - 3}});
    platform::PrintListeningPort(grpc_port);
  };
  // Moves being thought about are finished and submitted; jobs not started
  // stay pending for another worker.
  serve.on_shutdown_requested = [&] { pool.Stop(stop_grace); };
  return platform::Serve(serve, {&service});
}

}  // namespace
}  // namespace draughts::bot

int main(int argc, char** argv) {
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::bot::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "bot: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
