#include "pg_test_env.h"

#include <unistd.h>

#include <atomic>
#include <pqxx/pqxx>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {

void PgTest::SetUp() {
  auto conninfo = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG");
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().message();
  base_conninfo_ = *conninfo;
  static std::atomic<int> counter{0};
  schema_ = absl::AsciiStrToLower(
      absl::StrCat("platform_test_", ::getpid(), "_", counter++, "_",
                   ::testing::UnitTest::GetInstance()->current_test_info()->name()));
  if (schema_.size() > 60) schema_.resize(60);
  Admin(absl::StrCat("CREATE SCHEMA \"", schema_, "\""));
  conninfo_ = absl::StrCat(base_conninfo_, " options='-c search_path=", schema_, "'");
}

void PgTest::TearDown() {
  if (!schema_.empty()) Admin(absl::StrCat("DROP SCHEMA IF EXISTS \"", schema_, "\" CASCADE"));
}

std::unique_ptr<PgPool> PgTest::MakePool(int size, absl::Duration acquire_timeout) {
  auto pool = PgPool::Create({conninfo_, size, acquire_timeout});
  EXPECT_TRUE(pool.ok()) << pool.status();
  return pool.ok() ? *std::move(pool) : nullptr;
}

void PgTest::Admin(const std::string& sql) {
  try {
    pqxx::connection connection(base_conninfo_);
    pqxx::nontransaction tx(connection);
    tx.exec(sql);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "admin SQL failed: " << sql << ": " << e.what();
  }
}

}  // namespace draughts::platform
