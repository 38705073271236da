#include "gateway/error_mapping.h"

#include <gtest/gtest.h>

#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

TEST(ErrorMappingTest, HttpStatusPerProtocolNote) {
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kInvalidArgument), 400);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kUnauthenticated), 401);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kPermissionDenied), 403);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kNotFound), 404);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kAborted), 409);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kFailedPrecondition), 409);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kResourceExhausted), 429);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kUnavailable), 503);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kInternal), 500);
  EXPECT_EQ(HttpStatusFor(absl::StatusCode::kDeadlineExceeded), 500);
}

TEST(ErrorMappingTest, CodeNamesAreGrpcNames) {
  EXPECT_EQ(StatusCodeName(absl::StatusCode::kFailedPrecondition), "FAILED_PRECONDITION");
  EXPECT_EQ(StatusCodeName(absl::StatusCode::kPermissionDenied), "PERMISSION_DENIED");
  EXPECT_EQ(StatusCodeName(static_cast<absl::StatusCode>(99)), "UNKNOWN");
}

TEST(ErrorMappingTest, ResponseBodyIsTheErrorObject) {
  HttpResponse response = ErrorResponse(absl::PermissionDeniedError("not \"your\" seat"));
  EXPECT_EQ(response.status, 403);
  EXPECT_EQ(response.content_type, "application/json");
  google::protobuf::Struct body = ParseJsonObject(response.body).value();
  const auto& error = body.fields().at("error").struct_value().fields();
  EXPECT_EQ(error.at("code").string_value(), "PERMISSION_DENIED");
  EXPECT_EQ(error.at("message").string_value(), "not \"your\" seat");
  EXPECT_EQ(ErrorResponse(413, absl::InvalidArgumentError("big")).status, 413);
}

}  // namespace
}  // namespace draughts::gateway
