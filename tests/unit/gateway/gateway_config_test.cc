#include "gateway/gateway_config.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "absl/strings/match.h"

namespace draughts::gateway {
namespace {

absl::StatusOr<platform::Config> ParseWithEnv(const std::map<std::string, std::string>& env) {
  platform::ParseOptions options;
  options.env = [env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  const char* argv[] = {"gateway"};
  return platform::ParseConfig(GatewayConfigSpec(), 1, argv, options);
}

TEST(GatewayConfigTest, OwnOptionsReadGatewayPrefixedVariables) {
  absl::StatusOr<platform::Config> config = ParseWithEnv({
      {"DRAUGHTS_GATEWAY_LISTEN", "127.0.0.1:8181"},
      {"DRAUGHTS_GATEWAY_METRICS_PORT", "9999"},
      {"DRAUGHTS_GATEWAY_LOG_LEVEL", "debug"},
      {"DRAUGHTS_GATEWAY_MAX_SOCKETS", "7"},
  });
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetString("listen").value(), "127.0.0.1:8181");
  EXPECT_EQ(config->GetInt("metrics-port").value(), 9999);
  EXPECT_EQ(config->GetString("log-level").value(), "debug");
  EXPECT_EQ(config->GetInt("max-sockets").value(), 7);
}

TEST(GatewayConfigTest, AnotherServicesVariablesInTheSameShellAreIgnored) {
  // What game_state or a shared shell may have set for itself.
  absl::StatusOr<platform::Config> config = ParseWithEnv({
      {"DRAUGHTS_LISTEN", "0.0.0.0:50051"},
      {"DRAUGHTS_METRICS_PORT", "9101"},
      {"DRAUGHTS_GAME_STATE_LISTEN", "0.0.0.0:50051"},
      {"DRAUGHTS_LOG_LEVEL", "error"},
  });
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetString("listen").value(), "0.0.0.0:8080");
  EXPECT_EQ(config->GetInt("metrics-port").value(), 9100);
  EXPECT_EQ(config->GetString("log-level").value(), "info");
}

TEST(GatewayConfigTest, SharedAddressesKeepTheirSharedNames) {
  absl::StatusOr<platform::Config> config = ParseWithEnv({
      {"DRAUGHTS_REDIS", "redis:6379"},
      {"DRAUGHTS_GAME_STATE_ADDR", "game-state:50051"},
      {"DRAUGHTS_RATING_ADDR", "rating:50051"},
      {"DRAUGHTS_MATCHMAKING_ADDR", "matchmaking:50052"},
  });
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetString("redis").value(), "redis:6379");
  EXPECT_EQ(config->GetString("game-state").value(), "game-state:50051");
  EXPECT_EQ(config->GetString("rating").value(), "rating:50051");
  EXPECT_EQ(config->GetString("matchmaking").value(), "matchmaking:50052");
}

TEST(GatewayConfigTest, EveryVariableIsGatewayPrefixedOrAKnownSharedOne) {
  const std::set<std::string> shared = {"DRAUGHTS_REDIS",
                                        "DRAUGHTS_PG",
                                        "DRAUGHTS_GAME_STATE_ADDR",
                                        "DRAUGHTS_RATING_ADDR",
                                        "DRAUGHTS_MATCHMAKING_ADDR",
                                        "DRAUGHTS_CLOCK_ADDR",
                                        "DRAUGHTS_CHAT_ADDR"};
  const platform::ConfigSpec spec = GatewayConfigSpec();
  ASSERT_FALSE(spec.options().empty());
  for (const platform::OptionSpec& option : spec.options()) {
    EXPECT_TRUE(absl::StartsWith(option.env, "DRAUGHTS_GATEWAY_") || shared.contains(option.env))
        << "--" << option.name << " reads " << option.env;
  }
}

}  // namespace
}  // namespace draughts::gateway
