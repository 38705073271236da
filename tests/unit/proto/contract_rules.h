#pragma once

// The rules every draughts.v1 contract follows (docs/API.md), written as
// checks over descriptors so that the same code judges the real contracts
// and the deliberately broken fixtures that prove each check can fail.
// Each check returns one readable line per violation; empty means the rule
// holds.

#include <google/protobuf/descriptor.h>

#include <map>
#include <string>
#include <vector>

namespace draughts::proto_test {

using Files = std::vector<const google::protobuf::FileDescriptor*>;

// Full method name -> why it is safe to retry without expected_ply or
// idempotency_key.
using RetrySafeByNature = std::map<std::string, std::string>;

// The state-changing calls of draughts.v1 that need neither field.
const RetrySafeByNature& DraughtsRetrySafeByNature();

// Package draughts.v1, proto3, files under draughts/v1/.
std::vector<std::string> CheckFileLayout(const Files& files);

// Value 0 of every enum is <ENUM_NAME>_UNSPECIFIED and every value carries
// the <ENUM_NAME>_ prefix (enum values share their parent's scope).
std::vector<std::string> CheckEnumValues(const Files& files);

// Unary calls take <Method>Request and return <Method>Response; streaming
// calls take <Method>Request.
std::vector<std::string> CheckMethodNaming(const Files& files);

// Every call declares its idempotency_level (NO_SIDE_EFFECTS or
// IDEMPOTENT); Get*, List* and Watch* calls have no side effects.
std::vector<std::string> CheckIdempotencyLevels(const Files& files);

// List* calls, and any call with a page field, take int32 page_size and
// string page_token and return string next_page_token with the items in a
// repeated field.
std::vector<std::string> CheckPagination(const Files& files);

// Every state-changing call (not NO_SIDE_EFFECTS) carries int32 expected_ply
// or string idempotency_key, or is listed in `by_nature`; every entry of
// `by_nature` names an existing state-changing call.
std::vector<std::string> CheckRetrySafety(const Files& files, const RetrySafeByNature& by_nature);

// Every call's comment has an "Errors:" section of lines "CODE: when",
// naming real gRPC codes; a call taking player_token documents
// PERMISSION_DENIED and a paginated call INVALID_ARGUMENT.
std::vector<std::string> CheckErrorDocs(const Files& files);

// Services, calls, enums and messages (other than *Request / *Response)
// have a comment.
std::vector<std::string> CheckComments(const Files& files);

// Instants (fields named *_at or *deadline) are google.protobuf.Timestamp,
// *_ms fields are integers, Timestamp fields are named as instants and
// Duration fields carry no unit suffix.
std::vector<std::string> CheckTimeFields(const Files& files);

}  // namespace draughts::proto_test
