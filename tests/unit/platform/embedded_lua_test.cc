// draughts_embed_lua: each lua/<snake_name>.lua becomes k<CamelName>Lua in
// the given namespace, with the file's exact bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "platform_test/lua_scripts.h"

namespace draughts::platform {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
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
