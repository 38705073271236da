#include "platform/metrics.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "prometheus/counter.h"

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

// Minimal HTTP/1.0 GET; returns the whole response (headers + body).
std::string HttpGet(int port, const std::string& path) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  std::string response;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    std::string request = "GET " + path + " HTTP/1.0\r\nHost: localhost\r\n\r\n";
    if (::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      ssize_t n;
      while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) response.append(buffer, n);
    }
  }
  ::close(fd);
  return response;
}

class MetricsExposerTest : public ::testing::Test {
 protected:
  void TearDown() override { StopMetricsExposer(); }
};

TEST_F(MetricsExposerTest, PortZeroPicksAPortAndServesTheProcessRegistry) {
  prometheus::BuildCounter()
      .Name("draughts_metrics_test_total")
      .Help("test counter")
      .Register(*MetricsRegistry())
      .Add({{"kind", "exposer"}})
      .Increment(3);
  auto port = StartMetricsExposer("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  EXPECT_GT(*port, 0);
  EXPECT_EQ(MetricsExposerPort(), *port);
  std::string response = HttpGet(*port, "/metrics");
  EXPECT_THAT(response, HasSubstr("200"));
  EXPECT_THAT(response, HasSubstr("draughts_metrics_test_total{kind=\"exposer\"} 3"));
}

TEST_F(MetricsExposerTest, OnlyOneExposerPerProcess) {
  auto first = StartMetricsExposer("127.0.0.1", 0);
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = StartMetricsExposer("127.0.0.1", 0);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(MetricsExposerPort(), *first);
}

TEST_F(MetricsExposerTest, StopFreesTheSlotAndThePort) {
  auto first = StartMetricsExposer("127.0.0.1", 0);
  ASSERT_TRUE(first.ok());
  StopMetricsExposer();
  EXPECT_EQ(MetricsExposerPort(), 0);
  EXPECT_EQ(HttpGet(*first, "/metrics"), "");
  auto again = StartMetricsExposer("127.0.0.1", *first);
  EXPECT_TRUE(again.ok()) << again.status();
}

TEST_F(MetricsExposerTest, BadPortsAreErrorsNotCrashes) {
  EXPECT_EQ(StartMetricsExposer("127.0.0.1", 70000).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StartMetricsExposer("127.0.0.1", -5).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto taken = StartMetricsExposer("127.0.0.1", 0);
  ASSERT_TRUE(taken.ok());
  // A port in use by someone else: simulate by asking the OS for one that
  // is bound (our own exposer's), after releasing our slot bookkeeping only.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  StopMetricsExposer();
  auto busy = StartMetricsExposer("127.0.0.1", ntohs(addr.sin_port));
  EXPECT_EQ(busy.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(MetricsExposerPort(), 0);
  ::close(fd);
}

}  // namespace
}  // namespace draughts::platform
