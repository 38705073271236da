#include "platform/variant_config.h"

#include <gtest/gtest.h>

namespace draughts::platform {
namespace {

TEST(VariantConfig, EnglishTableOptionsApply) {
  v1::VariantOptions options;
  options.set_mandatory_capture(false);
  options.set_forty_move_rule_in_total(true);
  options.set_move_limit(100);
  absl::StatusOr<rules::Variant> english = ConfigureVariant("english", options);
  ASSERT_TRUE(english.ok()) << english.status();
  EXPECT_FALSE(english->mandatory_capture);
  EXPECT_EQ(english->draw.no_progress_counting, rules::MoveCounting::kTotal);
  EXPECT_EQ(english->draw.move_limit_plies, 100);
}

TEST(VariantConfig, NoOptionsIsTheBuiltInRuleSet) {
  absl::StatusOr<rules::Variant> international = ConfigureVariant("international", {});
  ASSERT_TRUE(international.ok());
  EXPECT_TRUE(international->mandatory_capture);
  EXPECT_EQ(international->draw.move_limit_plies, 0);
}

TEST(VariantConfig, RefusesWhatTheRuleSetDoesNotOffer) {
  v1::VariantOptions no_capture;
  no_capture.set_mandatory_capture(false);
  v1::VariantOptions total;
  total.set_forty_move_rule_in_total(true);
  v1::VariantOptions negative;
  negative.set_move_limit(-1);
  v1::VariantOptions huge;
  huge.set_move_limit(2001);
  for (const auto& [id, options] :
       std::vector<std::pair<std::string, v1::VariantOptions>>{{"international", no_capture},
                                                               {"international", total},
                                                               {"english", negative},
                                                               {"english", huge},
                                                               {"", {}},
                                                               {"no-such-variant", {}}}) {
    absl::StatusOr<rules::Variant> variant = ConfigureVariant(id, options);
    EXPECT_EQ(variant.status().code(), absl::StatusCode::kInvalidArgument)
        << id << " " << options.ShortDebugString();
  }
}

}  // namespace
}  // namespace draughts::platform
