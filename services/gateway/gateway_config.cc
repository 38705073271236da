#include "gateway/gateway_config.h"

namespace draughts::gateway {

platform::ConfigSpec GatewayConfigSpec() {
  platform::ConfigSpec spec("gateway",
                            "HTTP + WebSocket edge: sessions, REST, game sockets, the web client.");
  spec.AddString("listen", "DRAUGHTS_GATEWAY_LISTEN", "0.0.0.0:8080",
                 "HTTP and WebSocket address host:port (port 0 picks a free port, printed as "
                 "LISTENING <port>)");
  spec.AddInt("metrics-port", "DRAUGHTS_GATEWAY_METRICS_PORT", 9100,
              "Prometheus /metrics port (0 picks a free port, -1 disables)");
  spec.AddString("log-level", "DRAUGHTS_GATEWAY_LOG_LEVEL", "info", "debug, info, warn or error");
  spec.AddDuration("shutdown-timeout", "DRAUGHTS_GATEWAY_SHUTDOWN_TIMEOUT", absl::Seconds(10),
                   "after SIGTERM: time open sockets get to close");
  spec.AddString("web-root", "DRAUGHTS_GATEWAY_WEB_ROOT", "web/dist",
                 "directory of the web client");
  spec.AddString("redis", "DRAUGHTS_REDIS", "127.0.0.1:6379",
                 "Redis host:port (sessions, idempotency keys)");
  spec.AddString("session-key-prefix", "DRAUGHTS_GATEWAY_SESSION_KEY_PREFIX", "",
                 "prefix of the gateway's Redis keys (to share a Redis between environments)");
  spec.AddString("game-state", "DRAUGHTS_GAME_STATE_ADDR", "127.0.0.1:50051",
                 "game_state gRPC address host:port");
  spec.AddString("rating", "DRAUGHTS_RATING_ADDR", "127.0.0.1:50055",
                 "rating gRPC address host:port (the game archive: PDN export)");
  spec.AddString("matchmaking", "DRAUGHTS_MATCHMAKING_ADDR", "127.0.0.1:50052",
                 "matchmaking gRPC address host:port (tables, lobby, quick pairing)");
  spec.AddString("clock", "DRAUGHTS_CLOCK_ADDR", "127.0.0.1:50053",
                 "clock gRPC address host:port (table sockets: move timer, presence heartbeats)");
  spec.AddString("chat", "DRAUGHTS_CHAT_ADDR", "127.0.0.1:50056",
                 "chat gRPC address host:port (table sockets: the table's chat)");
  spec.AddInt("lobby-actions-per-second", "DRAUGHTS_GATEWAY_LOBBY_ACTIONS_PER_SECOND", 5,
              "lobby actions (POST /api/tables..., quick pair, play the computer) per second per "
              "session, sustained (a token bucket per replica)");
  spec.AddInt("lobby-action-burst", "DRAUGHTS_GATEWAY_LOBBY_ACTION_BURST", 10,
              "lobby actions a session may make at once before the rate applies");
  spec.AddString("pg", "DRAUGHTS_PG", "",
                 "PostgreSQL conninfo for accounts, e.g. \"host=127.0.0.1 dbname=draughts "
                 "connect_timeout=5\" (empty: no accounts, guests only; the account routes "
                 "answer 503)");
  spec.AddInt("pg-pool-size", "DRAUGHTS_GATEWAY_PG_POOL_SIZE", 4,
              "pooled PostgreSQL connections (accounts)");
  spec.AddInt("password-opslimit", "DRAUGHTS_GATEWAY_PASSWORD_OPSLIMIT", 2,
              "Argon2id passes per password hash (libsodium opslimit; 2 = INTERACTIVE)");
  spec.AddInt("password-memlimit-kib", "DRAUGHTS_GATEWAY_PASSWORD_MEMLIMIT_KIB", 65536,
              "Argon2id memory per password hash in KiB (65536 = 64 MiB = INTERACTIVE); "
              "changing either factor rehashes each password at its next login");
  spec.AddInt("login-limit-per-name", "DRAUGHTS_GATEWAY_LOGIN_LIMIT_PER_NAME", 10,
              "failed password checks allowed per account name per window");
  spec.AddInt("login-limit-per-address", "DRAUGHTS_GATEWAY_LOGIN_LIMIT_PER_ADDRESS", 50,
              "failed logins and registrations allowed per client address per window");
  spec.AddDuration("login-limit-window", "DRAUGHTS_GATEWAY_LOGIN_LIMIT_WINDOW", absl::Minutes(15),
                   "the window of the login limits, from the first counted attempt");
  spec.AddBool("secure-cookie", "DRAUGHTS_GATEWAY_SECURE_COOKIE", false,
               "mark the session cookie Secure (set when browsers reach the gateway over TLS)");
  spec.AddString("client-address-header", "DRAUGHTS_GATEWAY_CLIENT_ADDRESS_HEADER", "",
                 "header a trusted proxy sets to the client's address (e.g. X-Forwarded-For, "
                 "last entry used); empty: the TCP peer (login limits count per address)");
  spec.AddInt("io-threads", "DRAUGHTS_GATEWAY_IO_THREADS", 2, "threads running socket I/O");
  spec.AddInt("worker-threads", "DRAUGHTS_GATEWAY_WORKER_THREADS", 16,
              "threads for blocking calls to Redis and game_state (also the Redis pool size)");
  spec.AddInt("max-sockets", "DRAUGHTS_GATEWAY_MAX_SOCKETS", 1000,
              "open WebSockets at most (each holds its watch streams and buffers)");
  return spec;
}

}  // namespace draughts::gateway
