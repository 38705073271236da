// The chat's text rules: characters counted as code points, trimming,
// invalid UTF-8 in every form, control characters, and clear messages.
#include "chat/chat_text.h"

#include <gtest/gtest.h>

#include <string>

namespace draughts::chat {
namespace {

std::string Repeat(const std::string& unit, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += unit;
  return text;
}

TEST(ChatText, LimitsCountCharactersNotBytes) {
  for (const char* unit : {"a", "é", "ж", "€", "😀"}) {
    const CheckedText at_limit = CheckText(Repeat(unit, 500), 500);
    EXPECT_EQ(at_limit.problem, TextProblem::kNone) << unit;
    EXPECT_EQ(at_limit.characters, 500u);
    const CheckedText over = CheckText(Repeat(unit, 501), 500);
    EXPECT_EQ(over.problem, TextProblem::kTooLong) << unit;
    EXPECT_EQ(TextProblemStatus(over, "text", 500).message(),
              "text is 501 characters long; the limit is 500");
  }
}

TEST(ChatText, SurroundingWhitespaceIsTrimmedBeforeCounting) {
  const CheckedText checked = CheckText("  \t" + Repeat("x", 500) + " \n", 500);
  EXPECT_EQ(checked.problem, TextProblem::kNone);
  EXPECT_EQ(checked.text, Repeat("x", 500));
  EXPECT_EQ(CheckText(" \t\n ", 500).problem, TextProblem::kEmpty);
  EXPECT_EQ(CheckText("", 500).problem, TextProblem::kEmpty);
  EXPECT_EQ(CheckText(" a b ", 500).text, "a b");
}

TEST(ChatText, InvalidUtf8InEveryFormIsRefused) {
  for (const std::string& bad : {
           std::string("\xff"),              // never a UTF-8 byte
           std::string("ab\xc3"),            // cut short
           std::string("\x80"),              // a lone continuation byte
           std::string("\xc0\xaf"),          // overlong '/'
           std::string("\xe0\x80\xaf"),      // overlong, 3 bytes
           std::string("\xed\xa0\x80"),      // a UTF-16 surrogate
           std::string("\xf4\x90\x80\x80"),  // past U+10FFFF
       }) {
    const CheckedText checked = CheckText("ok " + bad + " ok", 500);
    EXPECT_EQ(checked.problem, TextProblem::kInvalidUtf8);
    EXPECT_EQ(TextProblemStatus(checked, "text", 500).message(), "text is not valid UTF-8");
  }
}

TEST(ChatText, ControlCharactersAndLineBreaksAreRefused) {
  for (const std::string& bad :
       {std::string("a\nb"), std::string("a\rb"), std::string("a\x01z"), std::string("a\x7f"),
        std::string("a\xc2\x85z"), std::string("a\xe2\x80\xa8z"), std::string("a\0b", 3)}) {
    EXPECT_EQ(CheckText(bad, 500).problem, TextProblem::kControlCharacter);
  }
  EXPECT_EQ(CheckText("tab\tinside", 500).problem, TextProblem::kControlCharacter);
  EXPECT_EQ(CheckText("ça va ? 👍", 500).problem, TextProblem::kNone);
}

TEST(ChatText, ProblemsHaveMetricNames) {
  EXPECT_EQ(TextProblemName(TextProblem::kTooLong), "too_long");
  EXPECT_EQ(TextProblemName(TextProblem::kInvalidUtf8), "invalid_utf8");
  EXPECT_EQ(TextProblemName(TextProblem::kEmpty), "empty");
  EXPECT_EQ(TextProblemName(TextProblem::kControlCharacter), "control_character");
}

}  // namespace
}  // namespace draughts::chat
