// Length limits on what people type (display names, chat lines, table
// names) count characters, not bytes: a 40-character name is as long in
// Cyrillic as in Latin letters. Counting also rejects invalid UTF-8,
// which protobuf's C++ runtime does not check on every string field.
#ifndef DRAUGHTS_PLATFORM_UTF8_H_
#define DRAUGHTS_PLATFORM_UTF8_H_

#include <cstddef>
#include <optional>
#include <string_view>

namespace draughts::platform {

// Unicode code points in `text`; nullopt unless it is valid UTF-8 by
// structure (lead bytes and continuation bytes; overlong forms and
// surrogates are not looked for).
std::optional<std::size_t> CountCodePoints(std::string_view text);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_UTF8_H_
