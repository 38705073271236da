// What people type into the chat: a message's text and a spectator's name,
// checked the way chat.proto promises (valid UTF-8, trimmed, no control
// characters, limits counted in characters, not bytes). Pure functions, so
// the rules are tested without a server.
#ifndef DRAUGHTS_CHAT_CHAT_TEXT_H_
#define DRAUGHTS_CHAT_CHAT_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace draughts::chat {

// Why a text was refused; also the `reason` label of the refusal metric.
enum class TextProblem { kNone, kEmpty, kTooLong, kInvalidUtf8, kControlCharacter };

struct CheckedText {
  // Trimmed of surrounding ASCII whitespace; meaningful when problem is kNone.
  std::string text;
  TextProblem problem = TextProblem::kNone;
  // Characters (code points) of `text`.
  std::size_t characters = 0;
};

// Checks `raw` for a text of 1-`max_characters` characters after trimming.
CheckedText CheckText(std::string_view raw, std::size_t max_characters);

// INVALID_ARGUMENT naming `field` and the problem (OK for kNone).
absl::Status TextProblemStatus(const CheckedText& checked, absl::string_view field,
                               std::size_t max_characters);

// "empty", "too_long", "invalid_utf8", "control_character" ("" for kNone).
std::string_view TextProblemName(TextProblem problem);

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_CHAT_TEXT_H_
