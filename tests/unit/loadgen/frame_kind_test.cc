// FrameKind reads a ServerFrame's kind without parsing it; anything not in
// the gateway's printed form gives "" (the caller then parses in full).
#include "loadgen/frame_kind.h"

#include "gtest/gtest.h"

namespace draughts::loadgen {
namespace {

TEST(FrameKindTest, NamesTheFrameMemberAfterTheRequestId) {
  EXPECT_EQ(FrameKind(R"({"requestId":"","welcome":{"tableId":"t1"}})"), "welcome");
  EXPECT_EQ(FrameKind(R"({"requestId":"r7","ack":{"started":false}})"), "ack");
  EXPECT_EQ(FrameKind(R"({"requestId":"","gameEvent":{"eventId":"1-0"}})"), "gameEvent");
}

TEST(FrameKindTest, SkipsEscapesInTheRequestId) {
  EXPECT_EQ(FrameKind(R"({"requestId":"a\"b\\","error":{"code":"ABORTED"}})"), "error");
}

TEST(FrameKindTest, AnythingElseIsEmpty) {
  EXPECT_EQ(FrameKind(""), "");
  EXPECT_EQ(FrameKind("{}"), "");
  EXPECT_EQ(FrameKind(R"({"welcome":{}})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1"})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1","x")"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"r1","pong":1})"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"unterminated)"), "");
  EXPECT_EQ(FrameKind(R"({"requestId":"ends in \)"), "");
}

}  // namespace
}  // namespace draughts::loadgen
