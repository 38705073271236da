#include "gateway/listen_address.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::gateway {

absl::StatusOr<ListenAddress> ParseListenAddress(std::string_view address) {
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("--listen \"", platform::ToAbsl(address), "\" ", platform::ToAbsl(why)));
  };
  const std::size_t colon = address.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return invalid("is not host:port (e.g. 0.0.0.0:8080)");
  }
  std::string_view host = address.substr(0, colon);
  const std::string_view port_text = address.substr(colon + 1);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return invalid("has a malformed IPv6 host");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return invalid("needs brackets around an IPv6 host ([::1]:8080)");
  }
  int port = -1;
  const bool digits = !port_text.empty() && port_text.size() <= 5 &&
                      port_text.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || !absl::SimpleAtoi(platform::ToAbsl(port_text), &port) || port > 65535) {
    return invalid("has no port 0-65535");
  }
  return ListenAddress{std::string(host), port};
}

}  // namespace draughts::gateway
