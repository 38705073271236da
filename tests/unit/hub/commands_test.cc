#include "hub/commands.h"

#include <gtest/gtest.h>

namespace draughts::hub {
namespace {

GuiCommand ParseGuiOk(std::string_view text) {
  auto command = ParseGuiCommand(text);
  EXPECT_TRUE(command.ok()) << text << ": " << (command.ok() ? "" : command.error().ToString());
  return command.ok() ? *command : GuiCommand(UnknownCommand{"<error>"});
}

EngineAnswer ParseAnswerOk(std::string_view text) {
  auto answer = ParseEngineAnswer(text);
  EXPECT_TRUE(answer.ok()) << text << ": " << (answer.ok() ? "" : answer.error().ToString());
  return answer.ok() ? *answer : EngineAnswer(UnknownAnswer{"<error>"});
}

TEST(GuiCommandTest, EveryCommandRoundTrips) {
  LevelCommand all_levels;
  all_levels.depth = 9;
  all_levels.nodes = 123456789012;
  all_levels.move_time = 1.5;
  all_levels.moves = 40;
  all_levels.time = 291.587;
  all_levels.increment = 0.25;
  all_levels.infinite = true;
  const GuiCommand commands[] = {
      HubCommand{},
      SetParamCommand{"variant", "english"},
      SetParamCommand{"book", ""},
      SetParamCommand{"name with space", "value with space"},
      InitCommand{},
      NewGameCommand{},
      PosCommand{},
      PosCommand{"Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", {}},
      PosCommand{"Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", {"32-28", "18-23"}},
      PosCommand{std::nullopt, {"32-28"}},
      LevelCommand{},
      LevelCommand{.depth = 2},
      LevelCommand{.move_time = 0.001},
      LevelCommand{.moves = 9, .time = 291.587},
      LevelCommand{.time = 60, .increment = 1},
      all_levels,
      GoCommand{GoMode::kThink},
      GoCommand{GoMode::kPonder},
      GoCommand{GoMode::kAnalyze},
      PonderHitCommand{},
      StopCommand{},
      PingCommand{},
      QuitCommand{},
      UnknownCommand{"frobnicate"},
  };
  for (const GuiCommand& command : commands) {
    const std::string text = FormatGuiCommand(command);
    auto parsed = ParseGuiCommand(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error().ToString();
    EXPECT_EQ(*parsed, command) << text;
  }
}

TEST(GuiCommandTest, ReadsTheSpecExamples) {
  // Lines from the Hub protocol v2 description (protocol.txt, Scan 3.x).
  EXPECT_EQ(ParseGuiOk("set-param name=variant value=killer"),
            GuiCommand(SetParamCommand{"variant", "killer"}));
  EXPECT_EQ(ParseGuiOk("pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee "
                       "moves=\"38-15 5-41 48-26\""),
            GuiCommand(PosCommand{"BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee",
                                  {"38-15", "5-41", "48-26"}}));
  EXPECT_EQ(ParseGuiOk("level moves=9 time=291.587"),
            GuiCommand(LevelCommand{.moves = 9, .time = 291.587}));
  EXPECT_EQ(ParseGuiOk("level move-time=1"), GuiCommand(LevelCommand{.move_time = 1.0}));
  EXPECT_EQ(ParseGuiOk("go ponder"), GuiCommand(GoCommand{GoMode::kPonder}));
  EXPECT_EQ(ParseGuiOk("go"), GuiCommand(GoCommand{GoMode::kThink}));
  EXPECT_EQ(ParseGuiOk("pos start"), GuiCommand(PosCommand{}));
}

TEST(GuiCommandTest, UnknownCommandsAndArgumentsAreIgnored) {
  EXPECT_EQ(ParseGuiOk("frobnicate now=1"), GuiCommand(UnknownCommand{"frobnicate"}));
  EXPECT_EQ(ParseGuiOk(""), GuiCommand(UnknownCommand{""}));
  EXPECT_EQ(ParseGuiOk("level depth=3 colour=blue turbo"), GuiCommand(LevelCommand{.depth = 3}));
  EXPECT_EQ(ParseGuiOk("go think faster"), GuiCommand(GoCommand{GoMode::kThink}));
  EXPECT_EQ(ParseGuiOk("ping extra=\"stuff here\""), GuiCommand(PingCommand{}));
}

TEST(GuiCommandTest, UnreadableKnownArgumentsAreErrors) {
  for (const char* text : {"level depth=abc", "level depth=-1", "level depth=2x",
                           "level move-time=-0.5", "level move-time=nan", "level time=inf",
                           "level moves=", "level nodes=1e3", "level depth=99999999999999999999",
                           "set-param value=x", "set-param name= value=x", "pos moves=\"32-28"}) {
    auto command = ParseGuiCommand(text);
    EXPECT_FALSE(command.ok()) << text;
    if (!command.ok()) {
      EXPECT_FALSE(command.error().message.empty()) << text;
    }
  }
}

TEST(EngineAnswerTest, EveryAnswerRoundTrips) {
  InfoAnswer info;
  info.depth = 21;
  info.mean_depth = 20.8;
  info.score = -0.01;
  info.nodes = 31261613;
  info.time = 3.906;
  info.nps = 8.0;
  info.pv = {"32-28", "17-22", "28x17x22"};
  const EngineAnswer answers[] = {
      IdAnswer{"Scan", "3.1", "Fabien Letouzey", "France"},
      ParamAnswer{"variant", "normal", "enum", std::nullopt, std::nullopt, {"normal", "killer"}},
      ParamAnswer{"threads", "1", "int", "1", "16", {}},
      ParamAnswer{"book", "true", "bool", std::nullopt, std::nullopt, {}},
      WaitAnswer{},
      ReadyAnswer{},
      InfoAnswer{},
      info,
      InfoAnswer{.depth = 3, .score = 1.25},
      DoneAnswer{"32-28", "17-22"},
      DoneAnswer{"28x19x23", std::nullopt},
      DoneAnswer{},
      PongAnswer{},
      ErrorAnswer{"bad position: a \"quoted\" word"},
      UnknownAnswer{"hello"},
  };
  for (const EngineAnswer& answer : answers) {
    const std::string text = FormatEngineAnswer(answer);
    auto parsed = ParseEngineAnswer(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error().ToString();
    if (std::holds_alternative<ErrorAnswer>(answer)) {
      // Quotes cannot be carried; everything else is.
      EXPECT_EQ(std::get<ErrorAnswer>(*parsed).message, "bad position: a 'quoted' word");
      continue;
    }
    EXPECT_EQ(*parsed, answer) << text;
  }
}

TEST(EngineAnswerTest, ReadsTheSpecExamples) {
  EXPECT_EQ(ParseAnswerOk("id name=Scan version=3.0 author=\"Fabien Letouzey\" country=France"),
            EngineAnswer(IdAnswer{"Scan", "3.0", "Fabien Letouzey", "France"}));
  EXPECT_EQ(
      ParseAnswerOk("param name=variant value=normal type=enum values=\"normal killer bt\""),
      EngineAnswer(ParamAnswer{
          "variant", "normal", "enum", std::nullopt, std::nullopt, {"normal", "killer", "bt"}}));
  const EngineAnswer info = ParseAnswerOk(
      "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 "
      "pv=\"32-28 17-22 28x17x22\"");
  const auto& i = std::get<InfoAnswer>(info);
  EXPECT_EQ(i.depth, 21);
  EXPECT_DOUBLE_EQ(*i.mean_depth, 20.8);
  EXPECT_DOUBLE_EQ(*i.score, -0.01);
  EXPECT_EQ(i.nodes, 31261613);
  EXPECT_EQ(i.pv.size(), 3u);
  EXPECT_EQ(ParseAnswerOk("done move=32-28 ponder=17-22"),
            EngineAnswer(DoneAnswer{"32-28", "17-22"}));
  EXPECT_EQ(ParseAnswerOk("done"), EngineAnswer(DoneAnswer{}));
}

TEST(EngineAnswerTest, BadNumbersInInfoAreErrors) {
  EXPECT_FALSE(ParseEngineAnswer("info depth=deep").ok());
  EXPECT_FALSE(ParseEngineAnswer("info nodes=-5").ok());
  EXPECT_FALSE(ParseEngineAnswer("info time=soon").ok());
  EXPECT_TRUE(ParseEngineAnswer("info depth=-1 score=-3.5").ok());
}

TEST(HubNumberTest, ShortestForm) {
  EXPECT_EQ(FormatHubNumber(1.5), "1.5");
  EXPECT_EQ(FormatHubNumber(2.0), "2");
  EXPECT_EQ(FormatHubNumber(0.001), "0.001");
  EXPECT_EQ(FormatHubNumber(-0.25), "-0.25");
}

TEST(WordsTest, SplitAndJoin) {
  EXPECT_EQ(SplitWords("  32-28  18-23\t33-29 "),
            (std::vector<std::string>{"32-28", "18-23", "33-29"}));
  EXPECT_TRUE(SplitWords("   ").empty());
  EXPECT_EQ(JoinWords({"a", "b"}), "a b");
}

}  // namespace
}  // namespace draughts::hub
