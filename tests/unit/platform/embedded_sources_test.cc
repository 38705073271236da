// Sources compiled in by CMake: draughts_embed_migrations (files become
// version, name, exact SQL bytes) and draughts_embed_lua (each
// lua/<snake_name>.lua becomes k<CamelName>Lua with the file's exact text).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platform/pg_migrations.h"
#include "platform_test/lua_scripts.h"

namespace draughts::platform::embedded_test {
std::vector<Migration> FixtureMigrations();
}  // namespace draughts::platform::embedded_test

namespace draughts::platform {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(EmbeddedMigrationsTest, FilesBecomeOrderedMigrationsWithExactSql) {
  std::vector<Migration> migrations = embedded_test::FixtureMigrations();
  ASSERT_EQ(migrations.size(), 2u);
  EXPECT_EQ(migrations[0].version, 1);
  EXPECT_EQ(migrations[0].name, "create_a");
  EXPECT_EQ(migrations[0].sql, ReadFile(DRAUGHTS_MIGRATIONS_DIR "/0001_create_a.sql"));
  EXPECT_NE(migrations[0].sql.find("é"), std::string::npos);
  EXPECT_EQ(migrations[1].version, 10);
  EXPECT_EQ(migrations[1].name, "fill");
  EXPECT_EQ(migrations[1].sql, ReadFile(DRAUGHTS_MIGRATIONS_DIR "/0010_fill.sql"));
  EXPECT_TRUE(ValidateMigrations(migrations).ok());
}

TEST(EmbeddedLuaTest, ScriptsBecomeConstantsWithExactText) {
  EXPECT_EQ(embedded_test::lua::kTakeJobLua, ReadFile(DRAUGHTS_LUA_DIR "/take_job.lua"));
  EXPECT_EQ(embedded_test::lua::kPingLua, ReadFile(DRAUGHTS_LUA_DIR "/ping.lua"));
  EXPECT_NE(embedded_test::lua::kTakeJobLua.find("]]"), std::string_view::npos);
}

TEST(EmbeddedLuaTest, TheGuardIsTheOneAsked) {
#ifndef DRAUGHTS_PLATFORM_TEST_LUA_H_
  FAIL() << "GUARD was not used";
#endif
}

}  // namespace
}  // namespace draughts::platform
