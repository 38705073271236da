// Helpers for integration tests: required environment variables and free
// ports. See /work notes: scripts/test sets DRAUGHTS_TEST_REDIS,
// DRAUGHTS_TEST_PG and DRAUGHTS_TEST_REDIS_SERVER.
#ifndef DRAUGHTS_PLATFORM_TESTING_TEST_ENV_H_
#define DRAUGHTS_PLATFORM_TESTING_TEST_ENV_H_

#include <string>

#include "absl/status/statusor.h"

namespace draughts::platform::testing {

// The value of `name`, or FAILED_PRECONDITION with a message saying which
// variable is missing and what sets it.
absl::StatusOr<std::string> RequiredTestEnv(const std::string& name);

// A TCP port on 127.0.0.1 that was free a moment ago.
absl::StatusOr<int> PickFreePort();

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_PLATFORM_TESTING_TEST_ENV_H_
