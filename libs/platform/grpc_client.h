// A typed client for one backend service, so no caller repeats the
// ClientContext / deadline / retry / metrics code of every unary call:
//
//   using GameClient = GrpcClient<v1::GameService>;
//   DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<GameClient> game,
//                             GameClient::Create({.target = "game-state:50051"}));
//   absl::StatusOr<v1::SubmitMoveResponse> moved =
//       game->Call(&GameClient::Stub::SubmitMove, request, {.safe_to_retry = true});
//
// One channel per client (create one client per backend and share it: it is
// thread-safe), with keepalive pings so a backend that vanished without
// closing its connections (a node lost) is noticed in seconds, not minutes,
// and a short reconnect backoff so a restarted backend is found quickly.
//
// Deadline: CallOptions::timeout (or GrpcClientOptions::timeout) bounds the
// whole call, retries included; every attempt runs against that one
// deadline, and no retry starts if its pause would reach it.
//
// Retries: only UNAVAILABLE, and only when the caller says the call is safe
// to repeat. UNAVAILABLE leaves the outcome unknown (the backend may have
// applied the call before the reply was lost), so a repeat must not change
// anything the first attempt did: every draughts call is built so, by
// contract (a move carries its expected ply, a create its idempotency key).
// Pauses grow exponentially with random jitter so many clients hitting a
// restarting backend do not retry in lockstep. Other codes are answers, not
// failures of the transport, and are returned at once.
//
// Metrics (labels: method = "/pkg.Service/Method", code = status code name):
//   draughts_rpc_client_handled_total{method,code}  calls by final code
//   draughts_rpc_client_handling_seconds{method}    call latency, retries included
//   draughts_rpc_client_retries_total{method}       attempts after the first
//
// CallAsync makes the same unary call with gRPC's callback API, so no
// thread waits while the backend answers (a gateway with thousands of
// sockets): same deadline, retries (pauses on a grpc::Alarm, no thread
// sleeping) and metrics; the answer goes to a callback on a gRPC thread.
//
// Streaming calls (WatchGame) have no retry here: use stub() with a context
// from NewContext() and resume from the last event id yourself.
#ifndef DRAUGHTS_PLATFORM_GRPC_CLIENT_H_
#define DRAUGHTS_PLATFORM_GRPC_CLIENT_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/support/status.h>

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "prometheus/registry.h"

namespace draughts::platform {

// The defaults ride over a blip (a connection reset, a replica going away
// behind a Service): pauses of about 50, 100 and 200 ms. Riding over a
// whole restart needs more attempts and a longer call timeout.
struct RetryPolicy {
  int max_attempts = 4;  // the first attempt included; 1 = never retry
  absl::Duration initial_backoff = absl::Milliseconds(50);
  absl::Duration max_backoff = absl::Seconds(1);
  double multiplier = 2.0;
  // Each pause is the backoff times a random factor in [1 - jitter, 1 + jitter].
  double jitter = 0.2;
};

struct GrpcClientOptions {
  // "host:port", or "dns:///game-state:50051" to spread over every address
  // a Kubernetes headless Service resolves to (with round_robin below).
  std::string target;
  // Default time budget of a call, retries included.
  absl::Duration timeout = absl::Seconds(5);
  RetryPolicy retry;
  // A ping after this long without traffic; the connection is dropped
  // when its ack takes longer than keepalive_timeout. Keep it at 10 s or
  // more: servers run through Serve take faster pings for abuse (GOAWAY).
  absl::Duration keepalive_time = absl::Seconds(30);
  absl::Duration keepalive_timeout = absl::Seconds(10);
  // Upper bound of gRPC's own pause between reconnection attempts (its
  // default, 2 minutes, would keep a restarted backend unused that long).
  absl::Duration max_reconnect_backoff = absl::Seconds(2);
  // How long a connection may take to set up (TCP and HTTP/2 settings)
  // before gRPC drops it and backs off. A loaded machine has taken over
  // 100 ms on loopback; a dead address on loopback is refused at once.
  absl::Duration connect_timeout = absl::Seconds(5);
  // "round_robin" spreads calls over every resolved address; empty keeps
  // gRPC's default (pick_first).
  std::string load_balancing_policy;
  // Registry for the client metrics; null means the process-wide one.
  std::shared_ptr<prometheus::Registry> metrics_registry;
};

struct CallOptions {
  // Zero: GrpcClientOptions::timeout.
  absl::Duration timeout = absl::ZeroDuration();
  // Retry UNAVAILABLE. Set it only when repeating the call cannot change
  // anything its first attempt did (see the top of this file).
  bool safe_to_retry = false;
};

// The part of a client that does not depend on the service: channel,
// deadline, retry loop, metrics. GrpcClient<Service> adds the typed stub.
class GrpcClientCore {
 public:
  // INVALID_ARGUMENT for an empty target or bad numbers; INTERNAL when the
  // registry already has one of the metric names with another type.
  static absl::StatusOr<std::shared_ptr<GrpcClientCore>> Create(GrpcClientOptions options);
  // Waits for the asynchronous calls still finishing: each holds the
  // channel through its context, and a channel whose last reference goes
  // on one of gRPC's callback threads makes that thread join itself. So
  // never destroy a client from one of its own callbacks.
  ~GrpcClientCore();
  GrpcClientCore(const GrpcClientCore&) = delete;
  GrpcClientCore& operator=(const GrpcClientCore&) = delete;

  const GrpcClientOptions& options() const { return options_; }
  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }

  // Runs `attempt` with a fresh context per attempt until it answers
  // anything but UNAVAILABLE, attempts run out, or the deadline is near,
  // and records the metrics. The result is the last attempt's status.
  absl::Status Run(const CallOptions& options,
                   const std::function<grpc::Status(grpc::ClientContext&)>& attempt);

  // As Run, without blocking: `attempt` starts one attempt on the context
  // it is given and arranges for its argument to be called with the
  // attempt's status; `done` gets the final status, once, on a gRPC thread.
  // This core must outlive the call.
  using AsyncAttempt =
      std::function<void(grpc::ClientContext*, std::function<void(grpc::Status)> finished)>;
  void RunAsync(const CallOptions& options, AsyncAttempt attempt,
                std::function<void(absl::Status)> done);

  // A context with the deadline of `timeout` (zero: the default timeout).
  std::unique_ptr<grpc::ClientContext> NewContext(absl::Duration timeout = {}) const;

 private:
  struct Metrics;
  struct AsyncCall;
  GrpcClientCore(GrpcClientOptions options, std::shared_ptr<grpc::Channel> channel,
                 std::unique_ptr<Metrics> metrics);
  void StartAttempt(std::shared_ptr<AsyncCall> call);
  void OnAttemptDone(std::shared_ptr<AsyncCall> call, const grpc::Status& status);
  // Records the call's metrics and returns its status as the caller sees it.
  absl::Status Finish(std::string method, const grpc::Status& status, absl::Time start,
                      int attempts);

  GrpcClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<Metrics> metrics_;
  absl::Mutex async_mu_;
  int async_calls_ ABSL_GUARDED_BY(async_mu_) = 0;
};

// `Service` is a generated service class (v1::GameService).
template <typename Service>
class GrpcClient {
 public:
  using Stub = typename Service::StubInterface;

  static absl::StatusOr<std::unique_ptr<GrpcClient>> Create(GrpcClientOptions options) {
    absl::StatusOr<std::shared_ptr<GrpcClientCore>> core =
        GrpcClientCore::Create(std::move(options));
    if (!core.ok()) return core.status();
    std::unique_ptr<Stub> stub = Service::NewStub((*core)->channel());
    return std::make_unique<GrpcClient>(*std::move(core), std::move(stub));
  }

  // Tests can pass a stub of their own (a mock) with a core.
  GrpcClient(std::shared_ptr<GrpcClientCore> core, std::unique_ptr<Stub> stub)
      : core_(std::move(core)), stub_(std::move(stub)) {}

  // One unary call: `method` is a member of Stub (`&Client::Stub::GetGame`)
  // or of the generated Service::Stub.
  template <typename StubClass, typename Request, typename Response>
  absl::StatusOr<Response> Call(grpc::Status (StubClass::*method)(grpc::ClientContext*,
                                                                  const Request&, Response*),
                                const Request& request, const CallOptions& options = {}) {
    static_assert(std::is_base_of_v<Stub, StubClass> || std::is_base_of_v<StubClass, Stub>,
                  "the method must belong to this service's stub");
    StubClass* target = nullptr;
    if constexpr (std::is_base_of_v<StubClass, Stub>) {
      target = stub_.get();
    } else {
      target = dynamic_cast<StubClass*>(stub_.get());
      if (target == nullptr) {
        return absl::FailedPreconditionError(
            "this client's stub is not the generated Stub; call through Stub instead");
      }
    }
    Response response;
    absl::Status status = core_->Run(options, [&](grpc::ClientContext& context) {
      response.Clear();
      return (target->*method)(&context, request, &response);
    });
    if (!status.ok()) return status;
    return response;
  }

  // The same call without blocking (see the top of this file): `method` is
  // a member of Stub::async_interface (`&Client::Stub::async_interface::
  // SubmitMove`); `done` runs exactly once, on a gRPC thread, or at once
  // here with FAILED_PRECONDITION for a stub without the callback API (a
  // mock). This client must outlive the call.
  template <typename Request, typename Response>
  void CallAsync(void (Stub::async_interface::*method)(grpc::ClientContext*, const Request*,
                                                       Response*,
                                                       std::function<void(grpc::Status)>),
                 std::type_identity_t<Request> request, const CallOptions& options,
                 std::type_identity_t<std::function<void(absl::StatusOr<Response>)>> done) {
    typename Stub::async_interface* async = stub_->async();
    if (async == nullptr) {
      done(absl::FailedPreconditionError("this client's stub has no callback API"));
      return;
    }
    auto call = std::make_shared<std::pair<Request, Response>>(std::move(request), Response());
    core_->RunAsync(
        options,
        [async, method, call](grpc::ClientContext* context,
                              std::function<void(grpc::Status)> finished) {
          call->second.Clear();
          (async->*method)(context, &call->first, &call->second, std::move(finished));
        },
        [call, done = std::move(done)](absl::Status status) {
          if (!status.ok()) {
            done(std::move(status));
          } else {
            done(std::move(call->second));
          }
        });
  }

  Stub& stub() const { return *stub_; }
  GrpcClientCore& core() const { return *core_; }
  std::unique_ptr<grpc::ClientContext> NewContext(absl::Duration timeout = {}) const {
    return core_->NewContext(timeout);
  }

 private:
  std::shared_ptr<GrpcClientCore> core_;
  std::unique_ptr<Stub> stub_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_GRPC_CLIENT_H_
