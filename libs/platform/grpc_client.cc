#include "platform/grpc_client.h"

#include <grpcpp/alarm.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>
#include <grpcpp/support/client_interceptor.h>

#include <algorithm>
#include <exception>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/metrics.h"
#include "platform/rpc_metrics.h"
#include "platform/status.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"

namespace draughts::platform {
namespace {

// The method path ("/pkg.Service/Method") of the call being made on this
// thread. The member-function pointer a caller passes has no name; gRPC
// creates a call's interceptors synchronously in the calling thread, so
// the factory below can hand the path to the Run() that made the call.
thread_local std::string* current_method = nullptr;

class MethodCapture {
 public:
  explicit MethodCapture(std::string* method) : previous_(current_method) {
    current_method = method;
  }
  ~MethodCapture() { current_method = previous_; }
  MethodCapture(const MethodCapture&) = delete;
  MethodCapture& operator=(const MethodCapture&) = delete;

 private:
  std::string* previous_;
};

class MethodNameFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    if (current_method != nullptr && info->method() != nullptr) *current_method = info->method();
    return nullptr;  // nothing to intercept: the name was all we wanted
  }
};

const prometheus::Histogram::BucketBoundaries& LatencyBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  return *buckets;
}

int Milliseconds(absl::Duration duration) {
  return static_cast<int>(std::clamp<int64_t>(absl::ToInt64Milliseconds(duration), 0, 1 << 30));
}

absl::Duration Jittered(absl::Duration backoff, double jitter) {
  thread_local std::mt19937_64 random(std::random_device{}());
  std::uniform_real_distribution<double> factor(1.0 - jitter, 1.0 + jitter);
  return backoff * factor(random);
}

absl::Status CheckOptions(const GrpcClientOptions& options) {
  const RetryPolicy& retry = options.retry;
  if (options.target.empty()) return absl::InvalidArgumentError("gRPC client: empty target");
  if (options.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("gRPC client: the timeout must be positive");
  }
  if (retry.max_attempts < 1 || retry.initial_backoff < absl::ZeroDuration() ||
      retry.max_backoff < retry.initial_backoff || retry.multiplier < 1.0 || retry.jitter < 0.0 ||
      retry.jitter >= 1.0) {
    return absl::InvalidArgumentError(
        "gRPC client: retry needs max_attempts >= 1, 0 <= initial_backoff <= max_backoff, "
        "multiplier >= 1 and 0 <= jitter < 1");
  }
  if (options.keepalive_time <= absl::ZeroDuration() ||
      options.keepalive_timeout <= absl::ZeroDuration() ||
      options.max_reconnect_backoff <= absl::ZeroDuration() ||
      options.connect_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "gRPC client: keepalive, reconnect and connect durations must be positive");
  }
  return absl::OkStatus();
}

}  // namespace

struct GrpcClientCore::Metrics {
  explicit Metrics(prometheus::Registry& registry)
      : handled(prometheus::BuildCounter()
                    .Name("draughts_rpc_client_handled_total")
                    .Help("Client calls completed, by method and final gRPC status code.")
                    .Register(registry)),
        latency(prometheus::BuildHistogram()
                    .Name("draughts_rpc_client_handling_seconds")
                    .Help("Client call latency by method, retries included.")
                    .Register(registry)),
        retries(prometheus::BuildCounter()
                    .Name("draughts_rpc_client_retries_total")
                    .Help("Client call attempts after the first (UNAVAILABLE retried), by method.")
                    .Register(registry)) {}

  prometheus::Family<prometheus::Counter>& handled;
  prometheus::Family<prometheus::Histogram>& latency;
  prometheus::Family<prometheus::Counter>& retries;
  std::shared_ptr<prometheus::Registry> keep_alive;  // the families live in it
};

GrpcClientCore::GrpcClientCore(GrpcClientOptions options, std::shared_ptr<grpc::Channel> channel,
                               std::unique_ptr<Metrics> metrics)
    : options_(std::move(options)), channel_(std::move(channel)), metrics_(std::move(metrics)) {}

GrpcClientCore::~GrpcClientCore() {
  absl::MutexLock lock(&async_mu_);
  async_mu_.Await(absl::Condition(
      +[](int* calls) { return *calls == 0; }, &async_calls_));
}

absl::StatusOr<std::shared_ptr<GrpcClientCore>> GrpcClientCore::Create(GrpcClientOptions options) {
  if (absl::Status status = CheckOptions(options); !status.ok()) return status;
  std::shared_ptr<prometheus::Registry> registry =
      options.metrics_registry != nullptr ? options.metrics_registry : MetricsRegistry();
  std::unique_ptr<Metrics> metrics;
  try {
    metrics = std::make_unique<Metrics>(*registry);
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("cannot register gRPC client metrics: ", e.what()));
  }
  metrics->keep_alive = registry;

  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, Milliseconds(options.keepalive_time));
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, Milliseconds(options.keepalive_timeout));
  // Idle channels are checked too (the next call must not hang on a dead
  // connection), and pings are not capped while no data flows.
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  int reconnect_ms = Milliseconds(options.max_reconnect_backoff);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(100, reconnect_ms));
  // Despite its name, gRPC reads this one as the minimum connect timeout.
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, Milliseconds(options.connect_timeout));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, reconnect_ms);
  if (!options.load_balancing_policy.empty()) {
    args.SetLoadBalancingPolicyName(options.load_balancing_policy);
  }
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<MethodNameFactory>());
  std::shared_ptr<grpc::Channel> channel = grpc::experimental::CreateCustomChannelWithInterceptors(
      options.target, grpc::InsecureChannelCredentials(), args, std::move(factories));
  return std::shared_ptr<GrpcClientCore>(
      new GrpcClientCore(std::move(options), std::move(channel), std::move(metrics)));
}

std::unique_ptr<grpc::ClientContext> GrpcClientCore::NewContext(absl::Duration timeout) const {
  if (timeout <= absl::ZeroDuration()) timeout = options_.timeout;
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  return context;
}

absl::Status GrpcClientCore::Run(const CallOptions& options,
                                 const std::function<grpc::Status(grpc::ClientContext&)>& attempt) {
  const absl::Time start = absl::Now();
  const absl::Time deadline =
      start + (options.timeout > absl::ZeroDuration() ? options.timeout : options_.timeout);
  const RetryPolicy& policy = options_.retry;
  const int max_attempts = options.safe_to_retry ? policy.max_attempts : 1;

  std::string method;
  absl::Duration backoff = policy.initial_backoff;
  grpc::Status status;
  int attempts = 0;
  while (true) {
    ++attempts;
    {
      grpc::ClientContext context;
      context.set_deadline(absl::ToChronoTime(deadline));
      MethodCapture capture(&method);
      status = attempt(context);
    }
    if (status.error_code() != grpc::StatusCode::UNAVAILABLE || attempts >= max_attempts) break;
    absl::Duration pause = Jittered(backoff, policy.jitter);
    if (absl::Now() + pause >= deadline) break;
    absl::SleepFor(pause);
    backoff = std::min(backoff * policy.multiplier, policy.max_backoff);
  }

  return Finish(std::move(method), status, start, attempts);
}

absl::Status GrpcClientCore::Finish(std::string method, const grpc::Status& status,
                                    absl::Time start, int attempts) {
  if (method.empty()) method = "unknown";  // a stub without our channel (a mock)
  metrics_->handled
      .Add({{"method", method}, {"code", std::string(GrpcCodeName(status.error_code()))}})
      .Increment();
  metrics_->latency.Add({{"method", method}}, LatencyBuckets())
      .Observe(absl::ToDoubleSeconds(absl::Now() - start));
  if (attempts > 1) metrics_->retries.Add({{"method", method}}).Increment(attempts - 1);
  absl::Status result = FromGrpcStatus(status);
  if (!result.ok() && attempts > 1) {
    return absl::Status(result.code(),
                        absl::StrCat(result.message(), " (after ", attempts, " attempts)"));
  }
  return result;
}

// One CallAsync: its attempts run one after the other (each starts from the
// previous one's callback or from the alarm ending its pause), so nothing
// here is touched by two threads at once.
struct GrpcClientCore::AsyncCall {
  // Counts the call in its core from start to end; declared first, so it
  // is destroyed last, after the context (and its channel reference).
  struct InFlight {
    explicit InFlight(GrpcClientCore* core) : core(core) {
      absl::MutexLock lock(&core->async_mu_);
      ++core->async_calls_;
    }
    ~InFlight() {
      absl::MutexLock lock(&core->async_mu_);
      --core->async_calls_;
    }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
    GrpcClientCore* core;
  };

  explicit AsyncCall(GrpcClientCore* core) : in_flight(core) {}

  InFlight in_flight;
  AsyncAttempt attempt;
  std::function<void(absl::Status)> done;
  absl::Time start;
  absl::Time deadline;
  int max_attempts = 1;
  int attempts = 0;
  absl::Duration backoff;
  std::string method;
  std::unique_ptr<grpc::ClientContext> context;
  // Kept to the end: an alarm is not destroyed from its own callback.
  std::vector<std::unique_ptr<grpc::Alarm>> pauses;
};

void GrpcClientCore::RunAsync(const CallOptions& options, AsyncAttempt attempt,
                              std::function<void(absl::Status)> done) {
  auto call = std::make_shared<AsyncCall>(this);
  call->attempt = std::move(attempt);
  call->done = std::move(done);
  call->start = absl::Now();
  call->deadline =
      call->start + (options.timeout > absl::ZeroDuration() ? options.timeout : options_.timeout);
  call->max_attempts = options.safe_to_retry ? options_.retry.max_attempts : 1;
  call->backoff = options_.retry.initial_backoff;
  StartAttempt(std::move(call));
}

void GrpcClientCore::StartAttempt(std::shared_ptr<AsyncCall> call) {
  ++call->attempts;
  call->context = std::make_unique<grpc::ClientContext>();
  call->context->set_deadline(absl::ToChronoTime(call->deadline));
  MethodCapture capture(&call->method);
  AsyncCall& started = *call;
  started.attempt(started.context.get(), [this, call = std::move(call)](grpc::Status status) {
    OnAttemptDone(call, status);
  });
}

void GrpcClientCore::OnAttemptDone(std::shared_ptr<AsyncCall> call, const grpc::Status& status) {
  const RetryPolicy& policy = options_.retry;
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE && call->attempts < call->max_attempts) {
    const absl::Duration pause = Jittered(call->backoff, policy.jitter);
    if (absl::Now() + pause < call->deadline) {
      call->backoff = std::min(call->backoff * policy.multiplier, policy.max_backoff);
      grpc::Alarm* alarm = call->pauses.emplace_back(std::make_unique<grpc::Alarm>()).get();
      // The callback gives its reference up when it runs (it always runs
      // once), so the call does not keep itself alive through its alarms.
      alarm->Set(absl::ToChronoTime(absl::Now() + pause), [this, call](bool) mutable {
        std::shared_ptr<AsyncCall> next = std::move(call);
        StartAttempt(std::move(next));
      });
      return;
    }
  }
  absl::Status result = Finish(std::move(call->method), status, call->start, call->attempts);
  std::function<void(absl::Status)> done = std::move(call->done);
  done(std::move(result));
}

}  // namespace draughts::platform
