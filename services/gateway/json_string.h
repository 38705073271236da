// JSON string literals for the envelopes the gateway writes by hand (error
// bodies, frames, REST answers): quoting that always yields valid JSON,
// whatever bytes come in.
#ifndef DRAUGHTS_GATEWAY_JSON_STRING_H_
#define DRAUGHTS_GATEWAY_JSON_STRING_H_

#include <string>
#include <string_view>

namespace draughts::gateway {

// `text` as a JSON string literal, quotes included. Bytes that are not valid
// UTF-8 become U+FFFD so the output is always valid JSON.
std::string JsonQuote(std::string_view text);

// `text` with every byte that is not valid UTF-8 replaced by U+FFFD, so a
// protobuf string field holding it always prints as JSON.
std::string ValidUtf8(std::string_view text);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_JSON_STRING_H_
