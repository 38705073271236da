#include "bot/position_request.h"

#include <gtest/gtest.h>

namespace draughts::bot {
namespace {

google::protobuf::RepeatedPtrField<std::string> Moves(std::vector<std::string> moves) {
  google::protobuf::RepeatedPtrField<std::string> out;
  for (std::string& move : moves) *out.Add() = std::move(move);
  return out;
}

TEST(PositionRequestTest, ReplaysTheGameFromTheStartOrAFen) {
  absl::StatusOr<rules::GameRecord> record =
      BuildGameRecord("international", {}, "", Moves({"32-28", "19-23"}));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->ply_count(), 2);
  absl::StatusOr<rules::GameRecord> from_fen =
      BuildGameRecord("english", {}, "B:W21,22,30:B5,9,11", Moves({"9-14"}));
  ASSERT_TRUE(from_fen.ok()) << from_fen.status();
  EXPECT_EQ(from_fen->ply_count(), 1);
}

TEST(PositionRequestTest, NamesWhatIsWrong) {
  auto unknown = BuildGameRecord("nope", {}, "", {});
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  v1::VariantOptions no_capture;
  no_capture.set_mandatory_capture(false);
  EXPECT_EQ(BuildGameRecord("international", no_capture, "", {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto bad_fen = BuildGameRecord("international", {}, "W:W99:B1", {});
  EXPECT_EQ(bad_fen.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(bad_fen.status().message()).find("fen"), std::string::npos);
  auto illegal = BuildGameRecord("international", {}, "", Moves({"32-28", "32-28"}));
  EXPECT_EQ(illegal.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(illegal.status().message()).find("move 2 (32-28)"), std::string::npos)
      << illegal.status();
}

TEST(PositionRequestTest, AFinishedGameIsAFailedPrecondition) {
  EXPECT_EQ(BuildGameRecord("international", {}, "W:W:B1,2", {}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace draughts::bot
