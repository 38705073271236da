// A private schema per test in the shared test database (DRAUGHTS_TEST_PG),
// so tests of different areas running at once never see each other's tables.
#ifndef DRAUGHTS_TESTS_INTEGRATION_PLATFORM_PG_TEST_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_PLATFORM_PG_TEST_ENV_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "platform/pg_pool.h"

namespace draughts::platform {

class PgTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Pool whose connections use the test's schema.
  std::unique_ptr<PgPool> MakePool(int size, absl::Duration acquire_timeout = absl::Seconds(5));
  // Runs SQL on a separate admin connection (autocommit-like).
  void Admin(const std::string& sql);

  std::string base_conninfo_;
  std::string schema_;
  std::string conninfo_;  // base + search_path=schema_
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_TESTS_INTEGRATION_PLATFORM_PG_TEST_ENV_H_
