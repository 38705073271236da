#include "platform/allocator_tuning.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace draughts::platform {

std::string MallocProvider() {
  // The address a call to malloc reaches: the first library in the lookup
  // order that defines it.
  void* (*const reached)(std::size_t) = &std::malloc;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(reached), &info) == 0 || info.dli_fname == nullptr) return "";
  const std::string path = info.dli_fname;
  return path.substr(path.find_last_of('/') + 1);
}

void ReexecWithAllocatorTuning(char** argv) {
  // A sanitizer's runtime serves malloc too (from its library or, with
  // clang, the executable itself), so this also leaves sanitizers alone.
  if (argv == nullptr || argv[0] == nullptr || !MallocProvider().starts_with("libc.")) return;
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  const char* tuning = std::getenv("DRAUGHTS_ALLOCATOR_TUNING");
  if (tuning != nullptr && std::strcmp(tuning, "off") == 0) return;
  if (setenv("GLIBC_TUNABLES", kAllocatorTunables, /*overwrite=*/0) != 0) return;
  // Through the binary's own path, not /proc/self/exe, so the process keeps
  // its name (ps, top, perf would show "exe").
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length > 0) {
    path[length] = '\0';
    execv(path, argv);
  }
  execv("/proc/self/exe", argv);
  // Not replaced: carry on untuned, without leaving the variable to children.
  unsetenv("GLIBC_TUNABLES");
}

}  // namespace draughts::platform
