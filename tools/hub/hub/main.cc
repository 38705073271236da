// hub: the draughts engine as a Hub protocol (version 2) program on
// standard input and output, for draughts GUIs and match runners.
//
//   $ hub
//   hub
//   id name=draughts-hub version=1.0 author="draughts platform" country=none
//   param name=variant value=international type=enum values="international ..."
//   ...
//   wait
//
// See hub/engine_session.h for the commands and parameters. End of input
// counts as "quit", as the protocol asks.

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

#include "hub/engine_session.h"

int main() {
  draughts::hub::EngineSession session([](std::string_view line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  });
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!session.HandleLine(line)) break;
  }
  session.StopSearch();
  return 0;
}
