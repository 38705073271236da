#include "gateway/proto_json.h"

#include <google/protobuf/util/json_util.h>

#include <cmath>

#include "absl/strings/str_cat.h"
#include "gateway/proto_json_printer.h"

namespace draughts::gateway {

std::string MessageToJson(const google::protobuf::Message& message) {
  std::string out;
  // Most frames fit, so the printer rarely grows the buffer.
  out.reserve(1024);
  if (PrintJsonFast(message, &out)) return out;
  out.clear();
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) {
    // Only reachable with a message that has no JSON form (a broken Any, a
    // Timestamp out of range); an empty object is still valid JSON.
    return "{}";
  }
  return out;
}

absl::StatusOr<google::protobuf::Struct> ParseJsonObject(std::string_view text) {
  google::protobuf::Struct object;
  // Struct's JSON form is any JSON object; arrays or scalars fail to parse.
  const auto status = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), &object);
  if (!status.ok()) {
    return absl::InvalidArgumentError("the message is not a JSON object");
  }
  return object;
}

absl::StatusOr<std::optional<std::string>> OptionalStringField(
    const google::protobuf::Struct& object, const std::string& name) {
  const auto it = object.fields().find(name);
  if (it == object.fields().end() || it->second.has_null_value()) return std::nullopt;
  if (!it->second.has_string_value()) {
    return absl::InvalidArgumentError(absl::StrCat("\"", name, "\" must be a string"));
  }
  return it->second.string_value();
}

absl::StatusOr<std::optional<int>> OptionalNonNegativeIntField(
    const google::protobuf::Struct& object, const std::string& name) {
  const auto it = object.fields().find(name);
  if (it == object.fields().end() || it->second.has_null_value()) return std::nullopt;
  const double value = it->second.has_number_value() ? it->second.number_value() : -1;
  if (!it->second.has_number_value() || !std::isfinite(value) || value < 0 ||
      value >= 2147483648.0 || std::floor(value) != value) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"", name, "\" must be a whole number from 0 to 2147483647"));
  }
  return static_cast<int>(value);
}

}  // namespace draughts::gateway
