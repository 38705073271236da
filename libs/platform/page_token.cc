#include "platform/page_token.h"

#include <sodium.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

std::string EscapeField(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (char c : field) {
    if (c == '%') {
      out += "%25";
    } else if (c == '|') {
      out += "%7C";
    } else {
      out += c;
    }
  }
  return out;
}

bool UnescapeField(std::string_view field, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '%') {
      out += field[i];
      continue;
    }
    const std::string_view code = field.substr(i + 1, 2);
    if (code == "25") {
      out += '%';
    } else if (code == "7C") {
      out += '|';
    } else {
      return false;
    }
    i += 2;
  }
  return true;
}

}  // namespace

std::string EncodePageToken(std::string_view kind, const std::vector<std::string>& fields) {
  std::string text(kind);
  for (const std::string& field : fields) {
    text += '|';
    text += EscapeField(field);
  }
  return absl::WebSafeBase64Escape(text);
}

absl::StatusOr<std::vector<std::string>> DecodePageToken(std::string_view token,
                                                         std::string_view kind,
                                                         std::size_t field_count) {
  const absl::Status bad = absl::InvalidArgumentError("page_token is malformed");
  if (token.size() > kMaxPageTokenSize) return bad;
  std::string text;
  if (!absl::WebSafeBase64Unescape(ToAbsl(token), &text)) return bad;
  std::vector<absl::string_view> parts = absl::StrSplit(text, '|');
  if (parts.size() != field_count + 1 || ToStd(parts[0]) != kind) return bad;
  std::vector<std::string> fields(field_count);
  for (std::size_t i = 0; i < field_count; ++i) {
    if (!UnescapeField(ToStd(parts[i + 1]), fields[i])) return bad;
  }
  return fields;
}

std::string PageFilterDigest(std::string_view filters) {
  unsigned char digest[8];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(filters.data()),
                     filters.size(), nullptr, 0);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

}  // namespace draughts::platform
