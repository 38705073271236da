// What the HTTP connections and game sockets of one server share. Plain
// pointers: GatewayServer owns or outlives all of them.
#ifndef DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_
#define DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_

#include <boost/asio/thread_pool.hpp>

#include "gateway/api_handlers.h"
#include "gateway/game_backend.h"
#include "gateway/gateway_metrics.h"
#include "gateway/socket_hub.h"

namespace draughts::gateway {

struct GatewayContext {
  ApiHandlers* handlers = nullptr;
  GameBackend* games = nullptr;
  GatewayMetrics* metrics = nullptr;
  // Blocking work (gRPC, Redis) runs here, never on the I/O threads.
  boost::asio::thread_pool* workers = nullptr;
  SocketHub* hub = nullptr;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GATEWAY_CONTEXT_H_
