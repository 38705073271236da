// The API rules hold for every draughts.v1 contract, and each rule's check
// really catches what breaks it (fixtures/broken_*.proto).

#include "contract_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "contract_set.h"

namespace draughts::proto_test {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

const ContractSet& Contracts() {
  return CachedContractSet(DRAUGHTS_DESCRIPTOR_SET, "draughts/");
}

const ContractSet& Fixtures() {
  return CachedContractSet(DRAUGHTS_FIXTURE_SET, "broken_");
}

Files Fixture(const std::string& name) {
  const auto* file = Fixtures().pool().FindFileByName(name);
  EXPECT_NE(file, nullptr) << name << " is not in the fixture set";
  return file == nullptr ? Files{} : Files{file};
}

// --- The real contracts follow every rule. ---

TEST(DraughtsContracts, AreInPackageDraughtsV1) {
  EXPECT_THAT(CheckFileLayout(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, StartEveryEnumAtUnspecified) {
  EXPECT_THAT(CheckEnumValues(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, NameRequestsAndResponsesAfterTheirCall) {
  EXPECT_THAT(CheckMethodNaming(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, DeclareWhichCallsHaveSideEffects) {
  EXPECT_THAT(CheckIdempotencyLevels(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, PaginateEveryList) {
  EXPECT_THAT(CheckPagination(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, MakeEveryStateChangeSafeToRetry) {
  EXPECT_THAT(CheckRetrySafety(Contracts().files(), DraughtsRetrySafeByNature()), IsEmpty());
}

TEST(DraughtsContracts, DocumentTheErrorsOfEveryCall) {
  EXPECT_THAT(CheckErrorDocs(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, CommentEveryServiceCallEnumAndMessage) {
  EXPECT_THAT(CheckComments(Contracts().files()), IsEmpty());
}

TEST(DraughtsContracts, UseTimestampsForInstantsAndDurationsForSpans) {
  EXPECT_THAT(CheckTimeFields(Contracts().files()), IsEmpty());
}

// --- Each check catches exactly what the fixtures break. ---

TEST(ContractRules, CatchWrongPackageSyntaxAndPath) {
  EXPECT_THAT(CheckFileLayout(Fixture("broken_layout.proto")),
              UnorderedElementsAre(HasSubstr("package is 'fixture.layout'"),
                                   HasSubstr("not proto3"), HasSubstr("not under draughts/v1/")));
}

TEST(ContractRules, CatchEnumsWithoutUnspecifiedOrPrefix) {
  EXPECT_THAT(
      CheckEnumValues(Fixture("broken_enums.proto")),
      UnorderedElementsAre(HasSubstr("fixture.enums.Shade: value 0 must be SHADE_UNSPECIFIED"),
                           HasSubstr("fixture.enums.Piece.KING: lacks prefix PIECE_"),
                           HasSubstr("fixture.enums.Holder.Kind.OTHER: lacks prefix KIND_")));
}

TEST(ContractRules, CatchMessagesNotNamedAfterTheirCall) {
  EXPECT_THAT(CheckMethodNaming(Fixture("broken_naming.proto")),
              UnorderedElementsAre(HasSubstr("FindThing: takes ThingQuery"),
                                   HasSubstr("FetchThing: returns Thing")));
}

TEST(ContractRules, CatchUndeclaredOrWrongIdempotencyLevels) {
  EXPECT_THAT(CheckIdempotencyLevels(Fixture("broken_idempotency.proto")),
              UnorderedElementsAre(HasSubstr("PaintThing: declare idempotency_level"),
                                   HasSubstr("GetThing: a Get call must be NO_SIDE_EFFECTS"),
                                   HasSubstr("MoveThing: declare idempotency_level")));
}

TEST(ContractRules, CatchListsThatDoNotPaginate) {
  EXPECT_THAT(CheckPagination(Fixture("broken_pagination.proto")),
              UnorderedElementsAre(HasSubstr("ListThings: request lacks int32 page_size"),
                                   HasSubstr("ListThings: request lacks string page_token"),
                                   HasSubstr("ListThings: response lacks string next_page_token"),
                                   HasSubstr("GetThingLog: request lacks int32 page_size"),
                                   HasSubstr("GetThingLog: response has no repeated field"),
                                   HasSubstr("ListForever: a paginated call cannot stream")));
}

TEST(ContractRules, CatchStateChangesWithoutPlyOrKey) {
  EXPECT_THAT(CheckRetrySafety(Fixture("broken_retry.proto"), {}),
              UnorderedElementsAre(
                  HasSubstr("PaintThing: changes state"), HasSubstr("MoveThing: changes state"),
                  HasSubstr("NameThing: changes state"), HasSubstr("PokeThing: changes state")));
}

TEST(ContractRules, AcceptOnlyListedCallsAsRetrySafeByNature) {
  const RetrySafeByNature by_nature = {
      {"fixture.retry.Things.PaintThing", "painting twice paints once"},
      {"fixture.retry.Things.GetThing", "a read"},
      {"fixture.retry.Things.Vanished", "gone"},
  };
  EXPECT_THAT(CheckRetrySafety(Fixture("broken_retry.proto"), by_nature),
              UnorderedElementsAre(HasSubstr("MoveThing: changes state"),
                                   HasSubstr("NameThing: changes state"),
                                   HasSubstr("PokeThing: changes state"),
                                   HasSubstr("GetThing: listed as retry-safe by nature"),
                                   HasSubstr("Vanished: listed as retry-safe by nature")));
}

TEST(ContractRules, CatchUndocumentedOrMisspeltErrors) {
  EXPECT_THAT(CheckErrorDocs(Fixture("broken_errors.proto")),
              UnorderedElementsAre(
                  HasSubstr("PaintThing: comment has no \"Errors:\" section"),
                  HasSubstr("MoveThing: \"Errors:\" lists no gRPC code"),
                  HasSubstr("TouchThing: \"NOT_FOUNDED\" is not a gRPC code"),
                  HasSubstr("TouchThing: takes player_token but does not document "
                            "PERMISSION_DENIED"),
                  HasSubstr("ListThings: paginated but does not document INVALID_ARGUMENT")));
}

TEST(ContractRules, CatchMissingComments) {
  EXPECT_THAT(CheckComments(Fixture("broken_comments.proto")),
              UnorderedElementsAre(HasSubstr("fixture.comments.Silent: no comment"),
                                   HasSubstr("fixture.comments.Silent.Hush: no comment"),
                                   HasSubstr("fixture.comments.Undocumented: no comment"),
                                   HasSubstr("fixture.comments.Undocumented.Inner: no comment"),
                                   HasSubstr("fixture.comments.Undocumented.Mood: no comment"),
                                   HasSubstr("fixture.comments.Bare: no comment")));
}

TEST(ContractRules, CatchInstantsAndSpansOfTheWrongType) {
  EXPECT_THAT(CheckTimeFields(Fixture("broken_time.proto")),
              UnorderedElementsAre(
                  HasSubstr("Times.created_at: an instant must be google.protobuf.Timestamp"),
                  HasSubstr("Times.when: a Timestamp is named"),
                  HasSubstr("Times.timeout_ms: a *_ms field must be int32 or int64"),
                  HasSubstr("Times.timeout_ms: a Duration carries its own unit"),
                  HasSubstr("Times.delay_ms: a *_ms field must be int32 or int64"),
                  HasSubstr("Times.move_deadline: an instant must be")));
}

}  // namespace
}  // namespace draughts::proto_test
