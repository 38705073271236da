// The gateway's --listen value: "host:port", the host an IP address
// ("0.0.0.0", "127.0.0.1", "[::1]" for IPv6), the port 0-65535 (0 picks a
// free one).
#ifndef DRAUGHTS_GATEWAY_LISTEN_ADDRESS_H_
#define DRAUGHTS_GATEWAY_LISTEN_ADDRESS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace draughts::gateway {

struct ListenAddress {
  std::string host;  // without IPv6 brackets
  int port = 0;
};

// INVALID_ARGUMENT naming the value when it is not host:port.
absl::StatusOr<ListenAddress> ParseListenAddress(std::string_view address);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_LISTEN_ADDRESS_H_
