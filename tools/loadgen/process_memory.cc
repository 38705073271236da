#include "loadgen/process_memory.h"

#include <fstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace draughts::loadgen {

absl::StatusOr<int64_t> ResidentBytes(int pid) {
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  if (!status) return absl::NotFoundError(absl::StrCat("no process ", pid));
  std::string line;
  while (std::getline(status, line)) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "VmRSS:")) continue;
    rest = absl::StripAsciiWhitespace(rest);
    absl::ConsumeSuffix(&rest, "kB");
    int64_t kib = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &kib)) break;
    return kib * 1024;
  }
  return absl::InternalError(absl::StrCat("/proc/", pid, "/status has no readable VmRSS"));
}

}  // namespace draughts::loadgen
