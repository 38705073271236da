#include "gateway/account_names.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::gateway {
namespace {

bool IsNameCharacter(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

}  // namespace

absl::Status ValidateAccountName(std::string_view name) {
  if (name.size() < kMinAccountNameLength || name.size() > kMaxAccountNameLength) {
    return absl::InvalidArgumentError(absl::StrCat("a name is ", kMinAccountNameLength, "-",
                                                   kMaxAccountNameLength, " characters"));
  }
  for (char c : name) {
    if (!IsNameCharacter(c)) {
      return absl::InvalidArgumentError(
          "a name uses only the letters A-Z and a-z, the digits 0-9, '_' and '-'");
    }
  }
  if (!absl::ascii_isalnum(static_cast<unsigned char>(name.front()))) {
    return absl::InvalidArgumentError("a name starts with a letter or a digit");
  }
  const std::string normal = NormaliseAccountName(name);
  if (absl::StartsWith(normal, "guest") || absl::StartsWith(normal, "deleted")) {
    return absl::InvalidArgumentError("names starting with \"guest\" or \"deleted\" are reserved");
  }
  return absl::OkStatus();
}

std::string NormaliseAccountName(std::string_view name) {
  return absl::AsciiStrToLower(platform::ToAbsl(name));
}

absl::Status ValidatePassword(std::string_view password) {
  if (password.size() < kMinPasswordBytes || password.size() > kMaxPasswordBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("a password is ", kMinPasswordBytes, "-", kMaxPasswordBytes, " bytes"));
  }
  if (password.find('\0') != std::string_view::npos) {
    return absl::InvalidArgumentError("a password cannot contain a NUL character");
  }
  return absl::OkStatus();
}

}  // namespace draughts::gateway
