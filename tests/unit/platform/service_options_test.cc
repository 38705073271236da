#include "platform/service_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "platform/logging.h"

namespace draughts::platform {
namespace {

absl::StatusOr<Config> ParseWith(std::vector<const char*> args,
                                 std::map<std::string, std::string> env = {}) {
  ConfigSpec spec("rating");
  AddStandardServiceOptions(spec, "DRAUGHTS_RATING", 50055, 9465);
  std::vector<const char*> argv = {"rating"};
  argv.insert(argv.end(), args.begin(), args.end());
  ParseOptions options;
  options.env = [env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  return ParseConfig(spec, static_cast<int>(argv.size()), argv.data(), options);
}

TEST(ServiceOptionsTest, DefaultsUseTheServicePorts) {
  auto config = ParseWith({});
  ASSERT_TRUE(config.ok()) << config.status();
  auto options = ServeOptionsFromConfig(*config);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->address, "0.0.0.0:50055");
  EXPECT_EQ(options->metrics_port, 9465);
  EXPECT_EQ(options->drain, absl::Seconds(5));
  EXPECT_EQ(options->shutdown_timeout, absl::Seconds(10));
  EXPECT_EQ(options->readiness_interval, absl::Seconds(2));
}

TEST(ServiceOptionsTest, EnvUsesThePrefixAndFlagsWin) {
  auto config = ParseWith({"--drain=2s"}, {{"DRAUGHTS_RATING_LISTEN", "127.0.0.1:0"},
                                           {"DRAUGHTS_RATING_DRAIN", "9s"},
                                           {"DRAUGHTS_RATING_METRICS_PORT", "-1"}});
  ASSERT_TRUE(config.ok()) << config.status();
  auto options = ServeOptionsFromConfig(*config);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->address, "127.0.0.1:0");
  EXPECT_EQ(options->drain, absl::Seconds(2));
  EXPECT_EQ(options->metrics_port, -1);
}

TEST(ServiceOptionsTest, OutOfRangeValuesAreRejected) {
  auto config = ParseWith({"--metrics-port=70000"});
  ASSERT_TRUE(config.ok());
  auto options = ServeOptionsFromConfig(*config);
  EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(options.status().message()), ::testing::HasSubstr("70000"));

  config = ParseWith({"--drain=-1s"});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(ServeOptionsFromConfig(*config).status().code(), absl::StatusCode::kInvalidArgument);

  config = ParseWith({"--readiness-interval=0s"});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(ServeOptionsFromConfig(*config).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ServiceOptionsTest, ReadinessIntervalComesFromEnvOrFlag) {
  auto config = ParseWith({}, {{"DRAUGHTS_RATING_READINESS_INTERVAL", "500ms"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ServeOptionsFromConfig(*config)->readiness_interval, absl::Milliseconds(500));
  config = ParseWith({"--readiness-interval=3s"}, {{"DRAUGHTS_RATING_READINESS_INTERVAL", "1s"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ServeOptionsFromConfig(*config)->readiness_interval, absl::Seconds(3));
}

TEST(ServiceOptionsTest, HandlerThreadsKeptComeFromEnvOrFlagWithinRange) {
  auto config = ParseWith({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ServeOptionsFromConfig(*config)->max_idle_handler_threads, kDefaultIdleHandlerThreads);
  config = ParseWith({}, {{"DRAUGHTS_RATING_MAX_HANDLER_THREADS", "64"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ServeOptionsFromConfig(*config)->max_idle_handler_threads, 64);
  config = ParseWith({"--max-handler-threads=8"}, {{"DRAUGHTS_RATING_MAX_HANDLER_THREADS", "64"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(ServeOptionsFromConfig(*config)->max_idle_handler_threads, 8);
  for (const char* bad : {"--max-handler-threads=1", "--max-handler-threads=5000"}) {
    config = ParseWith({bad});
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(ServeOptionsFromConfig(*config).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(ServiceOptionsTest, LogLevelIsValidated) {
  auto config = ParseWith({"--log-level=chatty"});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(InitLoggingFromConfig(*config, "rating").code(), absl::StatusCode::kInvalidArgument);

  config = ParseWith({"--log-level=error"});
  ASSERT_TRUE(config.ok());
  ASSERT_TRUE(InitLoggingFromConfig(*config, "rating").ok());
  EXPECT_EQ(MinLogLevel(), LogLevel::kError);
  InitLogging("draughts", LogLevel::kInfo);
}

}  // namespace
}  // namespace draughts::platform
