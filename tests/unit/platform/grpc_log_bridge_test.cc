#include "platform/grpc_log_bridge.h"

#include <gmock/gmock.h>
#include <grpc/grpc.h>
#include <grpc/support/log.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/logging.h"

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

TEST(GrpcLogBridgeTest, GrpcLinesComeOutInOurFormatAtTheirLevel) {
  std::vector<std::string> lines;
  SetLogSinkForTesting([&](std::string_view line) { lines.emplace_back(line); });
  InitLogging("bridge", LogLevel::kInfo);
  grpc_init();  // reads GRPC_VERBOSITY; before it gRPC prints nothing
  RouteGrpcLogsToLogging();
  RouteGrpcLogsToLogging();  // idempotent
  gpr_log(GPR_ERROR, "listener failed: %d", 98);
  gpr_log(GPR_DEBUG, "too chatty");  // filtered: below both gRPC verbosity and our level
  SetLogSinkForTesting(nullptr);
  InitLogging("draughts", LogLevel::kInfo);
  grpc_shutdown();

  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], HasSubstr(" ERROR bridge msg=\"listener failed: 98\" source=grpc file="));
  EXPECT_THAT(lines[0], HasSubstr("grpc_log_bridge_test.cc line="));
}

}  // namespace
}  // namespace draughts::platform
