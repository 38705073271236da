#include "platform/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

class ConfigTest : public ::testing::Test {
 protected:
  ConfigTest() : spec_("game-state", "Authoritative games.") {
    spec_.AddString("redis", "GS_REDIS", "127.0.0.1:6379", "Redis address")
        .AddInt("port", "GS_PORT", 50051, "gRPC port")
        .AddBool("verbose", "GS_VERBOSE", false, "chatty logs")
        .AddDuration("drain", "GS_DRAIN", absl::Seconds(5), "drain period")
        .AddString("flag-only", "", "x", "no env var");
  }

  absl::StatusOr<Config> Parse(std::vector<std::string> args) {
    std::vector<const char*> argv = {"game-state"};
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    ParseOptions options;
    options.env = [this](const std::string& name) -> std::optional<std::string> {
      auto it = env_.find(name);
      if (it == env_.end()) return std::nullopt;
      return it->second;
    };
    options.help_out = &help_;
    return ParseConfig(spec_, static_cast<int>(argv.size()), argv.data(), options);
  }

  ConfigSpec spec_;
  std::map<std::string, std::string> env_;
  std::ostringstream help_;
};

TEST_F(ConfigTest, DefaultsApplyWhenNothingIsSet) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetString("redis").value(), "127.0.0.1:6379");
  EXPECT_EQ(config->GetInt("port").value(), 50051);
  EXPECT_FALSE(config->GetBool("verbose").value());
  EXPECT_EQ(config->GetDuration("drain").value(), absl::Seconds(5));
  EXPECT_EQ(config->Source("port").value(), ValueSource::kDefault);
}

TEST_F(ConfigTest, EnvironmentOverridesDefault) {
  env_["GS_PORT"] = "6000";
  env_["GS_DRAIN"] = "250ms";
  env_["GS_VERBOSE"] = "yes";
  auto config = Parse({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetInt("port").value(), 6000);
  EXPECT_EQ(config->GetDuration("drain").value(), absl::Milliseconds(250));
  EXPECT_TRUE(config->GetBool("verbose").value());
  EXPECT_EQ(config->Source("port").value(), ValueSource::kEnv);
}

TEST_F(ConfigTest, FlagOverridesEnvironment) {
  env_["GS_PORT"] = "6000";
  env_["GS_REDIS"] = "from-env:1";
  auto config = Parse({"--port=7000", "--redis", "from-flag:2"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetInt("port").value(), 7000);
  EXPECT_EQ(config->GetString("redis").value(), "from-flag:2");
  EXPECT_EQ(config->Source("redis").value(), ValueSource::kFlag);
}

TEST_F(ConfigTest, BooleanFlagForms) {
  env_["GS_VERBOSE"] = "true";
  auto config = Parse({"--noverbose"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->GetBool("verbose").value());

  config = Parse({"--verbose"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->GetBool("verbose").value());

  config = Parse({"--verbose=off"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->GetBool("verbose").value());
}

TEST_F(ConfigTest, DashesAndUnderscoresAreInterchangeable) {
  auto config = Parse({"--flag_only=y"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetString("flag-only").value(), "y");
  EXPECT_EQ(config->GetString("flag_only").value(), "y");
}

TEST_F(ConfigTest, LaterFlagWins) {
  auto config = Parse({"--port=1", "--port=2"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->GetInt("port").value(), 2);
}

TEST_F(ConfigTest, UnknownFlagIsAClearError) {
  auto config = Parse({"--prot=1"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("unknown flag --prot"));
}

TEST_F(ConfigTest, NegatingANonBooleanIsUnknown) {
  auto config = Parse({"--noport"});
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("unknown flag --noport"));
}

TEST_F(ConfigTest, PositionalArgumentIsRejected) {
  auto config = Parse({"stray"});
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("unexpected argument \"stray\""));
}

TEST_F(ConfigTest, MissingValueIsAnError) {
  auto config = Parse({"--port"});
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("--port needs a value"));
}

TEST_F(ConfigTest, BadFlagValueNamesTheFlag) {
  auto config = Parse({"--port=fifty"});
  ASSERT_FALSE(config.ok());
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("flag --port"));
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("\"fifty\" is not a valid int"));
}

TEST_F(ConfigTest, BadEnvironmentValueNamesTheVariable) {
  env_["GS_DRAIN"] = "soon";
  auto config = Parse({});
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("environment variable GS_DRAIN"));
  EXPECT_THAT(std::string(config.status().message()), HasSubstr("not a valid duration"));
}

TEST_F(ConfigTest, BadEnvironmentValueIsAnErrorEvenWhenAFlagOverridesIt) {
  // A broken env var is reported even if a flag would override it: the
  // operator should learn about it rather than be surprised later.
  env_["GS_PORT"] = "x";
  auto config = Parse({"--port=1"});
  EXPECT_FALSE(config.ok());
}

TEST_F(ConfigTest, HelpPrintsEveryOptionWithEnvAndDefault) {
  auto config = Parse({"--help"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_TRUE(config->help_requested());
  std::string help = help_.str();
  EXPECT_THAT(help, HasSubstr("Usage: game-state"));
  EXPECT_THAT(help, HasSubstr("Authoritative games."));
  EXPECT_THAT(help, HasSubstr("--redis <string>  [env GS_REDIS]  (default \"127.0.0.1:6379\")"));
  EXPECT_THAT(help, HasSubstr("--port <int>  [env GS_PORT]  (default \"50051\")"));
  EXPECT_THAT(help, HasSubstr("--drain <duration>"));
  EXPECT_THAT(help, HasSubstr("--flag-only <string>  (default \"x\")"));
}

TEST_F(ConfigTest, NoHelpMeansNoOutput) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->help_requested());
  EXPECT_EQ(help_.str(), "");
}

TEST_F(ConfigTest, GettersRejectUndeclaredNamesAndWrongTypes) {
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->GetString("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(config->GetInt("redis").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(config->GetBool("port").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(config->Source("nope").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(ConfigTest, RedeclaringAnOptionReplacesItsDefault) {
  spec_.AddInt("port", "GS_PORT", 1234, "moved");
  auto config = Parse({});
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->GetInt("port").value(), 1234);
  EXPECT_EQ(spec_.options().size(), 5u);
}

TEST(ProcessEnvTest, ReadsTheRealEnvironment) {
  ::setenv("DRAUGHTS_CONFIG_TEST_VAR", "hello", 1);
  EXPECT_EQ(ProcessEnv("DRAUGHTS_CONFIG_TEST_VAR"), "hello");
  ::unsetenv("DRAUGHTS_CONFIG_TEST_VAR");
  EXPECT_EQ(ProcessEnv("DRAUGHTS_CONFIG_TEST_VAR"), std::nullopt);
}

}  // namespace
}  // namespace draughts::platform
