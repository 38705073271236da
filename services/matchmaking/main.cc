// matchmaking: serves draughts.v1.MatchmakingService over Redis, calling
// game_state to start games and reading the results stream for the
// rematch window. Wiring only; the logic is in matchmaking_service.h.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "matchmaking/background_workers.h"
#include "matchmaking/matchmaking_metrics.h"
#include "matchmaking/matchmaking_service.h"
#include "matchmaking/redis_table_store.h"
#include "matchmaking/table_password.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/readiness.h"
#include "platform/redis_pool.h"
#include "platform/secret_tokens.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/status_macros.h"
#include "platform/stream_feed.h"

namespace draughts::matchmaking {
namespace {

constexpr char kTokenContext[] = "matchmaking table tokens v1";

std::string DefaultConsumerName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "matchmaking", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec(
      "matchmaking", "Tables, quick pairing and rematches (draughts.v1.MatchmakingService).");
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_MATCHMAKING", 50052, 9102);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port");
  spec.AddInt("redis-pool-size", "DRAUGHTS_REDIS_POOL_SIZE", 16, "pooled Redis connections");
  spec.AddString("game-state", "DRAUGHTS_GAME_STATE_ADDR", "127.0.0.1:50051",
                 "game_state host:port (CreateGame, GetGame, DeclareAbandoned)");
  spec.AddString("key-prefix", "DRAUGHTS_MATCHMAKING_KEY_PREFIX", "",
                 "prefix of every Redis key (to share a Redis between environments)");
  spec.AddString("results-stream", "DRAUGHTS_RESULTS_STREAM", "draughts:results",
                 "Redis stream of ResultRecord (finished games open the rematch window); "
                 "--key-prefix goes before it, as in game_state");
  spec.AddString("consumer-group", "DRAUGHTS_MATCHMAKING_CONSUMER_GROUP", "matchmaking",
                 "consumer group on the results stream (shared by every replica)");
  spec.AddString("consumer-name", "DRAUGHTS_MATCHMAKING_CONSUMER_NAME", "",
                 "this replica's name in the group (default hostname-pid; unique per process)");
  spec.AddString("token-secret", "DRAUGHTS_MATCHMAKING_TOKEN_SECRET", "",
                 "secret shared by every replica (16+ bytes) sealing the players' game tokens "
                 "kept with a table; without it only this process can hand them out");
  spec.AddString("engines", "DRAUGHTS_MATCHMAKING_ENGINES", "",
                 "comma-separated external engine ids FillSeatsWithBots accepts");
  spec.AddDuration("rematch-window", "DRAUGHTS_MATCHMAKING_REMATCH_WINDOW", absl::Minutes(2),
                   "how long \"play again\" votes are taken after a game");
  spec.AddInt("max-open-tables", "DRAUGHTS_MATCHMAKING_MAX_OPEN_TABLES", 5,
              "open tables one player may have created");
  spec.AddInt("password-guesses-per-table", "DRAUGHTS_MATCHMAKING_GUESSES_PER_TABLE", 10,
              "wrong passwords accepted per table id within --password-guess-window");
  spec.AddInt("password-guesses-per-player", "DRAUGHTS_MATCHMAKING_GUESSES_PER_PLAYER", 20,
              "wrong passwords accepted per player within --password-guess-window");
  spec.AddDuration("password-guess-window", "DRAUGHTS_MATCHMAKING_GUESS_WINDOW", absl::Minutes(15),
                   "window of the wrong-password limits");
  spec.AddInt("password-memlimit-kib", "DRAUGHTS_MATCHMAKING_PASSWORD_MEMLIMIT_KIB", 0,
              "Argon2id memory per hash in KiB (0 = libsodium's interactive 64 MiB; tests "
              "lower it)");
  spec.AddInt("pair-window", "DRAUGHTS_MATCHMAKING_PAIR_WINDOW", 100,
              "quick pairing: rating difference accepted at once");
  spec.AddInt("pair-widen-by", "DRAUGHTS_MATCHMAKING_PAIR_WIDEN_BY", 50,
              "quick pairing: the window grows by this much ...");
  spec.AddDuration("pair-widen-every", "DRAUGHTS_MATCHMAKING_PAIR_WIDEN_EVERY", absl::Seconds(5),
                   "... every this long a player waits");
  spec.AddInt("pair-max-window", "DRAUGHTS_MATCHMAKING_PAIR_MAX_WINDOW", 800,
              "quick pairing: the widest window");
  spec.AddDuration("sweep-interval", "DRAUGHTS_MATCHMAKING_SWEEP_INTERVAL", absl::Milliseconds(200),
                   "how often this replica pairs waiting players and closes rematch windows");
  spec.AddBool("allow-one-second-moves", "DRAUGHTS_MATCHMAKING_ALLOW_ONE_SECOND_MOVES", false,
               "TESTS ONLY: also offer 1 s per move");
  return spec;
}

absl::Status Run(int argc, char** argv) {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "matchmaking"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pool_size, config.GetInt("redis-pool-size"));
  if (pool_size < 1 || pool_size > 1024) {
    return absl::InvalidArgumentError("--redis-pool-size must be 1-1024");
  }
  RedisTableStoreOptions store_options;
  DRAUGHTS_ASSIGN_OR_RETURN(store_options.prefix, config.GetString("key-prefix"));

  MatchmakingOptions options;
  DRAUGHTS_ASSIGN_OR_RETURN(options.allow_one_second, config.GetBool("allow-one-second-moves"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.rematch_window, config.GetDuration("rematch-window"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t max_tables, config.GetInt("max-open-tables"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t per_table, config.GetInt("password-guesses-per-table"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t per_player, config.GetInt("password-guesses-per-player"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.guess_window, config.GetDuration("password-guess-window"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t base, config.GetInt("pair-window"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t widen_by, config.GetInt("pair-widen-by"));
  DRAUGHTS_ASSIGN_OR_RETURN(options.pairing.widen_every, config.GetDuration("pair-widen-every"));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t max_window, config.GetInt("pair-max-window"));
  if (options.rematch_window <= absl::ZeroDuration() || max_tables < 1 || max_tables > 1000 ||
      per_table < 1 || per_player < 1 || options.guess_window <= absl::ZeroDuration() || base < 0 ||
      widen_by < 0 || max_window < base || options.pairing.widen_every < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "--rematch-window, --password-guess-window must be positive; --max-open-tables 1-1000; "
        "guess limits at least 1; pair windows not negative and --pair-max-window >= "
        "--pair-window");
  }
  options.max_open_tables = static_cast<int>(max_tables);
  options.guesses_per_table = static_cast<int>(per_table);
  options.guesses_per_player = static_cast<int>(per_player);
  options.pairing.base = static_cast<int>(base);
  options.pairing.widen_by = static_cast<int>(widen_by);
  options.pairing.max = static_cast<int>(max_window);
  DRAUGHTS_ASSIGN_OR_RETURN(std::string engines, config.GetString("engines"));
  for (absl::string_view id : absl::StrSplit(engines, ',', absl::SkipWhitespace())) {
    options.engines.insert(std::string(id));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t memlimit_kib, config.GetInt("password-memlimit-kib"));
  if (memlimit_kib != 0 && (memlimit_kib < 8 || memlimit_kib > 4 * 1024 * 1024)) {
    return absl::InvalidArgumentError("--password-memlimit-kib must be 0 or 8-4194304");
  }
  PasswordHasher passwords(0, static_cast<std::size_t>(memlimit_kib) * 1024);

  DRAUGHTS_ASSIGN_OR_RETURN(std::string secret, config.GetString("token-secret"));
  std::unique_ptr<platform::SecretBox> token_box;
  if (secret.empty()) {
    platform::LogWarn("no --token-secret: only this replica can hand out the tokens it keeps");
    token_box = std::make_unique<platform::SecretBox>(platform::SecretBox::Ephemeral());
  } else {
    DRAUGHTS_ASSIGN_OR_RETURN(platform::SecretBox box,
                              platform::SecretBox::FromSecret(secret, kTokenContext));
    token_box = std::make_unique<platform::SecretBox>(std::move(box));
  }

  DRAUGHTS_ASSIGN_OR_RETURN(std::string game_address, config.GetString("game-state"));
  platform::GrpcClientOptions game_options;
  game_options.target = game_address;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GameClient> game, GameClient::Create(game_options));

  BackgroundOptions background;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string results_stream, config.GetString("results-stream"));
  // Prefixed like game_state's streams, so one --key-prefix keeps a whole
  // environment apart.
  background.results.stream = absl::StrCat(store_options.prefix, results_stream);
  DRAUGHTS_ASSIGN_OR_RETURN(background.results.group, config.GetString("consumer-group"));
  DRAUGHTS_ASSIGN_OR_RETURN(background.results.consumer, config.GetString("consumer-name"));
  if (background.results.consumer.empty()) background.results.consumer = DefaultConsumerName();
  DRAUGHTS_ASSIGN_OR_RETURN(background.sweep_interval, config.GetDuration("sweep-interval"));
  if (background.sweep_interval < absl::Milliseconds(10)) {
    return absl::InvalidArgumentError("--sweep-interval must be at least 10ms");
  }

  MatchmakingMetrics metrics(*platform::MetricsRegistry());
  platform::RedisPool pool(redis_options, static_cast<int>(pool_size));
  serve.readiness_probes = {platform::RedisReadinessProbe(pool)};
  RedisTableStore store(&pool, store_options);
  platform::RedisStreamFeed feed(&pool, redis_options, {.change_channel = store.EventsChanged()});
  MatchmakingDeps deps;
  deps.store = &store;
  deps.feed = &feed;
  deps.game = game.get();
  deps.passwords = &passwords;
  deps.token_box = token_box.get();
  deps.metrics = &metrics;
  MatchmakingServiceImpl service(std::move(deps), options);
  BackgroundWorkers workers(&service, redis_options, background);

  serve.on_started = [&](int grpc_port, int) {
    platform::LogInfo("matchmaking", {{"redis", redis_address}, {"game_state", game_address}});
    workers.Start();
    platform::PrintListeningPort(grpc_port);
  };
  serve.on_shutdown_requested = [&] {
    service.BeginShutdown();
    workers.Stop();
  };
  const absl::Status served = platform::Serve(serve, {&service});
  workers.Stop();
  return served;
}

}  // namespace
}  // namespace draughts::matchmaking

int main(int argc, char** argv) {
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::matchmaking::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "matchmaking: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
