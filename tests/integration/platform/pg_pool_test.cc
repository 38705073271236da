// PgPool and exception -> status conversion against a real PostgreSQL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <latch>
#include <pqxx/pqxx>
#include <stdexcept>
#include <thread>

#include "absl/time/clock.h"
#include "pg_test_env.h"
#include "platform/pg_pool.h"

namespace draughts::platform {
namespace {

using ::testing::HasSubstr;

class PgPoolTest : public PgTest {
 protected:
  void SetUp() override {
    PgTest::SetUp();
    if (HasFatalFailure()) return;
    pool_ = MakePool(2);
    ASSERT_NE(pool_, nullptr);
    ASSERT_TRUE(pool_
                    ->WithTransaction([](pqxx::transaction_base& tx) {
                      tx.exec(
                          "CREATE TABLE players (id text PRIMARY KEY, elo int NOT NULL "
                          "CHECK (elo >= 0));"
                          "CREATE TABLE games (id text PRIMARY KEY, "
                          "white text NOT NULL REFERENCES players(id));");
                      return absl::OkStatus();
                    })
                    .ok());
  }

  int64_t CountPlayers() {
    auto count = pool_->WithTransactionResult<int64_t>(
        [](pqxx::transaction_base& tx) -> absl::StatusOr<int64_t> {
          return tx.exec1("SELECT count(*) FROM players")[0].as<int64_t>();
        });
    EXPECT_TRUE(count.ok()) << count.status();
    return count.value_or(-1);
  }

  absl::Status Insert(const std::string& id, int elo) {
    return pool_->WithTransaction([&](pqxx::transaction_base& tx) {
      tx.exec_params("INSERT INTO players (id, elo) VALUES ($1, $2)", id, elo);
      return absl::OkStatus();
    });
  }

  std::unique_ptr<PgPool> pool_;
};

TEST_F(PgPoolTest, CommitsWhenTheFunctionReturnsOk) {
  ASSERT_TRUE(Insert("alice", 1500).ok());
  EXPECT_EQ(CountPlayers(), 1);
}

TEST_F(PgPoolTest, RollsBackWhenTheFunctionReturnsAnError) {
  absl::Status status = pool_->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec("INSERT INTO players VALUES ('bob', 1400)");
    return absl::FailedPreconditionError("changed my mind");
  });
  EXPECT_EQ(status, absl::FailedPreconditionError("changed my mind"));
  EXPECT_EQ(CountPlayers(), 0);
}

TEST_F(PgPoolTest, RollsBackAndConvertsWhenTheFunctionThrows) {
  absl::Status status = pool_->WithTransaction([](pqxx::transaction_base& tx) -> absl::Status {
    tx.exec("INSERT INTO players VALUES ('carol', 1300)");
    throw std::runtime_error("bug in the handler");
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(status.message()), HasSubstr("bug in the handler"));
  EXPECT_EQ(CountPlayers(), 0);
}

TEST_F(PgPoolTest, UniqueViolationIsAlreadyExistsAndChangesNothing) {
  ASSERT_TRUE(Insert("dave", 1500).ok());
  absl::Status status = pool_->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec("INSERT INTO players VALUES ('erin', 1500)");
    tx.exec("INSERT INTO players VALUES ('dave', 1600)");
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_THAT(std::string(status.message()), HasSubstr("23505"));
  EXPECT_EQ(CountPlayers(), 1);  // erin rolled back with the failing statement
}

TEST_F(PgPoolTest, OtherSqlErrorsMapBySqlState) {
  auto run = [&](const std::string& sql) {
    return pool_->WithTransaction([&](pqxx::transaction_base& tx) {
      tx.exec(sql);
      return absl::OkStatus();
    });
  };
  EXPECT_EQ(run("INSERT INTO players VALUES ('x', NULL)").code(),
            absl::StatusCode::kInvalidArgument);  // not null
  EXPECT_EQ(run("INSERT INTO players VALUES ('x', -5)").code(),
            absl::StatusCode::kInvalidArgument);  // check
  EXPECT_EQ(run("SELECT 'abc'::int").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(run("INSERT INTO games VALUES ('g1', 'nobody')").code(),
            absl::StatusCode::kFailedPrecondition);  // foreign key
  EXPECT_EQ(run("SELEC 1").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(run("SELECT * FROM no_such_table").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(run("SET LOCAL statement_timeout = '50ms'; SELECT pg_sleep(2)").code(),
            absl::StatusCode::kDeadlineExceeded);
  // Every failure left the pool healthy.
  EXPECT_TRUE(Insert("after", 1).ok());
}

TEST_F(PgPoolTest, ConversionErrorsInResultHandlingAreInternal) {
  absl::Status status = pool_->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec1("SELECT 'not a number'")[0].as<int>();
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
  status = pool_->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec1("SELECT 1 WHERE false");  // expects exactly one row
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kInternal);
}

TEST_F(PgPoolTest, WriteSkewUnderSerializableIsAborted) {
  // Two serializable transactions each read the table, then insert:
  // PostgreSQL must not commit both.
  auto skew = [&](const std::string& id, std::latch& both_read) {
    return pool_->WithTransaction(
        [&](pqxx::transaction_base& tx) {
          tx.exec1("SELECT count(*) FROM players");
          both_read.arrive_and_wait();
          tx.exec_params("INSERT INTO players VALUES ($1, 1000)", id);
          return absl::OkStatus();
        },
        {PgIsolation::kSerializable, 1});
  };
  std::latch both_read(2);
  auto a = std::async(std::launch::async, [&] { return skew("a", both_read); });
  auto b = std::async(std::launch::async, [&] { return skew("b", both_read); });
  absl::Status sa = a.get();
  absl::Status sb = b.get();
  EXPECT_FALSE(sa.ok() && sb.ok());
  for (const absl::Status& s : {sa, sb}) {
    if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kAborted) << s;
    }
  }
  EXPECT_EQ(CountPlayers(), (sa.ok() ? 1 : 0) + (sb.ok() ? 1 : 0));
}

// Raises SQLSTATE 40001 for the first `failures` runs, like a real
// serialization failure, then inserts.
absl::Status FlakyInsert(PgPool& pool, const std::string& tag, int failures, int attempts,
                         int* runs) {
  *runs = 0;
  return pool.WithTransaction(
      [&](pqxx::transaction_base& tx) {
        tx.exec_params("INSERT INTO players VALUES ($1, 1)", tag + std::to_string(*runs));
        if ((*runs)++ < failures) {
          tx.exec(
              "DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = "
              "'serialization_failure'; END $$");
        }
        return absl::OkStatus();
      },
      {PgIsolation::kSerializable, attempts});
}

TEST_F(PgPoolTest, AbortedTransactionsAreRetriedOnlyWhenAllowed) {
  int runs = 0;
  absl::Status once = FlakyInsert(*pool_, "once", 1, 1, &runs);
  EXPECT_EQ(once.code(), absl::StatusCode::kAborted) << once;
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(CountPlayers(), 0);

  absl::Status retried = FlakyInsert(*pool_, "retried", 2, 3, &runs);
  EXPECT_TRUE(retried.ok()) << retried;
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(CountPlayers(), 1);  // only the successful run's row

  absl::Status exhausted = FlakyInsert(*pool_, "exhausted", 5, 3, &runs);
  EXPECT_EQ(exhausted.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(CountPlayers(), 1);
}

TEST_F(PgPoolTest, IdleConnectionKilledByTheServerIsReplacedTransparently) {
  std::unique_ptr<PgPool> pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  auto backend_pid = [&] {
    return pool->WithTransactionResult<int>([](pqxx::transaction_base& tx) -> absl::StatusOr<int> {
      return tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
    });
  };
  auto before = backend_pid();
  ASSERT_TRUE(before.ok()) << before.status();
  Admin("SELECT pg_terminate_backend(" + std::to_string(*before) + ")");
  absl::SleepFor(absl::Milliseconds(100));  // let the backend exit

  auto after = backend_pid();
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_NE(*after, *before);
  EXPECT_EQ(pool->open_connections(), 1);
}

TEST_F(PgPoolTest, ConnectionKilledMidTransactionIsUnavailableThenRecovers) {
  std::unique_ptr<PgPool> pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  std::atomic<int> runs{0};
  absl::Status status = pool->WithTransaction([&](pqxx::transaction_base& tx) {
    ++runs;
    int pid = tx.exec1("SELECT pg_backend_pid()")[0].as<int>();
    Admin("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
    absl::SleepFor(absl::Milliseconds(100));
    tx.exec("INSERT INTO players VALUES ('lost', 1)");
    return absl::OkStatus();
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_EQ(runs.load(), 1);  // not retried: the function had started

  pool_.reset();
  pool_ = std::move(pool);
  EXPECT_EQ(CountPlayers(), 0);
  EXPECT_TRUE(Insert("back", 1).ok());
  EXPECT_EQ(CountPlayers(), 1);
}

TEST_F(PgPoolTest, ExhaustedPoolIsUnavailableAfterTheAcquireTimeout) {
  std::unique_ptr<PgPool> pool = MakePool(1, absl::Milliseconds(150));
  ASSERT_NE(pool, nullptr);
  std::latch holding(1);
  std::latch release(1);
  std::thread holder([&] {
    pool->WithTransaction([&](pqxx::transaction_base&) {
          holding.count_down();
          release.wait();
          return absl::OkStatus();
        })
        .IgnoreError();
  });
  holding.wait();
  absl::Time begin = absl::Now();
  absl::Status status =
      pool->WithTransaction([](pqxx::transaction_base&) { return absl::OkStatus(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(status.message()), HasSubstr("busy"));
  EXPECT_GE(absl::Now() - begin, absl::Milliseconds(150));
  release.count_down();
  holder.join();
  EXPECT_TRUE(pool->WithTransaction([](pqxx::transaction_base&) { return absl::OkStatus(); }).ok());
}

TEST_F(PgPoolTest, PoolOpensAtMostSizeConnectionsUnderLoad) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        if (!Insert("p" + std::to_string(t) + "_" + std::to_string(i), i).ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(pool_->open_connections(), 2);
  EXPECT_EQ(CountPlayers(), 60);
}

TEST(PgPoolCreateTest, UnreachableDatabaseIsUnavailable) {
  auto pool = PgPool::Create({"host=127.0.0.1 port=1 dbname=x connect_timeout=2", 2});
  EXPECT_EQ(pool.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(pool.status().message()), HasSubstr("cannot connect to postgres"));
}

TEST(PgPoolCreateTest, EmptyFunctionIsRejected) {
  // Needs no database: validated before a connection is taken. Uses the
  // shared database only to construct the pool.
  auto conninfo = std::getenv("DRAUGHTS_TEST_PG");
  ASSERT_NE(conninfo, nullptr) << "environment variable DRAUGHTS_TEST_PG is not set";
  auto pool = PgPool::Create({conninfo, 1});
  ASSERT_TRUE(pool.ok()) << pool.status();
  EXPECT_EQ((*pool)->WithTransaction(nullptr).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace draughts::platform
