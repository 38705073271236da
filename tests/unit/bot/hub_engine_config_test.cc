#include "bot/hub_engine_config.h"

#include <gtest/gtest.h>

namespace draughts::bot {
namespace {

TEST(HubEngineConfigTest, ReadsEveryKeyAndDefaults) {
  absl::StatusOr<std::vector<HubEngineConfig>> engines = ParseHubEngineConfig(
      "# comment\n"
      "\n"
      "engine id=scan name=\"Scan 3.1\" command=\"/opt/scan hub\" variants=\"international "
      "frisian\" processes=3 move-time=1.5s param.book=false param.threads=1\n"
      "  engine id=plain command=/bin/hub  \n");
  ASSERT_TRUE(engines.ok()) << engines.status();
  ASSERT_EQ(engines->size(), 2u);
  const HubEngineConfig& scan = (*engines)[0];
  EXPECT_EQ(scan.id, "scan");
  EXPECT_EQ(scan.display_name, "Scan 3.1");
  EXPECT_EQ(scan.command, "/opt/scan hub");
  EXPECT_EQ(scan.variants, (std::vector<std::string>{"international", "frisian"}));
  EXPECT_EQ(scan.processes, 3);
  EXPECT_EQ(scan.move_time, absl::Milliseconds(1500));
  ASSERT_EQ(scan.params.size(), 2u);
  EXPECT_EQ(scan.params[0], (std::pair<std::string, std::string>{"book", "false"}));
  EXPECT_EQ(scan.params[1], (std::pair<std::string, std::string>{"threads", "1"}));
  const HubEngineConfig& plain = (*engines)[1];
  EXPECT_EQ(plain.display_name, "plain");
  EXPECT_EQ(plain.variants, std::vector<std::string>{"international"});
  EXPECT_EQ(plain.processes, 1);
  EXPECT_EQ(plain.move_time, absl::Seconds(1));
}

TEST(HubEngineConfigTest, RefusesMalformedLinesNamingThem) {
  const struct {
    const char* text;
    const char* expected;
  } cases[] = {
      {"engine command=/x\n", "missing id"},
      {"engine id=a\n", "missing command"},
      {"engine id=builtin-easy command=/x\n", "builtin-"},
      {"engine id=\"a b\" command=/x\n", "id"},
      {"engine id=a command=/x variants=nope\n", "unknown rule set \"nope\""},
      {"engine id=a command=/x processes=0\n", "processes=0"},
      {"engine id=a command=/x processes=65\n", "processes=65"},
      {"engine id=a command=/x move-time=61s\n", "move-time=61s"},
      {"engine id=a command=/x move-time=abc\n", "move-time=abc"},
      {"engine id=a command=/x colour=red\n", "unknown key \"colour\""},
      {"engine id=a command=/x flag\n", "needs a value"},
      {"player id=a command=/x\n", "\"engine\""},
      {"engine id=a command=\"/x\n", "line 1"},
      {"engine id=a command=/x\nengine id=a command=/y\n", "line 2: id \"a\" is repeated"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<std::vector<HubEngineConfig>> engines = ParseHubEngineConfig(c.text);
    ASSERT_FALSE(engines.ok()) << c.text;
    EXPECT_EQ(engines.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_NE(std::string(engines.status().message()).find(c.expected), std::string::npos)
        << c.text << " -> " << engines.status();
  }
}

TEST(HubEngineConfigTest, AMissingFileIsNotFound) {
  EXPECT_EQ(LoadHubEngineConfig("/nonexistent/engines.conf").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace draughts::bot
