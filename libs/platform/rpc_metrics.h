// Per-method RPC metrics recorded by a gRPC server interceptor:
//
//   draughts_rpc_server_started_total{method}         calls received
//   draughts_rpc_server_handled_total{method,code}    calls finished, by status code
//                                                     (errors are code!="OK")
//   draughts_rpc_server_handling_seconds{method}      latency histogram
//
// `method` is the full gRPC path ("/draughts.v1.GameService/SubmitMove").
// Paths of methods this process does not know become "unknown", so a client
// sending random names cannot blow up the label cardinality.
#ifndef DRAUGHTS_PLATFORM_RPC_METRICS_H_
#define DRAUGHTS_PLATFORM_RPC_METRICS_H_

#include <memory>
#include <string>
#include <string_view>

#include <grpcpp/support/server_interceptor.h>

#include "absl/status/statusor.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace draughts::platform {

class RpcMetrics {
 public:
  explicit RpcMetrics(prometheus::Registry& registry);

  void RecordStarted(const std::string& method);
  void RecordHandled(const std::string& method, std::string_view code, double seconds);

 private:
  prometheus::Family<prometheus::Counter>& started_;
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& latency_;
};

// "/pkg.Service/Method" if the method is registered in this binary's
// generated descriptor pool or is a grpc.health.v1 method, else "unknown".
std::string MethodLabel(std::string_view path);

// Name of a grpc::StatusCode as Prometheus label value ("OK", "NOT_FOUND"...).
std::string_view GrpcCodeName(int code);

// Factory to pass to ServerBuilder::experimental().SetInterceptorCreators.
// Fails (INTERNAL) if the registry already holds a different metric family
// with one of the names above.
absl::StatusOr<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
MakeRpcMetricsInterceptorFactory(std::shared_ptr<prometheus::Registry> registry);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_RPC_METRICS_H_
