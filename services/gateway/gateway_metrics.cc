#include "gateway/gateway_metrics.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace draughts::gateway {

GatewayMetrics::GatewayMetrics(prometheus::Registry& registry)
    : http_(prometheus::BuildCounter()
                .Name("draughts_gateway_http_requests_total")
                .Help("HTTP requests answered, by route and status")
                .Register(registry)),
      open_sockets_(prometheus::BuildGauge()
                        .Name("draughts_gateway_websockets_open")
                        .Help("Game WebSockets open now")
                        .Register(registry)
                        .Add({})),
      messages_in_(prometheus::BuildCounter()
                       .Name("draughts_gateway_websocket_messages_total")
                       .Help("WebSocket frames received (in) and sent (out)")
                       .Register(registry)
                       .Add({{"direction", "in"}})),
      messages_out_(prometheus::BuildCounter()
                        .Name("draughts_gateway_websocket_messages_total")
                        .Help("WebSocket frames received (in) and sent (out)")
                        .Register(registry)
                        .Add({{"direction", "out"}})),
      account_events_(
          prometheus::BuildCounter()
              .Name("draughts_gateway_account_events_total")
              .Help("Account operations by outcome (register, login, login_failed, ...)")
              .Register(registry)) {}

void GatewayMetrics::RecordHttp(std::string_view route, int status) {
  http_.Add({{"route", std::string(route)}, {"status", absl::StrCat(status)}}).Increment();
}

void GatewayMetrics::SocketOpened() {
  open_sockets_.Increment();
}
void GatewayMetrics::SocketClosed() {
  open_sockets_.Decrement();
}
void GatewayMetrics::MessageIn() {
  messages_in_.Increment();
}
void GatewayMetrics::MessageOut() {
  messages_out_.Increment();
}
void GatewayMetrics::RecordAccountEvent(std::string_view event) {
  account_events_.Add({{"event", std::string(event)}}).Increment();
}

}  // namespace draughts::gateway
