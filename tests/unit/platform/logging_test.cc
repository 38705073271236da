#include "platform/logging.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const absl::Time kWhen = absl::FromUnixMicros(1714564800123456);  // 2024-05-01T12:00:00.123456Z

TEST(FormatLogLineTest, HasTimestampLevelServiceMessageAndFields) {
  std::string line = FormatLogLine(kWhen, LogLevel::kInfo, "game-state", "move played",
                                   {{"game", "g42"}, {"ply", 17}, {"rated", true}});
  EXPECT_EQ(line,
            "2024-05-01T12:00:00.123456Z INFO game-state msg=\"move played\" game=g42 ply=17 "
            "rated=true\n");
}

TEST(FormatLogLineTest, EscapesSoAnEventIsAlwaysOneLine) {
  std::string line = FormatLogLine(kWhen, LogLevel::kError, "chat", "bad\ninput",
                                   {{"text", "say \"hi\"\r\nbye"}, {"empty", ""}});
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_THAT(line, HasSubstr("msg=\"bad\\ninput\""));
  EXPECT_THAT(line, HasSubstr("text=\"say \\\"hi\\\"\\r\\nbye\""));
  EXPECT_THAT(line, HasSubstr("empty=\"\""));
}

TEST(FormatLogLineTest, KeysAreSanitizedAndStatusesAndDurationsPrinted) {
  std::string line = FormatLogLine(kWhen, LogLevel::kWarn, "svc", "m",
                                   {{"bad key=", 1},
                                    {"status", absl::UnavailableError("redis down")},
                                    {"took", absl::Milliseconds(1500)}});
  EXPECT_THAT(line, HasSubstr(" WARN "));
  EXPECT_THAT(line, HasSubstr("bad_key_=1"));
  EXPECT_THAT(line, HasSubstr("status=\"UNAVAILABLE: redis down\""));
  EXPECT_THAT(line, HasSubstr("took=1.5s"));
}

TEST(ParseLogLevelTest, AcceptsKnownNamesInAnyCase) {
  EXPECT_EQ(ParseLogLevel("debug").value(), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("INFO").value(), LogLevel::kInfo);
  EXPECT_EQ(ParseLogLevel("Warning").value(), LogLevel::kWarn);
  EXPECT_EQ(ParseLogLevel("warn").value(), LogLevel::kWarn);
  EXPECT_EQ(ParseLogLevel("error").value(), LogLevel::kError);
  auto bad = ParseLogLevel("loud");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("\"loud\""));
}

TEST(LogTest, FiltersBelowTheConfiguredLevelAndUsesTheServiceName) {
  std::vector<std::string> lines;
  SetLogSinkForTesting([&](std::string_view line) { lines.emplace_back(line); });
  InitLogging("rating", LogLevel::kWarn);
  LogDebug("d");
  LogInfo("i");
  LogWarn("w", {{"k", "v"}});
  LogError("e");
  InitLogging("rating", LogLevel::kDebug);
  LogDebug("now visible");
  SetLogSinkForTesting(nullptr);
  InitLogging("draughts", LogLevel::kInfo);

  ASSERT_EQ(lines.size(), 3u);
  EXPECT_THAT(lines[0], HasSubstr(" WARN rating msg=w k=v"));
  EXPECT_THAT(lines[1], HasSubstr(" ERROR rating msg=e"));
  EXPECT_THAT(lines[2], HasSubstr(" DEBUG rating msg=\"now visible\""));
  for (const std::string& line : lines) EXPECT_THAT(line, Not(HasSubstr("msg=i")));
}

}  // namespace
}  // namespace draughts::platform
