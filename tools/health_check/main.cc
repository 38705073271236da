// health_check ADDR [SERVICE]
//
// Asks a gRPC server's grpc.health.v1 service whether it is serving, for
// container health checks (docker-compose.yml; the images have no other
// gRPC client). Exits 0 when SERVICE ("" = the whole server) reports
// SERVING, 1 when it reports anything else or the call fails within the
// deadline (the reason on stderr), 2 on bad arguments.
//
// The deadline is 2 s, under compose's 3 s health check timeout, so a hung
// server fails the check instead of compose killing the probe.

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "grpc/health/v1/health.grpc.pb.h"

namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

constexpr auto kDeadline = std::chrono::seconds(2);

int Usage() {
  std::fprintf(stderr,
               "usage: health_check ADDR [SERVICE]\n"
               "  ADDR     host:port of a gRPC server, e.g. 127.0.0.1:50051\n"
               "  SERVICE  a service name, e.g. draughts.v1.GameState (default: the whole "
               "server)\n"
               "exit 0 when SERVING, 1 otherwise\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) return Usage();
  const std::string address = argv[1];
  if (address.empty() || address[0] == '-') return Usage();
  HealthCheckRequest request;
  if (argc == 3) request.set_service(argv[2]);

  auto stub = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + kDeadline);
  HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) {
    std::fprintf(stderr, "health_check: %s: call failed (code %d): %s\n", address.c_str(),
                 static_cast<int>(status.error_code()), status.error_message().c_str());
    return 1;
  }
  if (response.status() != HealthCheckResponse::SERVING) {
    std::fprintf(stderr, "health_check: %s: %s\n", address.c_str(),
                 HealthCheckResponse::ServingStatus_Name(response.status()).c_str());
    return 1;
  }
  return 0;
}
