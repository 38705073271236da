// The 16 KiB limit on request bodies, checked on the parser configuration
// the connections use (no socket needed: the parser is fed bytes).
#include <gtest/gtest.h>

#include <boost/asio/buffer.hpp>

#include "absl/strings/str_cat.h"
#include "gateway/http_connection.h"
#include "gateway/http_types.h"

namespace draughts::gateway {
namespace {

namespace http = boost::beast::http;

boost::beast::error_code Feed(const std::string& bytes) {
  http::request_parser<http::string_body> parser;
  ApplyRequestLimits(parser);
  parser.eager(true);
  boost::beast::error_code error;
  std::size_t used = 0;
  while (used < bytes.size() && !error && !parser.is_done()) {
    const std::size_t n =
        parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), error);
    if (n == 0 && !error) break;
    used += n;
  }
  return error;
}

std::string Post(std::size_t body_bytes) {
  return absl::StrCat("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: ", body_bytes,
                      "\r\n\r\n", std::string(body_bytes, 'a'));
}

TEST(RequestLimitsTest, BodyUpToTheLimitIsRead) {
  EXPECT_FALSE(Feed(Post(kMaxMessageBytes)));
}

TEST(RequestLimitsTest, LargerBodyIsRefusedFromItsHeader) {
  // Refused on the Content-Length alone, before any of the body arrives.
  const std::string header_only = absl::StrCat(
      "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: ", kMaxMessageBytes + 1, "\r\n\r\n");
  EXPECT_EQ(Feed(header_only), http::error::body_limit);
  EXPECT_EQ(Feed(Post(kMaxMessageBytes + 1)), http::error::body_limit);
}

TEST(RequestLimitsTest, HugeHeadersAreRefused) {
  const std::string request =
      absl::StrCat("GET / HTTP/1.1\r\nHost: x\r\nCookie: ", std::string(9000, 'c'), "\r\n\r\n");
  EXPECT_EQ(Feed(request), http::error::header_limit);
}

}  // namespace
}  // namespace draughts::gateway
