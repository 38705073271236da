#include "gateway/static_files.h"

#include <fstream>
#include <iterator>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "gateway/error_mapping.h"

namespace draughts::gateway {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = absl::ascii_tolower(static_cast<unsigned char>(c));
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Files larger than this are not part of a web client; refusing them keeps
// a misconfigured root from streaming gigabytes through memory.
constexpr std::uintmax_t kMaxFileBytes = 8 * 1024 * 1024;

}  // namespace

absl::StatusOr<std::string> PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) {
      return absl::InvalidArgumentError("truncated percent escape");
    }
    const int high = HexValue(text[i + 1]);
    const int low = HexValue(text[i + 2]);
    if (high < 0 || low < 0) return absl::InvalidArgumentError("bad percent escape");
    out.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return out;
}

absl::StatusOr<std::filesystem::path> ResolveStaticPath(const std::filesystem::path& root,
                                                        std::string_view url_path) {
  const absl::Status not_found = absl::NotFoundError("no such file");
  if (url_path.empty() || url_path[0] != '/') return not_found;
  absl::StatusOr<std::string> decoded = PercentDecode(url_path);
  if (!decoded.ok()) return not_found;
  std::filesystem::path result = root;
  bool directory = decoded->back() == '/';
  for (absl::string_view segment : absl::StrSplit(*decoded, '/', absl::SkipEmpty())) {
    // ".." climbs out, "." and dot files are never part of the client, and
    // NUL / backslash / colon have other meanings on some file systems.
    if (segment[0] == '.') return not_found;
    for (char c : segment) {
      if (c == '\0' || c == '\\' || c == ':' || static_cast<unsigned char>(c) < 0x20) {
        return not_found;
      }
    }
    result /= std::string(segment);
  }
  if (directory || result == root) result /= "index.html";
  return result;
}

std::string_view ContentTypeFor(const std::filesystem::path& file) {
  const std::string ext = absl::AsciiStrToLower(file.extension().string());
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".webmanifest") return "application/manifest+json";
  return "application/octet-stream";
}

HttpResponse StaticFiles::Serve(std::string_view url_path) const {
  const HttpResponse not_found = ErrorResponse(absl::NotFoundError("no such page"));
  absl::StatusOr<std::filesystem::path> path = ResolveStaticPath(root_, url_path);
  if (!path.ok()) return not_found;
  std::error_code error;
  if (std::filesystem::is_directory(*path, error)) *path /= "index.html";
  if (!std::filesystem::is_regular_file(*path, error)) return not_found;
  const std::uintmax_t size = std::filesystem::file_size(*path, error);
  if (error || size > kMaxFileBytes) return not_found;
  HttpResponse response;
  response.content_type = std::string(ContentTypeFor(*path));
  response.headers.emplace_back("Cache-Control", "no-cache");
  std::ifstream in(*path, std::ios::binary);
  if (!in) return not_found;
  response.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return response;
}

}  // namespace draughts::gateway
