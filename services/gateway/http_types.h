// The gateway's own view of an HTTP exchange: plain values, independent of
// Boost.Beast, so routing and handlers are testable without sockets.
#ifndef DRAUGHTS_GATEWAY_HTTP_TYPES_H_
#define DRAUGHTS_GATEWAY_HTTP_TYPES_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace draughts::gateway {

// Request bodies and WebSocket messages larger than this are refused
// (HTTP 413 / close code 1009), see docs/WEB_PROTOCOL.md.
inline constexpr std::size_t kMaxMessageBytes = 16 * 1024;

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // target without the query, still percent-encoded
  std::string query;   // after '?', without it
  std::string cookie;  // the Cookie header, empty if none
  std::string origin;  // the Origin header, empty if none
  std::string host;    // the Host header, empty if none
  // Who sent it: the TCP peer's address, or the --client-address-header
  // value set by a trusted proxy in front (login limits count per address).
  std::string client_address;
  // The Idempotency-Key header, nullopt if absent (present but empty is an
  // error, so the two differ).
  std::optional<std::string> idempotency_key;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra ones (Set-Cookie, Allow)
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_HTTP_TYPES_H_
