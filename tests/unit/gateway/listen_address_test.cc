#include "gateway/listen_address.h"

#include <gtest/gtest.h>

#include "absl/strings/match.h"

namespace draughts::gateway {
namespace {

TEST(ListenAddressTest, HostAndPort) {
  absl::StatusOr<ListenAddress> any = ParseListenAddress("0.0.0.0:8080");
  ASSERT_TRUE(any.ok()) << any.status();
  EXPECT_EQ(any->host, "0.0.0.0");
  EXPECT_EQ(any->port, 8080);
  absl::StatusOr<ListenAddress> free_port = ParseListenAddress("127.0.0.1:0");
  ASSERT_TRUE(free_port.ok());
  EXPECT_EQ(free_port->port, 0);
  absl::StatusOr<ListenAddress> v6 = ParseListenAddress("[::1]:65535");
  ASSERT_TRUE(v6.ok()) << v6.status();
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->port, 65535);
}

TEST(ListenAddressTest, RefusesWhatIsNotHostColonPort) {
  for (const char* bad :
       {"", "8080", ":8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1",
        "127.0.0.1:80x", "127.0.0.1:+80", "::1:8080", "[::1:80", "[]:80", "127.0.0.1:0000080"}) {
    absl::StatusOr<ListenAddress> parsed = ParseListenAddress(bad);
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_TRUE(absl::StrContains(parsed.status().message(), "--listen")) << bad;
  }
}

}  // namespace
}  // namespace draughts::gateway
