// The database-free parts of the migrations runner.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "platform/pg_migrations.h"

namespace draughts::platform {
namespace {

TEST(MigrationChecksumTest, IsFnv1a64) {
  // Test vectors published with the FNV algorithm.
  EXPECT_EQ(MigrationChecksum(""), "cbf29ce484222325");
  EXPECT_EQ(MigrationChecksum("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(MigrationChecksum("foobar"), "85944171f73967e8");
  EXPECT_NE(MigrationChecksum("CREATE TABLE a();"), MigrationChecksum("CREATE TABLE a ();"));
}

TEST(ValidateMigrationsTest, AcceptsIncreasingVersionsWithGaps) {
  EXPECT_TRUE(ValidateMigrations({}).ok());
  EXPECT_TRUE(ValidateMigrations({{1, "a", "SELECT 1"}, {5, "b", "SELECT 2"}}).ok());
}

TEST(ValidateMigrationsTest, RejectsBadLists) {
  EXPECT_EQ(ValidateMigrations({{0, "zero", "SELECT 1"}}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateMigrations({{2, "b", "SELECT 1"}, {1, "a", "SELECT 1"}}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateMigrations({{1, "a", "SELECT 1"}, {1, "again", "SELECT 1"}}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateMigrations({{1, "", "SELECT 1"}}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateMigrations({{1, "blank", " \n\t"}}).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ParseMigrationFileNameTest, ParsesVersionAndName) {
  auto parsed = ParseMigrationFileName("0003_add_history.sql");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->first, 3);
  EXPECT_EQ(parsed->second, "add_history");
  EXPECT_EQ(ParseMigrationFileName("12_x.sql")->first, 12);
}

TEST(ParseMigrationFileNameTest, RejectsOtherNames) {
  for (const char* bad : {"", "create.sql", "0001.sql", "_x.sql", "0001_.sql", "0001_x.txt",
                          "00a1_x.sql", "0000_zero.sql", "-1_neg.sql", "0001_x.sql.bak"}) {
    EXPECT_EQ(ParseMigrationFileName(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

}  // namespace
}  // namespace draughts::platform
