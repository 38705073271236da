#include "gateway/json_string.h"

#include <gtest/gtest.h>

#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

TEST(JsonQuoteTest, EscapesWhatJsonNeeds) {
  EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
  EXPECT_EQ(JsonQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonQuote(std::string("\n\t\x01", 3)), "\"\\u000a\\u0009\\u0001\"");
  EXPECT_EQ(JsonQuote("Dames \xC3\xA0 la fran\xC3\xA7"
                      "aise"),
            "\"Dames \xC3\xA0 la fran\xC3\xA7"
            "aise\"");
}

TEST(JsonQuoteTest, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(JsonQuote("a\xFF"
                      "b"),
            "\"a\\ufffdb\"");
  EXPECT_EQ(JsonQuote("\xC3"), "\"\\ufffd\"");                        // truncated sequence
  EXPECT_EQ(JsonQuote("\xC0\xAF"), "\"\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(JsonQuote("\xED\xA0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
  // Whatever goes in, the result parses back as JSON.
  EXPECT_TRUE(ParseJsonObject("{\"k\":" + JsonQuote("\xFF\xFE\x80\x00x") + "}").ok());
}

}  // namespace
}  // namespace draughts::gateway
