#include "loadgen/frame_kind.h"

#include <charconv>
#include <cstdint>
#include <string>

namespace draughts::loadgen {
namespace {

// Reads `"key":<value>` at or after `at`, leaving `at` past the value.
class FieldScanner {
 public:
  FieldScanner(std::string_view json, std::size_t at) : json_(json), at_(at) {}

  // Moves past `text` if it comes next.
  bool Follows(std::string_view text) {
    if (json_.substr(at_, text.size()) != text) return false;
    at_ += text.size();
    return true;
  }
  // Moves past the next `"key":`; false if there is none.
  bool Key(std::string_view key) {
    const std::string pattern = "\"" + std::string(key) + "\":";
    const std::size_t found = json_.find(pattern, at_);
    if (found == std::string_view::npos) return false;
    at_ = found + pattern.size();
    return true;
  }
  // A JSON string without escapes.
  std::optional<std::string_view> String(std::string_view key) {
    if (!Key(key) || at_ >= json_.size() || json_[at_] != '"') return std::nullopt;
    const std::size_t end = json_.find_first_of("\"\\", at_ + 1);
    if (end == std::string_view::npos || json_[end] != '"') return std::nullopt;
    std::string_view value = json_.substr(at_ + 1, end - at_ - 1);
    at_ = end + 1;
    return value;
  }
  std::optional<int64_t> Integer(std::string_view key) {
    if (!Key(key)) return std::nullopt;
    int64_t value = 0;
    const auto [end, error] =
        std::from_chars(json_.data() + at_, json_.data() + json_.size(), value);
    if (error != std::errc()) return std::nullopt;
    at_ = static_cast<std::size_t>(end - json_.data());
    return value;
  }
  std::optional<bool> Bool(std::string_view key) {
    if (!Key(key)) return std::nullopt;
    for (bool value : {true, false}) {
      const std::string_view word = value ? "true" : "false";
      if (json_.substr(at_, word.size()) == word) {
        at_ += word.size();
        return value;
      }
    }
    return std::nullopt;
  }

 private:
  std::string_view json_;
  std::size_t at_;
};

}  // namespace

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

std::optional<v1::GameEvent> ScanMovePlayedFrame(std::string_view json) {
  if (FrameKind(json) != "gameEvent") return std::nullopt;
  FieldScanner scan(json, 0);
  if (!scan.Key("gameEvent")) return std::nullopt;
  const std::optional<std::string_view> event_id = scan.String("eventId");
  const std::optional<std::string_view> game_id = scan.String("gameId");
  const std::optional<int64_t> ply = scan.Integer("ply");
  if (!event_id || !game_id || !ply) return std::nullopt;
  // The oneof member comes right after the version (protobuf prints
  // timestamps last); the move's members hold no text a player chose, so
  // no key hides in a value.
  if (!scan.String("version") || !scan.Follows(",\"movePlayed\":{")) {
    return std::nullopt;
  }
  const std::optional<std::string_view> color = scan.String("color");
  const std::optional<std::string_view> notation = scan.String("notation");
  const std::optional<std::string_view> fen_after = scan.String("fenAfter");
  const std::optional<bool> automatic = scan.Bool("automatic");
  v1::Color parsed_color = v1::COLOR_UNSPECIFIED;
  if (!color || !notation || !fen_after || !automatic ||
      !v1::Color_Parse(std::string(*color), &parsed_color)) {
    return std::nullopt;
  }
  v1::GameEvent event;
  event.set_event_id(std::string(*event_id));
  event.set_game_id(std::string(*game_id));
  event.set_ply(static_cast<int32_t>(*ply));
  v1::MovePlayed* played = event.mutable_move_played();
  played->set_color(parsed_color);
  played->set_notation(std::string(*notation));
  played->set_fen_after(std::string(*fen_after));
  played->set_automatic(*automatic);
  return event;
}

}  // namespace draughts::loadgen
