#include "chat/chat_text.h"

#include <cstdint>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "platform/utf8.h"

namespace draughts::chat {
namespace {

// Code points a one-line chat message must not hold: C0 and C1 controls,
// DEL, and the Unicode line and paragraph separators (line breaks by
// another name).
bool IsControl(uint32_t code_point) {
  return code_point < 0x20 || (code_point >= 0x7f && code_point <= 0x9f) || code_point == 0x2028 ||
         code_point == 0x2029;
}

// The code points of `text`, which CountCodePoints found well formed.
template <typename Visit>
void ForEachCodePoint(std::string_view text, Visit visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    uint32_t code_point = lead;
    if (lead >= 0xf0) {
      length = 4;
      code_point = lead & 0x07;
    } else if (lead >= 0xe0) {
      length = 3;
      code_point = lead & 0x0f;
    } else if (lead >= 0xc0) {
      length = 2;
      code_point = lead & 0x1f;
    }
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k) {
      code_point = (code_point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    }
    visit(code_point);
    i += length;
  }
}

// Structure is checked by CountCodePoints; these are the well-formedness
// rules it leaves out: overlong forms, UTF-16 surrogates, past U+10FFFF.
bool IsWellFormed(std::string_view text) {
  bool ok = true;
  std::size_t i = 0;
  while (i < text.size() && ok) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (lead == 0xc0 || lead == 0xc1 || lead >= 0xf5) ok = false;
    if (lead == 0xe0 && next < 0xa0) ok = false;   // overlong 3-byte form
    if (lead == 0xed && next >= 0xa0) ok = false;  // surrogates
    if (lead == 0xf0 && next < 0x90) ok = false;   // overlong 4-byte form
    if (lead == 0xf4 && next >= 0x90) ok = false;  // past U+10FFFF
    i += lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  }
  return ok;
}

}  // namespace

CheckedText CheckText(std::string_view raw, std::size_t max_characters) {
  CheckedText checked;
  const std::optional<std::size_t> counted = platform::CountCodePoints(raw);
  if (!counted.has_value() || !IsWellFormed(raw)) {
    checked.problem = TextProblem::kInvalidUtf8;
    return checked;
  }
  const absl::string_view stripped =
      absl::StripAsciiWhitespace(absl::string_view(raw.data(), raw.size()));
  const std::string_view trimmed(stripped.data(), stripped.size());
  checked.characters = *platform::CountCodePoints(trimmed);
  if (trimmed.empty()) {
    checked.problem = TextProblem::kEmpty;
    return checked;
  }
  if (checked.characters > max_characters) {
    checked.problem = TextProblem::kTooLong;
    return checked;
  }
  bool control = false;
  ForEachCodePoint(trimmed,
                   [&](uint32_t code_point) { control = control || IsControl(code_point); });
  if (control) {
    checked.problem = TextProblem::kControlCharacter;
    return checked;
  }
  checked.text = std::string(trimmed);
  return checked;
}

absl::Status TextProblemStatus(const CheckedText& checked, absl::string_view field,
                               std::size_t max_characters) {
  switch (checked.problem) {
    case TextProblem::kNone:
      return absl::OkStatus();
    case TextProblem::kEmpty:
      return absl::InvalidArgumentError(absl::StrCat(field, " is empty"));
    case TextProblem::kTooLong:
      return absl::InvalidArgumentError(absl::StrCat(
          field, " is ", checked.characters, " characters long; the limit is ", max_characters));
    case TextProblem::kInvalidUtf8:
      return absl::InvalidArgumentError(absl::StrCat(field, " is not valid UTF-8"));
    case TextProblem::kControlCharacter:
      return absl::InvalidArgumentError(
          absl::StrCat(field, " contains control characters (line breaks included)"));
  }
  return absl::InvalidArgumentError(absl::StrCat(field, " is not acceptable"));
}

std::string_view TextProblemName(TextProblem problem) {
  switch (problem) {
    case TextProblem::kNone:
      return "";
    case TextProblem::kEmpty:
      return "empty";
    case TextProblem::kTooLong:
      return "too_long";
    case TextProblem::kInvalidUtf8:
      return "invalid_utf8";
    case TextProblem::kControlCharacter:
      return "control_character";
  }
  return "";
}

}  // namespace draughts::chat
