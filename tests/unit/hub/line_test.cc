#include "hub/line.h"

#include <gtest/gtest.h>

namespace draughts::hub {
namespace {

TEST(HubLineTest, SplitsCommandPairsAndFlags) {
  auto line = ParseHubLine("go think");
  ASSERT_TRUE(line.ok()) << line.error().ToString();
  EXPECT_EQ(line->command, "go");
  ASSERT_EQ(line->args.size(), 1u);
  EXPECT_EQ(line->args[0].name, "think");
  EXPECT_FALSE(line->args[0].value.has_value());

  line = ParseHubLine("  set-param   name=variant\tvalue=english \r");
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(line->command, "set-param");
  EXPECT_EQ(line->Value("name"), "variant");
  EXPECT_EQ(line->Value("value"), "english");
  EXPECT_FALSE(line->Value("other").has_value());
}

TEST(HubLineTest, QuotedValuesKeepSpacesAndEquals) {
  auto line = ParseHubLine(R"(id name="Our Engine" author="a=b c" empty="" version=1.0)");
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(line->Value("name"), "Our Engine");
  EXPECT_EQ(line->Value("author"), "a=b c");
  EXPECT_EQ(line->Value("empty"), "");
  EXPECT_EQ(line->Value("version"), "1.0");
}

TEST(HubLineTest, FlagValueReadsAsEmpty) {
  auto line = ParseHubLine("level infinite");
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->Has("infinite"));
  EXPECT_EQ(line->Value("infinite"), "");
}

TEST(HubLineTest, BlankLineHasNoCommand) {
  for (const char* text : {"", "   ", "\t\r"}) {
    auto line = ParseHubLine(text);
    ASSERT_TRUE(line.ok()) << text;
    EXPECT_TRUE(line->command.empty());
    EXPECT_TRUE(line->args.empty());
  }
}

TEST(HubLineTest, MalformedLinesAreErrorsWithOffsets) {
  auto line = ParseHubLine(R"(pos moves="32-28 18-23)");
  ASSERT_FALSE(line.ok());
  EXPECT_NE(line.error().message.find("unterminated"), std::string::npos);
  EXPECT_EQ(line.error().offset, 10u);

  line = ParseHubLine(R"(pos moves="32-28"x)");
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().offset, 17u);

  line = ParseHubLine("level =5");
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().offset, 6u);
}

TEST(HubLineTest, GarbageNeverCrashes) {
  // Every byte value, odd quotes and separators: parse must return, and
  // whatever parses must format and parse back to the same line.
  std::string garbage;
  for (int c = 0; c < 256; ++c) garbage += static_cast<char>(c);
  const std::string inputs[] = {garbage,         "=",      "\"",       "a=\"",      "a==b",
                                "a b=c=d \"x\"", "x y= z", "é=ü \x01", "a=\"\"\"\""};
  for (const std::string& text : inputs) {
    auto line = ParseHubLine(text);
    if (!line.ok()) continue;
    auto again = ParseHubLine(FormatHubLine(*line));
    ASSERT_TRUE(again.ok()) << FormatHubLine(*line);
    EXPECT_EQ(*again, *line) << text;
  }
}

TEST(HubLineTest, FormatQuotesOnlyWhenNeeded) {
  HubLine line{"id", {}};
  line.Add("name", "Draughts Engine").Add("version", "0.1").Add("empty", "").AddFlag("flag");
  EXPECT_EQ(FormatHubLine(line), R"(id name="Draughts Engine" version=0.1 empty="" flag)");
  EXPECT_EQ(QuoteHubValue("a=b"), "\"a=b\"");
  // The protocol has no escape for a quote; it becomes a single quote so the
  // line still parses, and a line break cannot split the line.
  EXPECT_EQ(QuoteHubValue("say \"hi\"\nnow"), "\"say 'hi' now\"");
}

TEST(HubLineTest, FormatThenParseRoundTrips) {
  HubLine line{"info", {}};
  line.Add("depth", "12").Add("pv", "32-28 18-23 28x19x23").Add("e", "").AddFlag("x");
  auto parsed = ParseHubLine(FormatHubLine(line));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, line);
}

}  // namespace
}  // namespace draughts::hub
