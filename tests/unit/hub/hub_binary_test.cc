// The hub program end to end: a real process fed a script on its standard
// input, as a GUI would.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "hub/commands.h"
#include "hub/move_text.h"
#include "match/engine_process.h"
#include "rules/position.h"
#include "rules/variant.h"

#ifndef HUB_BINARY
#error "HUB_BINARY must name the hub executable"
#endif

namespace draughts::hub {
namespace {

using Clock = std::chrono::steady_clock;

// Writes every line, closes the input, and returns everything the program
// printed until it exited.
std::vector<std::string> RunScript(const std::vector<std::string>& script) {
  auto process = match::EngineProcess::Start(HUB_BINARY);
  EXPECT_TRUE(process.ok());
  if (!process.ok()) return {};
  for (const std::string& line : script) EXPECT_FALSE(process->WriteLine(line).has_value());
  process->CloseInput();
  std::vector<std::string> out;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  while (true) {
    auto line = process->ReadLine(deadline);
    if (!line.ok()) {
      EXPECT_EQ(line.error().message, "engine closed its output");
      break;
    }
    out.push_back(*line);
  }
  process->Stop(std::chrono::seconds(5));
  return out;
}

std::vector<EngineAnswer> Parse(const std::vector<std::string>& lines) {
  std::vector<EngineAnswer> answers;
  for (const std::string& line : lines) {
    auto answer = ParseEngineAnswer(line);
    EXPECT_TRUE(answer.ok()) << line;
    if (answer.ok()) answers.push_back(*answer);
  }
  return answers;
}

template <typename T>
std::vector<T> All(const std::vector<EngineAnswer>& answers) {
  std::vector<T> out;
  for (const EngineAnswer& a : answers) {
    if (const T* t = std::get_if<T>(&a)) out.push_back(*t);
  }
  return out;
}

TEST(HubBinaryTest, ScriptedGameAnswersInOrderWithALegalMove) {
  const auto lines = RunScript({"hub", "init", "pos", "level depth=2", "go think", "quit"});
  const auto answers = Parse(lines);
  ASSERT_GE(answers.size(), 5u);
  EXPECT_TRUE(std::holds_alternative<IdAnswer>(answers.front()));
  // id, params, wait, ready, info..., done: in that order.
  std::vector<std::string> order;
  for (const std::string& line : lines) {
    const std::string word = line.substr(0, line.find(' '));
    if (order.empty() || order.back() != word) order.push_back(word);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"id", "param", "wait", "ready", "info", "done"}));

  const auto params = All<ParamAnswer>(answers);
  const auto has_param = [&](const std::string& name) {
    return std::any_of(params.begin(), params.end(),
                       [&](const ParamAnswer& p) { return p.name == name; });
  };
  EXPECT_TRUE(has_param("variant"));
  EXPECT_TRUE(has_param("level"));

  const auto infos = All<InfoAnswer>(answers);
  ASSERT_FALSE(infos.empty());
  EXPECT_LE(infos.back().depth.value_or(99), 2);
  const auto done = All<DoneAnswer>(answers);
  ASSERT_EQ(done.size(), 1u);
  ASSERT_TRUE(done[0].move.has_value());
  const rules::Variant international = rules::FindVariant("international").value();
  auto move = ParseHubMove(international, rules::Position::Initial(international), *done[0].move);
  EXPECT_TRUE(move.ok()) << *done[0].move;
}

TEST(HubBinaryTest, GarbageLinesNeverStopTheProgram) {
  std::vector<std::string> script = {
      "hub",       "\x01\x02\xff",         "=", "\"", "pos pos=", "go", "level depth=-1",
      "set-param", "pos moves=\"1-2 3-4\""};
  script.push_back(std::string(100000, 'x'));
  script.push_back("ping");
  const auto lines = RunScript(script);
  ASSERT_FALSE(lines.empty());
  // Still alive at the end: the last answer is the pong.
  EXPECT_EQ(lines.back(), "pong");
}

TEST(HubBinaryTest, EnglishVariantAndEndOfInputQuits) {
  const auto lines = RunScript({"set-param name=variant value=english",
                                "set-param name=level value=medium", "init", "pos", "go think"});
  const auto done = All<DoneAnswer>(Parse(lines));
  ASSERT_EQ(done.size(), 1u);
  ASSERT_TRUE(done[0].move.has_value());
  const rules::Variant english = rules::FindVariant("english").value();
  EXPECT_TRUE(ParseHubMove(english, rules::Position::Initial(english), *done[0].move).ok());
}

TEST(HubBinaryTest, StopDuringAnInfiniteSearch) {
  auto process = match::EngineProcess::Start(HUB_BINARY);
  ASSERT_TRUE(process.ok());
  for (const char* line : {"init", "pos", "level infinite", "go think"}) {
    ASSERT_FALSE(process->WriteLine(line).has_value());
  }
  auto ready = process->ReadLine(Clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(ready.ok());
  EXPECT_EQ(*ready, "ready");
  ASSERT_FALSE(process->WriteLine("ping").has_value());
  // The pong comes while the search goes on (info lines may come first).
  bool pong = false;
  while (!pong) {
    auto line = process->ReadLine(Clock::now() + std::chrono::seconds(5));
    ASSERT_TRUE(line.ok()) << "no pong";
    ASSERT_NE(line->rfind("done", 0), 0u) << "search ended by itself";
    pong = *line == "pong";
  }
  ASSERT_FALSE(process->WriteLine("stop").has_value());
  const auto stop_sent = Clock::now();
  while (true) {
    auto line = process->ReadLine(Clock::now() + std::chrono::seconds(5));
    ASSERT_TRUE(line.ok()) << "no done after stop";
    if (line->rfind("done", 0) == 0) break;
  }
  EXPECT_LT(Clock::now() - stop_sent, std::chrono::seconds(2));
  ASSERT_FALSE(process->WriteLine("quit").has_value());
  auto end = process->ReadLine(Clock::now() + std::chrono::seconds(5));
  EXPECT_FALSE(end.ok());
}

}  // namespace
}  // namespace draughts::hub
