// The core of opaque page tokens (common.proto, "Pagination"). A token is
// URL-safe base64 of "<kind>|<field>|<field>...": the kind names the call
// and a version ("g1" = ListGames v1), so a token of another call, of an
// older format or a damaged one is refused with INVALID_ARGUMENT instead
// of being read as a wrong position. Tokens are opaque, not secret: put
// nothing in them a caller may not see, and check what decodes from them
// like any other input.
//
//   std::string token = EncodePageToken("t1", {absl::StrCat(last_ms), last_id,
//                                              PageFilterDigest(filters)});
//   DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> fields,
//                             DecodePageToken(request.page_token(), "t1", 3));
#ifndef DRAUGHTS_PLATFORM_PAGE_TOKEN_H_
#define DRAUGHTS_PLATFORM_PAGE_TOKEN_H_

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace draughts::platform {

// Longer tokens are refused before decoding: a request cannot make the
// server decode an arbitrary amount.
inline constexpr std::size_t kMaxPageTokenSize = 512;

// Fields may hold any bytes ('|' and '%' are escaped, so fields without
// them encode as plain text and tokens issued before escaping still read).
std::string EncodePageToken(std::string_view kind, const std::vector<std::string>& fields);

// The `field_count` fields of a token of `kind`; INVALID_ARGUMENT
// "page_token is malformed" for anything else (wrong kind, count, base64,
// escape, or too long).
absl::StatusOr<std::vector<std::string>> DecodePageToken(std::string_view token,
                                                         std::string_view kind,
                                                         std::size_t field_count);

// 16 hex characters digesting `filters` (any text that changes when the
// request's filters do): a token carries it to be refused for other
// filters, and stays small whatever the filters are.
std::string PageFilterDigest(std::string_view filters);

// A decimal integer field, all of `text` (no sign for unsigned types, no
// spaces): what a token decodes is input to check, not to trust.
template <typename Int>
bool ParsePageTokenInt(std::string_view text, Int& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_PAGE_TOKEN_H_
