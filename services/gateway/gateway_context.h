// What the HTTP connections and game sockets of one server share. Plain
// pointers: GatewayServer owns or outlives all of them.
#ifndef DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_
#define DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_

#include <boost/asio/thread_pool.hpp>
#include <string>

#include "gateway/api_handlers.h"
#include "gateway/game_backend.h"
#include "gateway/gateway_metrics.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/socket_hub.h"
#include "gateway/table_socket_services.h"

namespace draughts::gateway {

struct GatewayContext {
  ApiHandlers* handlers = nullptr;
  GameBackend* games = nullptr;
  // Null when the server was built without one (tests of other routes).
  MatchmakingBackend* matchmaking = nullptr;
  GatewayMetrics* metrics = nullptr;
  // Blocking work (gRPC, Redis) runs here, never on the I/O threads.
  boost::asio::thread_pool* workers = nullptr;
  SocketHub* hub = nullptr;
  // Null without --matchmaking/--clock/--chat wiring: /ws/tables answers 503.
  TableSocketServices* tables = nullptr;
  // A trusted proxy's header naming the client ("X-Forwarded-For"), or ""
  // to take the TCP peer's address.
  std::string client_address_header;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_
