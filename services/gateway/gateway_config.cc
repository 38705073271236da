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
  spec.AddInt("io-threads", "DRAUGHTS_GATEWAY_IO_THREADS", 2, "threads running socket I/O");
  spec.AddInt("worker-threads", "DRAUGHTS_GATEWAY_WORKER_THREADS", 16,
              "threads for blocking calls to Redis and game_state (also the Redis pool size)");
  spec.AddInt("max-sockets", "DRAUGHTS_GATEWAY_MAX_SOCKETS", 1000,
              "open game WebSockets at most (each holds one watch stream and thread)");
  return spec;
}

}  // namespace draughts::gateway
