#include "platform/status.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/status_macros.h"

namespace draughts::platform {
namespace {

TEST(StatusMappingTest, EveryAbslCodeMapsToTheSameGrpcCodeAndBack) {
  for (int code = 0; code <= 16; ++code) {
    auto absl_code = static_cast<absl::StatusCode>(code);
    grpc::StatusCode grpc_code = ToGrpcCode(absl_code);
    EXPECT_EQ(static_cast<int>(grpc_code), code) << absl::StatusCodeToString(absl_code);
    EXPECT_EQ(FromGrpcCode(grpc_code), absl_code) << code;
  }
}

TEST(StatusMappingTest, ErrorStatusKeepsCodeAndMessageBothWays) {
  for (int code = 1; code <= 16; ++code) {
    std::string message = "problem number " + std::to_string(code);
    absl::Status status(static_cast<absl::StatusCode>(code), message);
    grpc::Status grpc_status = ToGrpcStatus(status);
    EXPECT_EQ(static_cast<int>(grpc_status.error_code()), code);
    EXPECT_EQ(grpc_status.error_message(), message);

    absl::Status back = FromGrpcStatus(grpc_status);
    EXPECT_EQ(back, status);
  }
}

TEST(StatusMappingTest, OkIsOkBothWays) {
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
  EXPECT_TRUE(FromGrpcStatus(grpc::Status::OK).ok());
}

TEST(StatusMappingTest, OutOfRangeNumericCodesBecomeUnknownNotOk) {
  EXPECT_EQ(ToGrpcCode(static_cast<absl::StatusCode>(42)), grpc::StatusCode::UNKNOWN);
  EXPECT_EQ(FromGrpcCode(static_cast<grpc::StatusCode>(20)), absl::StatusCode::kUnknown);
  absl::Status from_peer = FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(20), "odd"));
  EXPECT_EQ(from_peer.code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(from_peer.message(), "odd");
}

// --- macros ---

int g_evaluations = 0;

absl::Status CountedStatus(absl::Status status) {
  ++g_evaluations;
  return status;
}

absl::StatusOr<int> CountedValue(absl::StatusOr<int> value) {
  ++g_evaluations;
  return value;
}

absl::Status ReturnIfError(absl::Status first, bool* reached_end) {
  DRAUGHTS_RETURN_IF_ERROR(CountedStatus(first));
  *reached_end = true;
  return absl::OkStatus();
}

absl::StatusOr<int> AssignOrReturn(absl::StatusOr<int> input) {
  DRAUGHTS_ASSIGN_OR_RETURN(int value, CountedValue(input));
  return value * 2;
}

grpc::Status GrpcHandler(absl::Status first, absl::StatusOr<int> second, int* out) {
  DRAUGHTS_GRPC_RETURN_IF_ERROR(first);
  DRAUGHTS_GRPC_ASSIGN_OR_RETURN(*out, second);
  return grpc::Status::OK;
}

TEST(StatusMacrosTest, ReturnIfErrorReturnsTheErrorAndEvaluatesOnce) {
  g_evaluations = 0;
  bool reached_end = false;
  absl::Status result = ReturnIfError(absl::NotFoundError("no game"), &reached_end);
  EXPECT_EQ(result, absl::NotFoundError("no game"));
  EXPECT_FALSE(reached_end);
  EXPECT_EQ(g_evaluations, 1);

  g_evaluations = 0;
  EXPECT_TRUE(ReturnIfError(absl::OkStatus(), &reached_end).ok());
  EXPECT_TRUE(reached_end);
  EXPECT_EQ(g_evaluations, 1);
}

TEST(StatusMacrosTest, AssignOrReturnAssignsValueOrReturnsError) {
  g_evaluations = 0;
  EXPECT_EQ(AssignOrReturn(21).value(), 42);
  EXPECT_EQ(g_evaluations, 1);
  EXPECT_EQ(AssignOrReturn(absl::AbortedError("stale ply")).status(),
            absl::AbortedError("stale ply"));
  EXPECT_EQ(g_evaluations, 2);
}

TEST(StatusMacrosTest, GrpcVariantsConvertTheError) {
  int out = 0;
  grpc::Status status = GrpcHandler(absl::PermissionDeniedError("bad token"), 1, &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(status.error_message(), "bad token");

  status = GrpcHandler(absl::OkStatus(), absl::FailedPreconditionError("not your turn"), &out);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(out, 0);

  EXPECT_TRUE(GrpcHandler(absl::OkStatus(), 7, &out).ok());
  EXPECT_EQ(out, 7);
}

}  // namespace
}  // namespace draughts::platform
