// Random identifiers: table ids and invite codes, both unguessable
// (80 bits of the OS's randomness in lower-case base32).
#ifndef DRAUGHTS_MATCHMAKING_TABLE_IDS_H_
#define DRAUGHTS_MATCHMAKING_TABLE_IDS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace draughts::matchmaking {

// "t" and 16 base32 characters.
std::string NewTableId();
// 16 base32 characters.
std::string NewInviteCode();
// INVALID_ARGUMENT unless `id` could be a table id (it ends up in keys).
absl::Status CheckTableId(std::string_view id);

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_TABLE_IDS_H_
