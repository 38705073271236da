#include "loadgen/frame_kind.h"

namespace draughts::loadgen {

std::string_view FrameKind(std::string_view json) {
  constexpr std::string_view kStart = "{\"requestId\":\"";
  if (json.substr(0, kStart.size()) != kStart) return {};
  std::size_t at = kStart.size();
  // Skip the request id's JSON string (escapes included).
  while (at < json.size() && json[at] != '"') at += json[at] == '\\' ? 2 : 1;
  if (at >= json.size()) return {};
  constexpr std::string_view kNext = "\",\"";
  if (json.substr(at, kNext.size()) != kNext) return {};
  at += kNext.size();
  const std::size_t end = json.find('"', at);
  if (end == std::string_view::npos || end == at) return {};
  if (json.substr(end, 3) != "\":{") return {};
  return json.substr(at, end - at);
}

}  // namespace draughts::loadgen
