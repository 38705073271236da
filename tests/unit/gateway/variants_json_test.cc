#include "gateway/variants_json.h"

#include <gtest/gtest.h>

#include "gateway/proto_json.h"

namespace draughts::gateway {
namespace {

const google::protobuf::Struct* FindVariantObject(const google::protobuf::Struct& all,
                                                  const std::string& id) {
  for (const auto& value : all.fields().at("variants").list_value().values()) {
    if (value.struct_value().fields().at("id").string_value() == id) return &value.struct_value();
  }
  return nullptr;
}

TEST(VariantsJsonTest, EveryRuleSetListed) {
  google::protobuf::Struct all = ParseJsonObject(AllVariantsJson()).value();
  EXPECT_EQ(static_cast<std::size_t>(all.fields().at("variants").list_value().values_size()),
            rules::AllVariants().size());
  ASSERT_NE(FindVariantObject(all, "international"), nullptr);
  const auto& international = FindVariantObject(all, "international")->fields();
  EXPECT_EQ(international.at("squares").number_value(), 50);
  EXPECT_EQ(international.at("board").struct_value().fields().at("rows").number_value(), 10);
  EXPECT_EQ(international.at("board").struct_value().fields().at("playable").string_value(),
            "dark");
  EXPECT_EQ(international.at("firstColor").string_value(), "COLOR_WHITE");
  EXPECT_EQ(international.at("initialFen").string_value(), "W:W31-50:B1-20");
}

TEST(VariantsJsonTest, TurkishUsesTheWholeBoard) {
  google::protobuf::Struct all = ParseJsonObject(AllVariantsJson()).value();
  const google::protobuf::Struct* turkish = FindVariantObject(all, "turkish");
  ASSERT_NE(turkish, nullptr);
  EXPECT_EQ(turkish->fields().at("squares").number_value(), 64);
  EXPECT_EQ(turkish->fields().at("board").struct_value().fields().at("playable").string_value(),
            "all");
  EXPECT_EQ(turkish->fields().at("board").struct_value().fields().at("cols").number_value(), 8);
}

TEST(VariantsJsonTest, EnglishColourNames) {
  google::protobuf::Struct all = ParseJsonObject(AllVariantsJson()).value();
  const google::protobuf::Struct* english = FindVariantObject(all, "english");
  ASSERT_NE(english, nullptr);
  const auto& names = english->fields().at("colorNames").struct_value().fields();
  EXPECT_EQ(names.at("white").string_value(), "Red");
  EXPECT_EQ(names.at("black").string_value(), "Black");
  EXPECT_EQ(english->fields().at("firstColor").string_value(), "COLOR_BLACK");
  EXPECT_EQ(english->fields().at("squares").number_value(), 32);
}

}  // namespace
}  // namespace draughts::gateway
