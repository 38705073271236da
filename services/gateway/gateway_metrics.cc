#include "gateway/gateway_metrics.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"

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
      grpc_(prometheus::BuildHistogram()
                .Name("draughts_gateway_grpc_client_seconds")
                .Help("Latency of calls to game_state, by method and status code")
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

void GatewayMetrics::RecordGrpc(std::string_view method, absl::StatusCode code, double seconds) {
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  grpc_
      .Add({{"method", std::string(method)}, {"code", std::string(StatusCodeName(code))}}, kBuckets)
      .Observe(seconds);
}

}  // namespace draughts::gateway
