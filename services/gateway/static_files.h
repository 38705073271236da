// The web client's files under --web-root. A URL path maps to a file only if
// it stays inside the root: percent-decoded, no "..", no NUL or backslash,
// no hidden (dot) segments. "/" and directories serve their index.html.
#ifndef DRAUGHTS_GATEWAY_STATIC_FILES_H_
#define DRAUGHTS_GATEWAY_STATIC_FILES_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "gateway/http_types.h"

namespace draughts::gateway {

// "%41" -> "A"; malformed escapes are INVALID_ARGUMENT.
absl::StatusOr<std::string> PercentDecode(std::string_view text);

// The path under `root` that `url_path` names, or NOT_FOUND for anything
// that could leave the root or is not a plain relative path. Does not
// touch the file system.
absl::StatusOr<std::filesystem::path> ResolveStaticPath(const std::filesystem::path& root,
                                                        std::string_view url_path);

// Content-Type by extension (.html .js .mjs .css .svg .png .json .ico .txt
// .webmanifest); application/octet-stream otherwise.
std::string_view ContentTypeFor(const std::filesystem::path& file);

class StaticFiles {
 public:
  explicit StaticFiles(std::filesystem::path root) : root_(std::move(root)) {}

  // 200 with the file, or a 404 JSON error.
  HttpResponse Serve(std::string_view url_path) const;

 private:
  std::filesystem::path root_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_STATIC_FILES_H_
