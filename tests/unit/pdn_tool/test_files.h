#pragma once

// The hand-made PDN files of data/, read whole.

#include <fstream>
#include <sstream>
#include <string>

namespace draughts::pdn_tool::testing {

inline std::string DataFile(const std::string& name) {
  std::ifstream in(std::string(PDN_TEST_DATA) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace draughts::pdn_tool::testing
