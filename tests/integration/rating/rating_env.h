// What the rating integration tests share: the PostgreSQL and Redis of
// scripts/test (DRAUGHTS_TEST_PG, DRAUGHTS_TEST_REDIS). Each test gets its
// own login role and schema (so it can lock its own connections out to
// play a PostgreSQL outage without disturbing anyone) and its own results
// stream key; both are removed afterwards.
#ifndef DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_ENV_H_
#define DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_ENV_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "platform/pg_pool.h"
#include "platform/redis_client.h"
#include "rating/redis_result_source.h"

namespace draughts::rating::testing {

class RatingIntegrationTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A pool connecting as the test's role, with the migrations applied.
  std::unique_ptr<platform::PgPool> MakePool(int size = 2);
  // Runs SQL as the admin user (autocommit); returns the first column of
  // the first row ("" when none).
  std::string Admin(const std::string& sql);
  // Forbids or allows the test role's logins; forbidding also ends its
  // open connections. PostgreSQL is "down" for the test's pools meanwhile.
  void SetLoginAllowed(bool allowed);

  ResultGroup Group(const std::string& consumer) const;
  // XADDs a record's bytes with its game_id, as game-state's relay does.
  std::string AddResult(const std::string& data, const std::string& game_id);
  // Entries pending in the group (all consumers).
  int64_t PendingCount();
  int64_t ArchivedRows(const std::string& game_id = "");

  // Polls `condition` every 50 ms until it holds or `timeout` passes.
  static bool WaitFor(const std::function<bool()>& condition,
                      absl::Duration timeout = absl::Seconds(20));

  std::string base_conninfo_;
  std::string role_;      // also the schema's name
  std::string conninfo_;  // as role_, search_path role_
  platform::RedisOptions redis_options_;
  std::unique_ptr<platform::RedisClient> redis_;
  std::string stream_;
};

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_INTEGRATION_RATING_RATING_ENV_H_
