#include "platform/serve.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "platform/testing/echo_service.h"

namespace draughts::platform {
namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// Health/Check as a client sees it: SERVING, NOT_SERVING, or the transport
// error when the server no longer answers.
struct HealthAnswer {
  grpc::StatusCode code;
  HealthCheckResponse::ServingStatus status;
};

HealthAnswer CheckHealth(int port, const std::string& service = "") {
  auto channel =
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials());
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  HealthCheckRequest request;
  request.set_service(service);
  HealthCheckResponse response;
  grpc::Status status = stub->Check(&context, request, &response);
  return {status.error_code(), response.status()};
}

grpc::Status Echo(int port, int delay_ms = 0) {
  auto channel =
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials());
  auto stub = platform::testing::EchoService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  platform::testing::EchoRequest request;
  request.set_text("ping");
  request.set_delay_ms(delay_ms);
  platform::testing::EchoReply reply;
  return stub->Echo(&context, request, &reply);
}

ServeOptions LocalOptions() {
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  return options;
}

TEST(RunningServerTest, ReportsServingForServerAndEachService) {
  platform::testing::EchoServiceImpl echo;
  auto server = RunningServer::Start(LocalOptions(), {&echo});
  ASSERT_TRUE(server.ok()) << server.status();
  int port = (*server)->port();
  EXPECT_GT(port, 0);

  HealthAnswer overall = CheckHealth(port);
  EXPECT_EQ(overall.code, grpc::StatusCode::OK);
  EXPECT_EQ(overall.status, HealthCheckResponse::SERVING);
  HealthAnswer echo_health = CheckHealth(port, "draughts.platform.testing.EchoService");
  EXPECT_EQ(echo_health.code, grpc::StatusCode::OK);
  EXPECT_EQ(echo_health.status, HealthCheckResponse::SERVING);
  EXPECT_EQ(CheckHealth(port, "no.such.Service").code, grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(Echo(port).ok());
}

TEST(RunningServerTest, DrainReportsNotServingButKeepsAnsweringThenStops) {
  platform::testing::EchoServiceImpl echo;
  auto started = RunningServer::Start(LocalOptions(), {&echo});
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<RunningServer> server = std::move(started).value();
  int port = server->port();
  ASSERT_EQ(CheckHealth(port).status, HealthCheckResponse::SERVING);

  absl::Time begin = absl::Now();
  std::thread stopper([&] { server->DrainAndStop(absl::Milliseconds(1500), absl::Seconds(1)); });
  absl::SleepFor(absl::Milliseconds(300));
  // During the drain: health says NOT_SERVING, real calls still succeed.
  HealthAnswer during = CheckHealth(port);
  EXPECT_EQ(during.code, grpc::StatusCode::OK);
  EXPECT_EQ(during.status, HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(CheckHealth(port, "draughts.platform.testing.EchoService").status,
            HealthCheckResponse::NOT_SERVING);
  EXPECT_TRUE(Echo(port).ok());
  stopper.join();
  absl::Duration took = absl::Now() - begin;
  EXPECT_GE(took, absl::Milliseconds(1500));
  EXPECT_LT(took, absl::Seconds(5));
  // After the stop nothing answers.
  EXPECT_EQ(CheckHealth(port).code, grpc::StatusCode::UNAVAILABLE);
}

TEST(RunningServerTest, InFlightCallFinishesWithinShutdownTimeout) {
  platform::testing::EchoServiceImpl echo;
  auto started = RunningServer::Start(LocalOptions(), {&echo});
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<RunningServer> server = std::move(started).value();
  int port = server->port();

  auto slow = std::async(std::launch::async, [port] { return Echo(port, 400); });
  while (echo.calls() == 0) absl::SleepFor(absl::Milliseconds(5));
  server->DrainAndStop(absl::ZeroDuration(), absl::Seconds(3));
  EXPECT_TRUE(slow.get().ok()) << "a call shorter than the shutdown timeout must complete";
}

TEST(RunningServerTest, CallLongerThanShutdownTimeoutIsCancelled) {
  platform::testing::EchoServiceImpl echo;
  auto started = RunningServer::Start(LocalOptions(), {&echo});
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<RunningServer> server = std::move(started).value();
  int port = server->port();

  auto slow = std::async(std::launch::async, [port] { return Echo(port, 4000); });
  while (echo.calls() == 0) absl::SleepFor(absl::Milliseconds(5));
  absl::Time begin = absl::Now();
  server->DrainAndStop(absl::ZeroDuration(), absl::Milliseconds(200));
  EXPECT_LT(absl::Now() - begin, absl::Seconds(3));
  EXPECT_FALSE(slow.get().ok());
}

TEST(RunningServerTest, BadAddressIsUnavailable) {
  ServeOptions options = LocalOptions();
  options.address = "not an address";
  auto server = RunningServer::Start(options, {});
  EXPECT_EQ(server.status().code(), absl::StatusCode::kUnavailable);
}

TEST(RunningServerTest, PortInUseIsUnavailable) {
  auto first = RunningServer::Start(LocalOptions(), {});
  ASSERT_TRUE(first.ok());
  ServeOptions options = LocalOptions();
  options.address = absl::StrCat("127.0.0.1:", (*first)->port());
  auto second = RunningServer::Start(options, {});
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
}

TEST(RunningServerTest, NullServiceIsRejected) {
  auto server = RunningServer::Start(LocalOptions(), {nullptr});
  EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ServeTest, TriggerDrainsThenReturnsOk) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  platform::testing::EchoServiceImpl echo;
  ServeOptions options = LocalOptions();
  options.drain = absl::Milliseconds(800);
  options.shutdown_signal = signal->get();
  std::atomic<int> port{0};
  absl::Notification started;
  options.on_started = [&](int grpc_port, int metrics_port) {
    port = grpc_port;
    EXPECT_EQ(metrics_port, 0);  // not asked for
    started.Notify();
  };
  auto serve = std::async(std::launch::async, [&] { return Serve(options, {&echo}); });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_EQ(CheckHealth(port).status, HealthCheckResponse::SERVING);

  absl::Time begin = absl::Now();
  (*signal)->Trigger(SIGTERM);
  absl::SleepFor(absl::Milliseconds(200));
  EXPECT_EQ(CheckHealth(port).status, HealthCheckResponse::NOT_SERVING);
  EXPECT_TRUE(serve.get().ok());
  EXPECT_GE(absl::Now() - begin, absl::Milliseconds(800));
}

TEST(ServeTest, ShutdownHookRunsOnceAtTheSignalBeforeTheDrainEnds) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  platform::testing::EchoServiceImpl echo;
  ServeOptions options = LocalOptions();
  options.drain = absl::Milliseconds(500);
  options.shutdown_signal = signal->get();
  std::atomic<int> port{0};
  absl::Notification started;
  options.on_started = [&](int grpc_port, int) {
    port = grpc_port;
    started.Notify();
  };
  std::atomic<int> hook_calls{0};
  std::atomic<bool> serving_during_hook{false};
  options.on_shutdown_requested = [&] {
    ++hook_calls;
    // Calls are still answered while the hook runs: it comes before the drain.
    serving_during_hook = Echo(port).ok();
  };
  auto serve = std::async(std::launch::async, [&] { return Serve(options, {&echo}); });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_EQ(hook_calls, 0);
  (*signal)->Trigger(SIGTERM);
  EXPECT_TRUE(serve.get().ok());
  EXPECT_EQ(hook_calls, 1);
  EXPECT_TRUE(serving_during_hook);
}

TEST(ServeTest, SecondSignalCutsTheDrainShort) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  ServeOptions options = LocalOptions();
  options.drain = absl::Seconds(30);
  options.shutdown_signal = signal->get();
  absl::Notification started;
  options.on_started = [&](int, int) { started.Notify(); };
  auto serve = std::async(std::launch::async, [&] { return Serve(options, {}); });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(absl::Seconds(10)));
  absl::Time begin = absl::Now();
  (*signal)->Trigger(SIGTERM);
  absl::SleepFor(absl::Milliseconds(200));
  (*signal)->Trigger(SIGINT);
  EXPECT_TRUE(serve.get().ok());
  EXPECT_LT(absl::Now() - begin, absl::Seconds(10));
}

TEST(ServeTest, RealSigtermStopsServeWithOk) {
  ServeOptions options = LocalOptions();
  options.drain = absl::Milliseconds(100);
  absl::Notification started;
  options.on_started = [&](int, int) { started.Notify(); };
  auto serve = std::async(std::launch::async, [&] { return Serve(options, {}); });
  ASSERT_TRUE(started.WaitForNotificationWithTimeout(absl::Seconds(10)));
  ASSERT_EQ(::kill(::getpid(), SIGTERM), 0);
  EXPECT_TRUE(serve.get().ok());
  // Serve restored the previous (default) handler on the way out.
  struct sigaction current;
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &current), 0);
  EXPECT_EQ(current.sa_handler, SIG_DFL);
}

TEST(ServeTest, StartFailureIsReturnedNotFatal) {
  auto signal = ShutdownSignal::Manual();
  ASSERT_TRUE(signal.ok());
  ServeOptions options = LocalOptions();
  options.address = "256.0.0.1:1";
  options.shutdown_signal = signal->get();
  EXPECT_EQ(Serve(options, {}).code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace draughts::platform
