#include "egdb/file_format.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "egdb/family.h"

namespace draughts::egdb {
namespace {

constexpr char kMagic[8] = {'D', 'R', 'G', 'E', 'G', 'D', 'B', '\0'};
constexpr std::size_t kHeaderSize = 80;
constexpr std::size_t kFamilyBytes = 32;

std::uint64_t Fnv1a(const std::array<std::vector<std::uint8_t>, 2>& codes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& side : codes) {
    for (std::uint8_t byte : side) {
      h ^= byte;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

void Put(unsigned char* at, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<unsigned char>(value >> (8 * i));
}
std::uint64_t Get(const unsigned char* at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(at[i]) << (8 * i);
  return v;
}

}  // namespace

std::string SliceFileName(const Signature& signature) {
  return signature.Name() + ".egdb";
}

std::string FamilyDirectory(const std::string& directory, const rules::Variant& variant) {
  return (std::filesystem::path(directory) / FamilyId(variant)).string();
}

rules::Result<std::string> WriteSlice(const std::string& directory, const rules::Variant& variant,
                                      const Slice& slice) {
  const std::filesystem::path dir = FamilyDirectory(directory, variant);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return rules::MakeError("cannot create " + dir.string() + ": " + ec.message());

  unsigned char header[kHeaderSize] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  Put(header + 8, kFormatVersion, 4);
  Put(header + 12, static_cast<std::uint64_t>(rules::BoardDimension(variant.board)), 4);
  Put(header + 16, RulesKey(variant), 8);
  const std::string family = FamilyId(variant);
  std::memcpy(header + 24, family.data(), std::min(family.size(), kFamilyBytes - 1));
  const Signature& s = slice.shape.signature;
  header[56] = static_cast<unsigned char>(s.white_men);
  header[57] = static_cast<unsigned char>(s.white_kings);
  header[58] = static_cast<unsigned char>(s.black_men);
  header[59] = static_cast<unsigned char>(s.black_kings);
  Put(header + 64, slice.shape.size, 8);
  Put(header + 72, Fnv1a(slice.codes), 8);

  const std::filesystem::path path = dir / SliceFileName(s);
  const std::filesystem::path partial = path.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(header), kHeaderSize);
    for (const auto& side : slice.codes)
      out.write(reinterpret_cast<const char*>(side.data()),
                static_cast<std::streamsize>(side.size()));
    if (!out) return rules::MakeError("cannot write " + partial.string());
  }
  // A reader never sees a half-written slice.
  std::filesystem::rename(partial, path, ec);
  if (ec) return rules::MakeError("cannot rename " + partial.string() + ": " + ec.message());
  return path.string();
}

rules::Result<Slice> ReadSlice(const std::string& path, const rules::Variant& variant) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return rules::MakeError("cannot open " + path);
  unsigned char header[kHeaderSize];
  if (!in.read(reinterpret_cast<char*>(header), kHeaderSize))
    return rules::MakeError(path + ": too short for a header");
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0)
    return rules::MakeError(path + ": not an endgame database file");
  if (Get(header + 8, 4) != kFormatVersion)
    return rules::MakeError(path + ": format version " + std::to_string(Get(header + 8, 4)) +
                            ", expected " + std::to_string(kFormatVersion));
  if (Get(header + 12, 4) != static_cast<std::uint64_t>(rules::BoardDimension(variant.board)) ||
      Get(header + 16, 8) != RulesKey(variant)) {
    return rules::MakeError(path + ": built for other rules than " + std::string(variant.id));
  }
  const Signature s{header[56], header[57], header[58], header[59]};
  if (s.pieces() < 2 || s.pieces() > Database::kMaxPieces || !s.IsCanonical() ||
      s.white_men + s.white_kings == 0 || s.black_men + s.black_kings == 0) {
    return rules::MakeError(path + ": bad piece signature");
  }
  const int squares = rules::SquareCount(variant.board);
  Slice slice{SliceShape(s, squares, rules::SquaresPerRow(variant.board)), {}};
  if (Get(header + 64, 8) != slice.shape.size)
    return rules::MakeError(path + ": size does not match its signature");
  for (auto& side : slice.codes) {
    side.resize(slice.shape.size);
    if (!in.read(reinterpret_cast<char*>(side.data()), static_cast<std::streamsize>(side.size())))
      return rules::MakeError(path + ": truncated");
  }
  if (Fnv1a(slice.codes) != Get(header + 72, 8))
    return rules::MakeError(path + ": checksum mismatch (damaged file)");
  return slice;
}

}  // namespace draughts::egdb
