// chat: serves draughts.v1.ChatService over Redis, and posts the games'
// notices from the chat notices stream into their rooms. Wiring only; the
// logic is in chat_service.h and notice_consumer.h, the storage in
// redis_chat_store.h, rooms and seats in grpc_room_directory.h.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "chat/chat_metrics.h"
#include "chat/chat_service.h"
#include "chat/grpc_room_directory.h"
#include "chat/notice_consumer.h"
#include "chat/redis_chat_store.h"
#include "platform/config.h"
#include "platform/logging.h"
#include "platform/metrics.h"
#include "platform/mutex_checks.h"
#include "platform/readiness.h"
#include "platform/redis_pool.h"
#include "platform/serve.h"
#include "platform/service_options.h"
#include "platform/shutdown_signal.h"
#include "platform/status_macros.h"

namespace draughts::chat {
namespace {

std::string DefaultConsumerName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return absl::StrCat(host[0] != '\0' ? host : "chat", "-", getpid());
}

platform::ConfigSpec Spec() {
  platform::ConfigSpec spec("chat",
                            "Table chat for players and spectators (draughts.v1.ChatService) "
                            "over Redis streams, with the games' notices.");
  // --listen, --metrics-port, --log-level, --drain, --shutdown-timeout.
  platform::AddStandardServiceOptions(spec, "DRAUGHTS_CHAT", 50056, 9106);
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379", "Redis host:port");
  spec.AddInt("redis-pool-size", "DRAUGHTS_CHAT_REDIS_POOL_SIZE", 16, "pooled Redis connections");
  spec.AddString("game-state", "DRAUGHTS_GAME_STATE_ADDR", "127.0.0.1:50051",
                 "GameService host:port (player tokens, game rooms)");
  spec.AddString("matchmaking", "DRAUGHTS_MATCHMAKING_ADDR", "127.0.0.1:50052",
                 "MatchmakingService host:port (table rooms and their options)");
  spec.AddString("key-prefix", "DRAUGHTS_CHAT_KEY_PREFIX", "",
                 "prefix of every Redis key (to share a Redis between environments)");
  spec.AddInt("max-message-chars", "DRAUGHTS_CHAT_MAX_MESSAGE_CHARS", 500,
              "longest message, in characters (code points) after trimming");
  spec.AddInt("room-history", "DRAUGHTS_CHAT_ROOM_HISTORY", 200, "messages a room keeps");
  spec.AddDuration("room-lifetime", "DRAUGHTS_CHAT_ROOM_LIFETIME", absl::Hours(24),
                   "a room is dropped this long after its last message");
  spec.AddInt("rate-limit", "DRAUGHTS_CHAT_RATE_LIMIT", 5,
              "messages an author may post per --rate-window, all rooms together");
  spec.AddDuration("rate-window", "DRAUGHTS_CHAT_RATE_WINDOW", absl::Seconds(10),
                   "the sliding window of --rate-limit");
  spec.AddDuration("room-cache-ttl", "DRAUGHTS_CHAT_ROOM_CACHE_TTL", absl::Seconds(30),
                   "how long a room's table and options are remembered (they never change; "
                   "this only delays noticing an expired game)");
  spec.AddString("notices-stream", "DRAUGHTS_CHAT_NOTICES_STREAM", "draughts:chat-notices",
                 "Redis stream of ChatNoticeRecord written by game-state (empty: no notices)");
  spec.AddString("consumer-group", "DRAUGHTS_CHAT_CONSUMER_GROUP", "chat",
                 "consumer group on the notices stream, shared by every replica");
  spec.AddString("consumer-name", "DRAUGHTS_CHAT_CONSUMER_NAME", "",
                 "this replica's name in the group (default hostname-pid; must be unique)");
  spec.AddDuration("claim-idle", "DRAUGHTS_CHAT_CLAIM_IDLE", absl::Seconds(30),
                   "how long a notice stays pending with a stopped replica before another "
                   "replica takes it over");
  return spec;
}

absl::Status Run(int argc, char** argv) {
  // gRPC's mutexes are absl::Mutex; cycle detection costs a graph update on
  // every lock and is a debugging aid.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const platform::ConfigSpec spec = Spec();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::Config config, platform::ParseConfig(spec, argc, argv));
  if (config.help_requested()) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(platform::InitLoggingFromConfig(config, "chat"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::ServeOptions serve, platform::ServeOptionsFromConfig(config));

  DRAUGHTS_ASSIGN_OR_RETURN(std::string redis_address, config.GetString("redis"));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisOptions redis_options,
                            platform::ParseRedisAddress(redis_address));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t pool_size, config.GetInt("redis-pool-size"));
  if (pool_size < 1 || pool_size > 1024) {
    return absl::InvalidArgumentError("--redis-pool-size must be 1-1024");
  }
  RedisChatKeys keys;
  DRAUGHTS_ASSIGN_OR_RETURN(keys.prefix, config.GetString("key-prefix"));
  ChatLimits limits;
  DRAUGHTS_ASSIGN_OR_RETURN(limits.room_history, config.GetInt("room-history"));
  DRAUGHTS_ASSIGN_OR_RETURN(limits.room_lifetime, config.GetDuration("room-lifetime"));
  DRAUGHTS_ASSIGN_OR_RETURN(limits.posts_per_window, config.GetInt("rate-limit"));
  DRAUGHTS_ASSIGN_OR_RETURN(limits.rate_window, config.GetDuration("rate-window"));
  if (limits.room_history < 1 || limits.room_history > 100000) {
    return absl::InvalidArgumentError("--room-history must be 1-100000");
  }
  if (limits.room_lifetime < absl::Minutes(1)) {
    return absl::InvalidArgumentError("--room-lifetime must be at least 1m");
  }
  if (limits.posts_per_window < 1 || limits.rate_window < absl::Milliseconds(100)) {
    return absl::InvalidArgumentError("--rate-limit must be >= 1 and --rate-window >= 100ms");
  }
  ChatServiceOptions service_options;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t max_chars, config.GetInt("max-message-chars"));
  if (max_chars < 1 || max_chars > 10000) {
    return absl::InvalidArgumentError("--max-message-chars must be 1-10000");
  }
  service_options.max_text_characters = static_cast<std::size_t>(max_chars);
  RoomCacheOptions cache_options;
  DRAUGHTS_ASSIGN_OR_RETURN(cache_options.ttl, config.GetDuration("room-cache-ttl"));

  NoticeGroup group;
  DRAUGHTS_ASSIGN_OR_RETURN(group.stream, config.GetString("notices-stream"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.group, config.GetString("consumer-group"));
  DRAUGHTS_ASSIGN_OR_RETURN(group.consumer, config.GetString("consumer-name"));
  if (group.consumer.empty()) group.consumer = DefaultConsumerName();
  NoticeConsumerOptions consumer_options;
  DRAUGHTS_ASSIGN_OR_RETURN(consumer_options.claim_idle, config.GetDuration("claim-idle"));
  if (consumer_options.claim_idle < absl::Seconds(1)) {
    return absl::InvalidArgumentError("--claim-idle must be at least 1s");
  }

  DRAUGHTS_ASSIGN_OR_RETURN(std::string game_state_address, config.GetString("game-state"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::string matchmaking_address, config.GetString("matchmaking"));
  platform::GrpcClientOptions games_options;
  games_options.target = game_state_address;
  platform::GrpcClientOptions tables_options;
  tables_options.target = matchmaking_address;
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GameClient> games, GameClient::Create(games_options));
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<MatchmakingClient> tables,
                            MatchmakingClient::Create(tables_options));

  ChatMetrics metrics(*platform::MetricsRegistry());
  platform::RedisPool pool(redis_options, static_cast<int>(pool_size));
  // Without Redis no call can be answered: NOT_SERVING meanwhile.
  serve.readiness_probes = {platform::RedisReadinessProbe(pool)};
  RedisChatStore store(&pool, redis_options, keys, limits);
  GrpcRoomDirectory rooms(games.get(), tables.get(), cache_options);
  ChatServiceImpl service({.store = &store, .rooms = &rooms, .metrics = &metrics}, service_options);
  NoticeConsumer notices(&pool, group, &store, &metrics, consumer_options);

  serve.on_started = [&](int grpc_port, int) {
    if (!group.stream.empty()) notices.Start();
    platform::LogInfo("chat", {{"redis", redis_address},
                               {"game_state", game_state_address},
                               {"matchmaking", matchmaking_address},
                               {"notices", group.stream},
                               {"consumer", group.consumer}});
    platform::PrintListeningPort(grpc_port);
  };
  // Watchers are told to resume elsewhere at once; notices being handled
  // finish, the rest stay pending for another replica.
  serve.on_shutdown_requested = [&] {
    service.BeginShutdown();
    notices.Stop();
  };
  return platform::Serve(serve, {&service});
}

}  // namespace
}  // namespace draughts::chat

int main(int argc, char** argv) {
  draughts::platform::SkipMutexDeadlockChecksInRelease();
  const absl::Status status = draughts::chat::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "chat: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
