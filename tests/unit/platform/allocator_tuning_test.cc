#include "platform/allocator_tuning.h"

#include <gtest/gtest.h>

#include <string>

namespace draughts::platform {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST(AllocatorTuningTest, MallocProviderNamesTheLibraryThatServesMalloc) {
  const std::string provider = MallocProvider();
  if (kAddressSanitizer) {
    // The sanitizer's runtime intercepts malloc: the glibc tunables would
    // not apply, and the re-execution is skipped for that reason.
    EXPECT_TRUE(provider.starts_with("libasan.")) << provider;
  } else {
    EXPECT_TRUE(provider.starts_with("libc.") || provider.starts_with("libjemalloc.")) << provider;
  }
}

}  // namespace
}  // namespace draughts::platform
