#include "platform/readiness.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "health_client.h"
#include "platform/logging.h"
#include "platform/serve.h"
#include "platform/testing/echo_service.h"

namespace draughts::platform {
namespace {

using grpc::health::v1::HealthCheckResponse;
using testing::HealthBecomes;

constexpr char kEchoService[] = "draughts.platform.testing.EchoService";

// A dependency the test switches on and off.
struct FlipProbe {
  std::shared_ptr<std::atomic<bool>> up = std::make_shared<std::atomic<bool>>(true);
  std::shared_ptr<std::atomic<int>> checks = std::make_shared<std::atomic<int>>(0);
  ReadinessProbe probe(std::string name = "fake-db") const {
    return {std::move(name), [up = up, checks = checks] {
              ++*checks;
              return up->load() ? absl::OkStatus() : absl::UnavailableError("connection refused");
            }};
  }
};

// Captures log lines for the duration of a test.
class LogCapture {
 public:
  LogCapture() {
    SetLogSinkForTesting([this](std::string_view line) {
      std::lock_guard<std::mutex> lock(mu_);
      lines_.emplace_back(line);
    });
  }
  ~LogCapture() { SetLogSinkForTesting(nullptr); }
  int Count(std::string_view needle) {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(std::count_if(lines_.begin(), lines_.end(), [&](const std::string& l) {
      return l.find(needle) != std::string::npos;
    }));
  }

 private:
  std::mutex mu_;
  std::vector<std::string> lines_;
};

TEST(ReadinessCheckerTest, ReportsEachTransitionOnceAndNamesTheFailingProbe) {
  LogCapture logs;
  FlipProbe db;
  FlipProbe cache;
  std::mutex mu;
  std::vector<bool> changes;
  ReadinessChecker checker({cache.probe("cache"), db.probe("fake-db")}, absl::Milliseconds(20),
                           [&](bool ready) {
                             std::lock_guard<std::mutex> lock(mu);
                             changes.push_back(ready);
                           });
  checker.Start();
  EXPECT_TRUE(checker.ready());
  db.up->store(false);
  absl::SleepFor(absl::Milliseconds(300));  // many checks while down
  EXPECT_FALSE(checker.ready());
  absl::Status failure = checker.CheckNow();
  EXPECT_EQ(failure.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(failure.message(), "fake-db: connection refused");
  db.up->store(true);
  absl::SleepFor(absl::Milliseconds(200));
  EXPECT_TRUE(checker.ready());
  checker.Stop();
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(changes, (std::vector<bool>{false, true}));
  EXPECT_GE(db.checks->load(), 10);
  EXPECT_EQ(logs.Count("NOT_SERVING"), 1);
  EXPECT_EQ(logs.Count("dependency=fake-db"), 1);
  EXPECT_EQ(logs.Count("answer again: SERVING"), 1);
}

TEST(ReadinessCheckerTest, StopEndsTheChecksAndFurtherChanges) {
  FlipProbe db;
  std::atomic<int> changes{0};
  ReadinessChecker checker({db.probe()}, absl::Milliseconds(10), [&](bool) { ++changes; });
  checker.Start();
  checker.Stop();
  int checks = db.checks->load();
  db.up->store(false);
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_EQ(db.checks->load(), checks);
  EXPECT_EQ(changes.load(), 0);
  checker.Stop();  // idempotent
}

TEST(ReadinessServeTest, HealthFollowsTheDependencyAndCallsAreStillAnswered) {
  FlipProbe db;
  platform::testing::EchoServiceImpl echo;
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  options.readiness_probes = {db.probe()};
  options.readiness_interval = absl::Milliseconds(50);
  auto server = RunningServer::Start(options, {&echo});
  ASSERT_TRUE(server.ok()) << server.status();
  int port = (*server)->port();
  EXPECT_EQ(testing::ServingStatusOf(port), HealthCheckResponse::SERVING);

  db.up->store(false);
  EXPECT_TRUE(HealthBecomes(port, {kEchoService}, HealthCheckResponse::NOT_SERVING));
  db.up->store(true);
  EXPECT_TRUE(HealthBecomes(port, {kEchoService}, HealthCheckResponse::SERVING));
}

TEST(ReadinessServeTest, AFailingDependencyAtStartIsNotServingFromTheFirstCheck) {
  FlipProbe db;
  db.up->store(false);
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  options.readiness_probes = {db.probe()};
  options.readiness_interval = absl::Seconds(30);  // only the synchronous first check counts
  platform::testing::EchoServiceImpl echo;
  auto server = RunningServer::Start(options, {&echo});
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_EQ(testing::ServingStatusOf((*server)->port()), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(testing::ServingStatusOf((*server)->port(), kEchoService),
            HealthCheckResponse::NOT_SERVING);
}

TEST(ReadinessServeTest, DrainingWinsOverADependencyComingBack) {
  FlipProbe db;
  db.up->store(false);
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  options.readiness_probes = {db.probe()};
  options.readiness_interval = absl::Milliseconds(20);
  auto started = RunningServer::Start(options, {});
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<RunningServer> server = std::move(started).value();
  int port = server->port();
  ASSERT_EQ(testing::ServingStatusOf(port), HealthCheckResponse::NOT_SERVING);

  std::thread stopper([&] { server->DrainAndStop(absl::Milliseconds(800), absl::Seconds(1)); });
  absl::SleepFor(absl::Milliseconds(100));
  db.up->store(true);
  absl::SleepFor(absl::Milliseconds(300));  // many intervals
  EXPECT_EQ(testing::ServingStatusOf(port), HealthCheckResponse::NOT_SERVING);
  stopper.join();
}

TEST(ReadinessServeTest, NonPositiveIntervalIsRefused) {
  FlipProbe db;
  ServeOptions options;
  options.address = "127.0.0.1:0";
  options.metrics_registry = std::make_shared<prometheus::Registry>();
  options.readiness_probes = {db.probe()};
  options.readiness_interval = absl::ZeroDuration();
  EXPECT_EQ(RunningServer::Start(options, {}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ReadinessProbeTest, RedisProbeFailsFastWhenNothingListens) {
  RedisOptions options;
  options.port = 1;              // nothing listens there
  options.connect_attempts = 5;  // the probe makes one attempt anyway
  options.initial_backoff = absl::Seconds(1);
  ReadinessProbe probe = RedisReadinessProbe(options);
  EXPECT_EQ(probe.name, "redis");
  absl::Time begin = absl::Now();
  EXPECT_EQ(probe.check().code(), absl::StatusCode::kUnavailable);
  EXPECT_LT(absl::Now() - begin, absl::Milliseconds(900));
}

}  // namespace
}  // namespace draughts::platform
