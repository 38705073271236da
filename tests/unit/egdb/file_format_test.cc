#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "egdb/file_format.h"
#include "egdb/registry.h"
#include "test_support.h"

namespace draughts::egdb {
namespace {

class EgdbFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("egdb_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(EgdbFiles, SavedSlicesLoadBackIdentically) {
  const Database& english = testing::English();
  for (const Signature& s : CanonicalSignatures(3)) {
    auto path = WriteSlice(dir_.string(), english.variant(), *english.FindSlice(s));
    ASSERT_TRUE(path.ok()) << path.error().message;
  }
  auto loaded = Database::Load(dir_.string(), english.variant());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->complete_pieces(), 3);
  for (const Signature& s : CanonicalSignatures(3)) {
    ASSERT_NE(loaded->FindSlice(s), nullptr);
    EXPECT_EQ(loaded->FindSlice(s)->codes, english.FindSlice(s)->codes) << s.Name();
  }
  EXPECT_EQ(testing::WdlOf(*loaded, "W:WK1,K3:BK30"), Wdl::kWin);
  // Four pieces were not saved: not known.
  EXPECT_FALSE(testing::ProbeFen(*loaded, "W:WK1,K3:BK30,K32").has_value());

  // A piece cap leaves the bigger slices unread.
  auto capped = Database::Load(dir_.string(), english.variant(), 2);
  ASSERT_TRUE(capped.ok());
  EXPECT_EQ(capped->complete_pieces(), 2);
  EXPECT_EQ(capped->slice_count(), CanonicalSignatures(2).size());

  // A rule set of another family (Russian, on the same board) finds none.
  EXPECT_FALSE(Database::Load(dir_.string(), testing::VariantOrDie("russian")).ok());
}

TEST_F(EgdbFiles, DamagedFilesAreRefused) {
  const Database& english = testing::English();
  auto path = WriteSlice(dir_.string(), english.variant(), *english.FindSlice({0, 1, 0, 1}));
  ASSERT_TRUE(path.ok());
  {
    std::fstream f(*path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  auto loaded = Database::Load(dir_.string(), english.variant());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("checksum"), std::string::npos);

  // Truncated.
  std::filesystem::resize_file(*path, 90);
  EXPECT_FALSE(Database::Load(dir_.string(), english.variant()).ok());
  // Not a database at all.
  std::ofstream(*path, std::ios::trunc) << "hello";
  EXPECT_FALSE(Database::Load(dir_.string(), english.variant()).ok());
}

TEST_F(EgdbFiles, RegistryLoadsOncePerFamilyAndExplainsAbsence) {
  const Database& english = testing::English();
  ASSERT_TRUE(WriteSlice(dir_.string(), english.variant(), *english.FindSlice({0, 1, 0, 1})).ok());
  Registry registry(dir_.string());
  const Database* a = registry.For(english.variant());
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, registry.For(english.variant()));
  EXPECT_EQ(registry.For(testing::VariantOrDie("international")), nullptr);
  EXPECT_NE(registry.Problem(testing::VariantOrDie("international")), "");
  EXPECT_EQ(registry.For(testing::VariantOrDie("turkish")), nullptr);
  EXPECT_NE(registry.Problem(testing::VariantOrDie("turkish")).find("diagonal"), std::string::npos);
}

}  // namespace
}  // namespace draughts::egdb
