// Converts libpqxx / std exceptions into absl::Status, so nothing thrown by
// libpqxx crosses a library boundary. SQL errors map by SQLSTATE:
//   23505 unique_violation                 -> ALREADY_EXISTS
//   40001 serialization, 40P01 deadlock    -> ABORTED (retry the transaction)
//   23503 foreign key                      -> FAILED_PRECONDITION
//   other 23xxx, 22xxx (bad data)          -> INVALID_ARGUMENT
//   57014 statement timeout / cancel       -> DEADLINE_EXCEEDED
//   08xxx, 57P01-03, 53300, broken conn.   -> UNAVAILABLE
//   53xxx                                  -> RESOURCE_EXHAUSTED
//   commit outcome unknown                 -> UNKNOWN
//   anything else (42xxx bugs, ...)        -> INTERNAL
#ifndef DRAUGHTS_PLATFORM_PG_ERRORS_H_
#define DRAUGHTS_PLATFORM_PG_ERRORS_H_

#include <exception>
#include <string_view>

#include "absl/status/status.h"

namespace draughts::platform {

absl::StatusCode SqlStateToCode(std::string_view sqlstate);

// Rethrows `error` and converts it. Never throws.
absl::Status PgExceptionToStatus(const std::exception_ptr& error) noexcept;

// True when the status means the connection cannot be trusted any more and
// must be replaced (as opposed to a failed statement on a healthy one).
bool IsConnectionFailure(const absl::Status& status);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_PG_ERRORS_H_
