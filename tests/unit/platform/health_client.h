// What a test server's grpc.health.v1 service says, for the tests of
// readiness in libs/platform and in the services (library
// platform_test_health).
#ifndef DRAUGHTS_TESTS_UNIT_PLATFORM_HEALTH_CLIENT_H_
#define DRAUGHTS_TESTS_UNIT_PLATFORM_HEALTH_CLIENT_H_

#include <string>
#include <vector>

#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace draughts::platform::testing {

using ServingStatus = grpc::health::v1::HealthCheckResponse::ServingStatus;

// The status of `service` ("" = the whole server) on 127.0.0.1:`port`;
// UNKNOWN when the call itself fails (2 s deadline).
ServingStatus ServingStatusOf(int port, const std::string& service = "");

// Polls until the whole server and each of `services` report `want`;
// false if they do not within `within`.
bool HealthBecomes(int port, const std::vector<std::string>& services, ServingStatus want,
                   absl::Duration within = absl::Seconds(3));

}  // namespace draughts::platform::testing

#endif  // DRAUGHTS_TESTS_UNIT_PLATFORM_HEALTH_CLIENT_H_
