// Protobuf's JSON mapping, both ways. Messages cross the wire in protobuf's
// canonical JSON (lowerCamelCase names, enums by name, int64 as strings),
// printed with every field, defaults included, so a browser never has to
// guess that a missing "ply" means 0. Incoming JSON objects are parsed into a
// google.protobuf.Struct by the same library (no second JSON parser) and read
// field by field with their types checked.
#ifndef DRAUGHTS_GATEWAY_PROTO_JSON_H_
#define DRAUGHTS_GATEWAY_PROTO_JSON_H_

#include <optional>
#include <string>
#include <string_view>

#include <google/protobuf/message.h>
#include <google/protobuf/struct.pb.h>

#include "absl/status/statusor.h"

namespace draughts::gateway {

// The canonical JSON of `message`, every field printed: byte for byte what
// protobuf's MessageToJsonString prints with always_print_primitive_fields,
// from the fast printer (proto_json_printer.h) or, for what it declines,
// from the library itself; "{}" for a message the library cannot print.
std::string MessageToJson(const google::protobuf::Message& message);

// A JSON object (anything else, malformed or not, is INVALID_ARGUMENT).
absl::StatusOr<google::protobuf::Struct> ParseJsonObject(std::string_view text);

// Typed field access on a parsed object; absent fields are nullopt, a field
// of the wrong type is INVALID_ARGUMENT naming it.
absl::StatusOr<std::optional<std::string>> OptionalStringField(
    const google::protobuf::Struct& object, const std::string& name);
// A whole number in [0, 2^31); fractions, negatives and strings are refused.
absl::StatusOr<std::optional<int>> OptionalNonNegativeIntField(
    const google::protobuf::Struct& object, const std::string& name);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_PROTO_JSON_H_
