#include "train/training_data.h"

#include <charconv>
#include <string>

#include "rules/fen.h"

namespace draughts::train {

std::string FormatSample(const Sample& sample) {
  const char* result = sample.result > 0.75 ? "1" : sample.result < 0.25 ? "0" : "0.5";
  return std::string(result) + " " + std::to_string(sample.score) + " " +
         rules::FormatFen(sample.position);
}

rules::Result<Sample> ParseSample(const rules::Variant& variant, std::string_view line) {
  const auto first = line.find(' ');
  const auto second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos) {
    return rules::MakeError("expected '<result> <score> <fen>'");
  }
  Sample s;
  const std::string_view result = line.substr(0, first);
  if (result == "1") {
    s.result = 1.0;
  } else if (result == "0") {
    s.result = 0.0;
  } else if (result == "0.5") {
    s.result = 0.5;
  } else {
    return rules::MakeError("result must be 1, 0.5 or 0, got '" + std::string(result) + "'");
  }
  const std::string_view score = line.substr(first + 1, second - first - 1);
  const auto [end, ec] = std::from_chars(score.data(), score.data() + score.size(), s.score);
  if (ec != std::errc() || end != score.data() + score.size()) {
    return rules::MakeError("bad score '" + std::string(score) + "'");
  }
  auto position = rules::ParseFen(variant, line.substr(second + 1));
  if (!position.ok()) return position.error();
  s.position = *position;
  return s;
}

}  // namespace draughts::train
