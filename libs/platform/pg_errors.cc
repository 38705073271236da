#include "platform/pg_errors.h"

#include <new>
#include <pqxx/except>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace draughts::platform {
namespace {

std::string Trimmed(const char* what) {
  return std::string(absl::StripTrailingAsciiWhitespace(what));
}

}  // namespace

absl::StatusCode SqlStateToCode(std::string_view sqlstate) {
  if (sqlstate.size() != 5) return absl::StatusCode::kInternal;
  std::string_view cls = sqlstate.substr(0, 2);
  if (sqlstate == "23505") return absl::StatusCode::kAlreadyExists;
  if (sqlstate == "23P01") return absl::StatusCode::kAlreadyExists;  // exclusion: conflicting row
  if (sqlstate == "23503") return absl::StatusCode::kFailedPrecondition;
  if (cls == "23" || cls == "22") return absl::StatusCode::kInvalidArgument;
  if (sqlstate == "40003") return absl::StatusCode::kUnknown;  // completion unknown
  if (cls == "40") return absl::StatusCode::kAborted;
  if (sqlstate == "55P03") return absl::StatusCode::kAborted;  // lock not available (NOWAIT)
  if (sqlstate == "57014") return absl::StatusCode::kDeadlineExceeded;
  if (sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03") {
    return absl::StatusCode::kUnavailable;
  }
  if (cls == "08") return absl::StatusCode::kUnavailable;
  if (sqlstate == "53300") return absl::StatusCode::kUnavailable;  // too many connections
  if (cls == "53") return absl::StatusCode::kResourceExhausted;
  return absl::StatusCode::kInternal;
}

absl::Status PgExceptionToStatus(const std::exception_ptr& error) noexcept {
  if (!error) return absl::UnknownError("no exception");
  try {
    try {
      std::rethrow_exception(error);
    } catch (const pqxx::in_doubt_error& e) {
      return absl::UnknownError(
          absl::StrCat("postgres commit outcome unknown (the transaction may or may not have "
                       "been applied): ",
                       Trimmed(e.what())));
    } catch (const pqxx::statement_completion_unknown& e) {
      return absl::UnknownError(
          absl::StrCat("postgres statement outcome unknown: ", Trimmed(e.what())));
    } catch (const pqxx::transaction_rollback& e) {
      // serialization_failure and deadlock_detected land here.
      return absl::AbortedError(
          absl::StrCat("postgres rolled the transaction back: ", Trimmed(e.what())));
    } catch (const pqxx::broken_connection& e) {
      return absl::UnavailableError(absl::StrCat("postgres connection lost: ", Trimmed(e.what())));
    } catch (const pqxx::sql_error& e) {
      absl::StatusCode code = SqlStateToCode(e.sqlstate());
      return absl::Status(
          code, absl::StrCat("postgres error ", e.sqlstate().empty() ? "?" : e.sqlstate(), ": ",
                             Trimmed(e.what())));
    } catch (const std::bad_alloc&) {
      return absl::ResourceExhaustedError("out of memory during a postgres transaction");
    } catch (const std::exception& e) {
      // libpqxx usage, conversion and range errors: a bug in our code.
      return absl::InternalError(absl::StrCat("postgres: ", Trimmed(e.what())));
    } catch (...) {
      return absl::UnknownError("postgres: unknown exception");
    }
  } catch (...) {
    // Building a message threw (allocation); still never throw.
    return absl::UnknownError("postgres: error while converting an exception");
  }
}

bool IsConnectionFailure(const absl::Status& status) {
  // Every UNAVAILABLE / UNKNOWN produced above comes from a connection-level
  // failure or an unknown commit outcome; either way the session is suspect.
  return status.code() == absl::StatusCode::kUnavailable ||
         status.code() == absl::StatusCode::kUnknown;
}

}  // namespace draughts::platform
