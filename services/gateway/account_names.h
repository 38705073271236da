// Account names and passwords: what is accepted, and the normal form under
// which names are unique.
//
// A name is 3-20 characters of the ASCII letters, digits, '_' and '-',
// starting with a letter or a digit. Names are unique ignoring case: the
// normal form is the name in ASCII lower case ("Anna_B" and "anna_b" are
// one name), which is what the database's unique index holds. The alphabet
// is ASCII on purpose: no two names that differ can look alike (no Unicode
// confusables, no invisible characters), and lower-casing it is exact.
// Names starting with "guest" or "deleted" are reserved, so no account can
// pass for a guest ("Guest-4821") or for a deleted account's placeholder.
//
// A password is 8-256 bytes of anything but NUL (the upper bound caps the
// hashing work a request can ask for).
#ifndef DRAUGHTS_GATEWAY_ACCOUNT_NAMES_H_
#define DRAUGHTS_GATEWAY_ACCOUNT_NAMES_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace draughts::gateway {

inline constexpr std::size_t kMinAccountNameLength = 3;
inline constexpr std::size_t kMaxAccountNameLength = 20;
inline constexpr std::size_t kMinPasswordBytes = 8;
inline constexpr std::size_t kMaxPasswordBytes = 256;

// OK, or INVALID_ARGUMENT saying what is wrong (never echoing the name
// back in full: it may be a password typed in the wrong box).
absl::Status ValidateAccountName(std::string_view name);

// The unique form of a valid name: ASCII lower case.
std::string NormaliseAccountName(std::string_view name);

// OK, or INVALID_ARGUMENT (the message never contains the password).
absl::Status ValidatePassword(std::string_view password);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_ACCOUNT_NAMES_H_
