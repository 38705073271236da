// The gateway's Prometheus metrics (registered in the process registry):
//
//   draughts_gateway_http_requests_total{route,status}  HTTP requests answered
//   draughts_gateway_websockets_open                    game sockets open now
//   draughts_gateway_websocket_messages_total{direction}  frames in / out
//   draughts_gateway_account_events_total{event}        register, login,
//       login_failed, login_limited, logout, password_changed, ... (never a
//       name, an address or anything typed in a form)
//
// Calls to the backends are measured by their client (platform/grpc_client.h,
// draughts_rpc_client_*). Labels come from fixed sets (RouteLabel, status
// codes), so clients cannot grow the label space.
#ifndef DRAUGHTS_GATEWAY_GATEWAY_METRICS_H_
#define DRAUGHTS_GATEWAY_GATEWAY_METRICS_H_

#include <string_view>

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace draughts::gateway {

class GatewayMetrics {
 public:
  explicit GatewayMetrics(prometheus::Registry& registry);

  void RecordHttp(std::string_view route, int status);
  void SocketOpened();
  void SocketClosed();
  void MessageIn();
  void MessageOut();
  // `event` is one of the fixed names the account handlers use.
  void RecordAccountEvent(std::string_view event);

 private:
  prometheus::Family<prometheus::Counter>& http_;
  prometheus::Gauge& open_sockets_;
  prometheus::Counter& messages_in_;
  prometheus::Counter& messages_out_;
  prometheus::Family<prometheus::Counter>& account_events_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GATEWAY_METRICS_H_
