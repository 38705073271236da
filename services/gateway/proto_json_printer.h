// A reflection printer of protobuf's canonical JSON that prints, byte for
// byte, what protobuf 3.21's util::MessageToJsonString prints with
// always_print_primitive_fields (other options default), without the
// library's detour through binary, a type resolver and a tree of nodes (the
// gateway's largest CPU cost per move, issue #16).
//
// The library's quirks it reproduces (the differential test
// tests/unit/gateway/proto_json_printer_test.cc holds it to them):
//  - fields in declaration order, except that set oneof or `optional`
//    scalars and set Timestamp/Duration fields come after all the others,
//    by field number (the library appends them to its tree of defaults);
//  - unset messages omitted, every other field printed, empty lists as [];
//  - int64/uint64 kinds quoted, enums by name (unknown values as numbers),
//    floats as protobuf's SimpleFtoa/SimpleDtoa, NaN and infinities quoted,
//    bytes in padded base64, strings escaped as its JsonEscaping does.
// What it does not print (maps, proto2, google.protobuf types other than
// Timestamp and Duration, invalid UTF-8, out-of-range times, very deep
// nesting) it declines, and the caller asks the library instead.
#ifndef DRAUGHTS_GATEWAY_PROTO_JSON_PRINTER_H_
#define DRAUGHTS_GATEWAY_PROTO_JSON_PRINTER_H_

#include <string>

#include <google/protobuf/message.h>

namespace draughts::gateway {

// Appends the JSON of `message` to `out` and returns true, or returns false
// (with `out` in an unspecified state) when the message holds something this
// printer leaves to the library. Safe from any number of threads.
bool PrintJsonFast(const google::protobuf::Message& message, std::string* out);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_PROTO_JSON_PRINTER_H_
