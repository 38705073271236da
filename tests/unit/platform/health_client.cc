#include "health_client.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace draughts::platform::testing {

ServingStatus ServingStatusOf(int port, const std::string& service) {
  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  grpc::Status status = stub->Check(&context, request, &response);
  return status.ok() ? response.status() : grpc::health::v1::HealthCheckResponse::UNKNOWN;
}

bool HealthBecomes(int port, const std::vector<std::string>& services, ServingStatus want,
                   absl::Duration within) {
  const absl::Time deadline = absl::Now() + within;
  while (absl::Now() < deadline) {
    bool all = ServingStatusOf(port) == want;
    for (const std::string& service : services) {
      all = all && ServingStatusOf(port, service) == want;
    }
    if (all) return true;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return false;
}

}  // namespace draughts::platform::testing
