#include "platform/rpc_metrics.h"

#include <google/protobuf/descriptor.h>
#include <grpcpp/support/interceptor.h>
#include <grpcpp/support/status.h>

#include <chrono>
#include <exception>
#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::platform {
namespace {

// Latency buckets in seconds: from 1 ms (a Redis round trip) to 10 s
// (a bot thinking on a slow move).
const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  return *buckets;
}

class RpcMetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  RpcMetricsInterceptor(std::shared_ptr<RpcMetrics> metrics, std::string method)
      : metrics_(std::move(metrics)),
        method_(std::move(method)),
        start_(std::chrono::steady_clock::now()) {
    metrics_->RecordStarted(method_);
  }

  // A call torn down without sending a status (client went away) still
  // counts, as CANCELLED, so started == sum(handled) once calls are done.
  ~RpcMetricsInterceptor() override {
    if (!recorded_) Finish(grpc::StatusCode::CANCELLED);
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
      Finish(methods->GetSendStatus().error_code());
    }
    methods->Proceed();
  }

 private:
  void Finish(grpc::StatusCode code) {
    recorded_ = true;
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    metrics_->RecordHandled(method_, GrpcCodeName(code), seconds);
  }

  std::shared_ptr<RpcMetrics> metrics_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
  bool recorded_ = false;
};

class RpcMetricsInterceptorFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcMetricsInterceptorFactory(std::shared_ptr<prometheus::Registry> registry)
      : registry_(std::move(registry)), metrics_(std::make_shared<RpcMetrics>(*registry_)) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    const char* method = info->method();
    return new RpcMetricsInterceptor(metrics_, MethodLabel(method != nullptr ? method : ""));
  }

 private:
  std::shared_ptr<prometheus::Registry> registry_;  // keeps the families alive
  std::shared_ptr<RpcMetrics> metrics_;
};

}  // namespace

RpcMetrics::RpcMetrics(prometheus::Registry& registry)
    : started_(prometheus::BuildCounter()
                   .Name("draughts_rpc_server_started_total")
                   .Help("RPCs received by the server, by method.")
                   .Register(registry)),
      handled_(prometheus::BuildCounter()
                   .Name("draughts_rpc_server_handled_total")
                   .Help("RPCs completed by the server, by method and gRPC status code.")
                   .Register(registry)),
      latency_(prometheus::BuildHistogram()
                   .Name("draughts_rpc_server_handling_seconds")
                   .Help("Time from receiving an RPC to sending its status, by method.")
                   .Register(registry)) {}

void RpcMetrics::RecordStarted(const std::string& method) {
  started_.Add({{"method", method}}).Increment();
}

void RpcMetrics::RecordHandled(const std::string& method, std::string_view code, double seconds) {
  handled_.Add({{"method", method}, {"code", std::string(code)}}).Increment();
  latency_.Add({{"method", method}}, LatencyBuckets()).Observe(seconds);
}

std::string MethodLabel(std::string_view path) {
  static constexpr std::string_view kHealthPrefix = "/grpc.health.v1.Health/";
  if (path.substr(0, kHealthPrefix.size()) == kHealthPrefix &&
      (path.substr(kHealthPrefix.size()) == "Check" ||
       path.substr(kHealthPrefix.size()) == "Watch")) {
    return std::string(path);
  }
  // Expected form: "/package.Service/Method".
  if (path.size() < 4 || path.front() != '/') return "unknown";
  size_t slash = path.find('/', 1);
  if (slash == std::string_view::npos || slash + 1 >= path.size()) return "unknown";
  std::string full_name(path.substr(1, slash - 1));
  full_name.push_back('.');
  full_name.append(path.substr(slash + 1));
  if (google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(full_name) == nullptr) {
    return "unknown";
  }
  return std::string(path);
}

std::string_view GrpcCodeName(int code) {
  static constexpr std::string_view kNames[] = {"OK",
                                                "CANCELLED",
                                                "UNKNOWN",
                                                "INVALID_ARGUMENT",
                                                "DEADLINE_EXCEEDED",
                                                "NOT_FOUND",
                                                "ALREADY_EXISTS",
                                                "PERMISSION_DENIED",
                                                "RESOURCE_EXHAUSTED",
                                                "FAILED_PRECONDITION",
                                                "ABORTED",
                                                "OUT_OF_RANGE",
                                                "UNIMPLEMENTED",
                                                "INTERNAL",
                                                "UNAVAILABLE",
                                                "DATA_LOSS",
                                                "UNAUTHENTICATED"};
  if (code < 0 || code >= static_cast<int>(std::size(kNames))) return "UNKNOWN";
  return kNames[code];
}

absl::StatusOr<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
MakeRpcMetricsInterceptorFactory(std::shared_ptr<prometheus::Registry> registry) {
  if (registry == nullptr) return absl::InvalidArgumentError("metrics registry is null");
  try {
    return std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>(
        std::make_unique<RpcMetricsInterceptorFactory>(std::move(registry)));
  } catch (const std::exception& e) {
    // prometheus-cpp throws when a family name is already taken by a
    // different metric type or help text.
    return absl::InternalError(absl::StrCat("cannot register RPC metrics: ", e.what()));
  }
}

}  // namespace draughts::platform
