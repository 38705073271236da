#include "loadgen/process_memory.h"

#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
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

absl::StatusOr<double> CpuSeconds(int pid) {
  std::ifstream stat(absl::StrCat("/proc/", pid, "/stat"));
  std::string line;
  if (!stat || !std::getline(stat, line))
    return absl::NotFoundError(absl::StrCat("no process ", pid));
  // The command name (field 2) may hold spaces: count fields after its ')'.
  const std::size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return absl::InternalError("unreadable /proc/<pid>/stat");
  std::vector<std::string> fields = absl::StrSplit(line.substr(name_end + 2), ' ');
  // utime and stime are fields 14 and 15, the 12th and 13th after the name.
  int64_t user = 0;
  int64_t system = 0;
  if (fields.size() < 13 || !absl::SimpleAtoi(fields[11], &user) ||
      !absl::SimpleAtoi(fields[12], &system)) {
    return absl::InternalError("unreadable /proc/<pid>/stat");
  }
  return static_cast<double>(user + system) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace draughts::loadgen
