#include "gateway/json_util.h"

#include <google/protobuf/util/json_util.h>

#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace draughts::gateway {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0.
std::size_t Utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  uint32_t min = 0;
  uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, min = 0x80, code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, min = 0x800, code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, min = 0x10000, code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, UTF-16 surrogates and values past Unicode are invalid.
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

std::string JsonQuote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c < 0x20) {
      out += absl::StrFormat("\\u%04x", c);
      ++i;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (const std::size_t n = Utf8SequenceLength(text, i); n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  out.push_back('"');
  return out;
}

std::string MessageToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, options).ok()) {
    // Only reachable with a message that has no JSON form (a broken Any);
    // ours never do, and an empty object is still valid JSON.
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
