// A small Boost.Beast client for the gateway tests: one-shot HTTP requests
// and a WebSocket whose reads time out instead of hanging a test.
#ifndef DRAUGHTS_TESTS_INTEGRATION_GATEWAY_TEST_CLIENT_H_
#define DRAUGHTS_TESTS_INTEGRATION_GATEWAY_TEST_CLIENT_H_

#include <google/protobuf/struct.pb.h>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::gateway::testing {

struct HttpReply {
  int status = 0;
  std::string content_type;
  std::string set_cookie;
  std::string allow;
  // Every header line as received ("Name: value\r\n"...), for tests that
  // check what a response shows.
  std::string headers;
  std::string body;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// One request on a fresh connection. `cookie` is sent as the Cookie header
// when not empty; `headers` are added as they are.
absl::StatusOr<HttpReply> HttpCall(int port, const std::string& method, const std::string& target,
                                   const std::string& body = "", const std::string& cookie = "",
                                   const HeaderList& headers = {});

class WsClient {
 public:
  WsClient();
  ~WsClient();

  absl::Status Connect(int port, const std::string& target, const std::string& cookie);
  absl::Status Send(const std::string& text);
  // The next text frame; DEADLINE_EXCEEDED after `timeout`, or the close
  // reason as an error when the server closed the socket.
  absl::StatusOr<std::string> Read(absl::Duration timeout = absl::Seconds(10));
  // The next frame parsed as a JSON object.
  absl::StatusOr<google::protobuf::Struct> ReadJson(absl::Duration timeout = absl::Seconds(10));
  // Sends `first`, then `next` again and again while reading, as a client
  // that has not yet seen the server's close frame does; stops once the
  // read side sees the socket close (close_code() then holds the code if a
  // close frame arrived) or after `timeout`. The error says how the read
  // ended when no close frame came.
  absl::Status SendWhileReadingUntilClosed(const std::string& first, const std::string& next,
                                           absl::Duration timeout = absl::Seconds(10));
  // The close code the server sent, once a Read() saw the socket close.
  std::optional<int> close_code() const { return close_code_; }
  // The upgrade (or refusal) response's header lines and body, as received.
  const std::string& handshake_response() const { return handshake_response_; }

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  std::optional<int> close_code_;
  std::string handshake_response_;
};

// Field helpers on parsed frames ("a.b.c" paths through objects).
const google::protobuf::Value* Field(const google::protobuf::Struct& object,
                                     const std::string& path);
std::string StringAt(const google::protobuf::Struct& object, const std::string& path);
double NumberAt(const google::protobuf::Struct& object, const std::string& path);

}  // namespace draughts::gateway::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_GATEWAY_TEST_CLIENT_H_
