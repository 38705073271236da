// Debian's Abseil is built with its own absl::string_view (not an alias of
// std::string_view), so the two do not convert implicitly. These helpers
// bridge them without copying.
#ifndef DRAUGHTS_PLATFORM_ABSL_COMPAT_H_
#define DRAUGHTS_PLATFORM_ABSL_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace draughts::platform {

inline absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}
inline std::string_view ToStd(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_ABSL_COMPAT_H_
