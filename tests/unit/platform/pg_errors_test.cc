#include "platform/pg_errors.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <new>
#include <pqxx/except>
#include <stdexcept>
#include <string>

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

template <typename E, typename... Args>
absl::Status Convert(Args&&... args) {
  return PgExceptionToStatus(std::make_exception_ptr(E(std::forward<Args>(args)...)));
}

TEST(SqlStateToCodeTest, MapsTheStatesServicesCareAbout) {
  EXPECT_EQ(SqlStateToCode("23505"), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(SqlStateToCode("23P01"), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(SqlStateToCode("40001"), absl::StatusCode::kAborted);
  EXPECT_EQ(SqlStateToCode("40P01"), absl::StatusCode::kAborted);
  EXPECT_EQ(SqlStateToCode("55P03"), absl::StatusCode::kAborted);
  EXPECT_EQ(SqlStateToCode("40003"), absl::StatusCode::kUnknown);
  EXPECT_EQ(SqlStateToCode("23503"), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(SqlStateToCode("23502"), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SqlStateToCode("23514"), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SqlStateToCode("22P02"), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SqlStateToCode("22001"), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SqlStateToCode("57014"), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(SqlStateToCode("57P01"), absl::StatusCode::kUnavailable);
  EXPECT_EQ(SqlStateToCode("08006"), absl::StatusCode::kUnavailable);
  EXPECT_EQ(SqlStateToCode("53300"), absl::StatusCode::kUnavailable);
  EXPECT_EQ(SqlStateToCode("53100"), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(SqlStateToCode("42601"), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateToCode("42P01"), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateToCode(""), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateToCode("2350"), absl::StatusCode::kInternal);
}

TEST(PgExceptionToStatusTest, SqlErrorsUseTheirSqlState) {
  absl::Status unique = Convert<pqxx::unique_violation>(
      "ERROR:  duplicate key value violates unique constraint \"games_pkey\"\n", "INSERT ...",
      "23505");
  EXPECT_EQ(unique.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(unique.message()), HasSubstr("23505"));
  EXPECT_THAT(std::string(unique.message()), HasSubstr("games_pkey"));
  EXPECT_EQ(unique.message().back(), '"');  // trailing newline trimmed

  EXPECT_EQ(Convert<pqxx::sql_error>("bad", "q", "22P02").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Convert<pqxx::syntax_error>("syntax", "q", "42601").code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(Convert<pqxx::sql_error>("no state").code(), absl::StatusCode::kInternal);
}

TEST(PgExceptionToStatusTest, LibpqxxFailureClasses) {
  EXPECT_EQ(Convert<pqxx::broken_connection>("server closed the connection").code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(Convert<pqxx::serialization_failure>("could not serialize").code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(Convert<pqxx::deadlock_detected>("deadlock").code(), absl::StatusCode::kAborted);
  absl::Status doubt = Convert<pqxx::in_doubt_error>("lost during commit");
  EXPECT_EQ(doubt.code(), absl::StatusCode::kUnknown);
  EXPECT_THAT(std::string(doubt.message()), HasSubstr("may or may not"));
  EXPECT_EQ(Convert<pqxx::statement_completion_unknown>("?").code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(Convert<pqxx::usage_error>("misuse").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(Convert<pqxx::conversion_error>("not an int").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(Convert<pqxx::unexpected_rows>("0 rows").code(), absl::StatusCode::kInternal);
}

TEST(PgExceptionToStatusTest, StandardAndForeignExceptions) {
  EXPECT_EQ(Convert<std::bad_alloc>().code(), absl::StatusCode::kResourceExhausted);
  absl::Status runtime = Convert<std::runtime_error>("boom");
  EXPECT_EQ(runtime.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(runtime.message()), HasSubstr("boom"));
  EXPECT_EQ(PgExceptionToStatus(std::make_exception_ptr(42)).code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(PgExceptionToStatus(nullptr).code(), absl::StatusCode::kUnknown);
}

TEST(IsConnectionFailureTest, OnlyConnectionLevelCodes) {
  EXPECT_TRUE(IsConnectionFailure(Convert<pqxx::broken_connection>("x")));
  EXPECT_TRUE(IsConnectionFailure(Convert<pqxx::in_doubt_error>("x")));
  EXPECT_TRUE(IsConnectionFailure(Convert<pqxx::sql_error>("x", "q", "57P01")));
  EXPECT_FALSE(IsConnectionFailure(Convert<pqxx::unique_violation>("x", "q", "23505")));
  EXPECT_FALSE(IsConnectionFailure(absl::OkStatus()));
}

}  // namespace
}  // namespace draughts::platform
