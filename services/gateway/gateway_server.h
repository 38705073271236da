// The gateway's HTTP + WebSocket server: a Boost.Beast listener on its own
// I/O threads, a worker pool for the blocking calls to Redis and
// game_state, and the game sockets. Start() binds and returns at once;
// Shutdown() stops accepting, closes every game socket with 1001 (going
// away), waits for them, then stops the threads.
#ifndef DRAUGHTS_GATEWAY_GATEWAY_SERVER_H_
#define DRAUGHTS_GATEWAY_GATEWAY_SERVER_H_

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "gateway/api_handlers.h"
#include "gateway/archive_backend.h"
#include "gateway/game_backend.h"
#include "gateway/gateway_context.h"
#include "gateway/gateway_metrics.h"
#include "gateway/idempotency.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/rating_backend.h"
#include "gateway/session_store.h"
#include "gateway/socket_hub.h"
#include "gateway/static_files.h"
#include "gateway/table_socket_services.h"

namespace draughts::gateway {

struct GatewayOptions {
  std::string host = "0.0.0.0";
  int port = 8080;  // 0 picks a free port
  std::filesystem::path web_root = "web/dist";
  int io_threads = 2;
  int worker_threads = 8;
  int max_sockets = 1000;
  // How long open sockets get to close at shutdown.
  absl::Duration shutdown_timeout = absl::Seconds(10);
  // Secure on the session cookie (the gateway is reached over TLS).
  bool secure_cookie = false;
  // A trusted proxy's header naming the client ("X-Forwarded-For"); "" for
  // the TCP peer.
  std::string client_address_header;
};

class GatewayServer {
 public:
  // `sessions`, `idempotency`, `games`, `archive`, `metrics` (and
  // `accounts`, `matchmaking`, `lobby` when given) must outlive the server.
  GatewayServer(GatewayOptions options, SessionStore* sessions, IdempotencyStore* idempotency,
                GameBackend* games, ArchiveBackend* archive, GatewayMetrics* metrics,
                AccountHandlers* accounts = nullptr, MatchmakingBackend* matchmaking = nullptr,
                LobbyHandlers* lobby = nullptr);
  ~GatewayServer();  // Shutdown()
  GatewayServer(const GatewayServer&) = delete;
  GatewayServer& operator=(const GatewayServer&) = delete;

  // Enables /ws/tables/{id}: `clock` and `chat` (and the matchmaking given
  // to the constructor) must outlive the server. Call before Start().
  void EnableTableSockets(ClockBackend* clock, ChatBackend* chat);

  // Binds and starts serving; UNAVAILABLE when the port cannot be bound.
  absl::Status Start();
  int port() const { return port_; }

  // Idempotent.
  void Shutdown();

 private:
  void Accept();

  const GatewayOptions options_;
  GatewayMetrics* metrics_;
  SocketHub hub_;
  StaticFiles files_;
  ApiHandlers handlers_;
  GameBackend* games_;
  ArchiveBackend* archive_;
  MatchmakingBackend* matchmaking_;
  // Open table sockets per session, at most.
  static constexpr int kMaxTableSocketsPerSession = 8;
  SessionSocketCounter table_sockets_per_session_{kMaxTableSocketsPerSession};
  std::optional<GameSnapshotCache> snapshots_;
  std::optional<GameFeeds> feeds_;
  std::optional<TableFeeds> table_feeds_;
  std::optional<ChatFeeds> chat_feeds_;
  std::optional<TableSocketServices> tables_;
  std::optional<RatingBackend> table_ratings_;
  boost::asio::thread_pool workers_;
  boost::asio::io_context io_;
  // Keeps run() going while nothing is pending, e.g. between the acceptor's
  // close and the sockets' last close frames at shutdown.
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor_;
  std::vector<std::thread> threads_;
  int port_ = 0;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GATEWAY_SERVER_H_
