#include "egdb/database.h"

#include <algorithm>
#include <filesystem>

#include "egdb/family.h"
#include "egdb/file_format.h"
#include "rules/layout.h"

namespace draughts::egdb {
namespace {

// Whether a slice file's name ("2m1k-1m0k.egdb") counts at most `max_pieces`
// pieces, so that bigger slices are not even read.
bool SliceFileWithin(const std::string& path, int max_pieces) {
  int pieces = 0;
  int number = 0;
  for (char c : std::filesystem::path(path).stem().string()) {
    if (c >= '0' && c <= '9') {
      number = number * 10 + (c - '0');
    } else {
      pieces += number;
      number = 0;
    }
  }
  return pieces <= max_pieces;
}

}  // namespace

Database::Database(const rules::Variant& variant) : variant_(variant), family_(FamilyId(variant)) {
  lookup_.fill(-1);
}

rules::Result<Database> Database::Load(const std::string& directory, const rules::Variant& variant,
                                       int max_pieces) {
  if (auto why = Unsupported(variant)) return rules::MakeError(*why);
  Database db(variant);
  const std::filesystem::path dir = FamilyDirectory(directory, variant);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return rules::MakeError("no endgame databases for " + db.family_ + " in " + directory);
  }
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".egdb") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  for (const std::string& path : paths) {
    if (!SliceFileWithin(path, max_pieces)) continue;
    auto slice = ReadSlice(path, variant);
    if (!slice.ok()) return slice.error();
    if (slice->shape.signature.pieces() > kMaxPieces) continue;
    db.AddSlice(std::move(slice).value());
  }
  if (db.slices_.empty()) {
    return rules::MakeError("no endgame database files in " + dir.string());
  }
  return db;
}

const Slice* Database::FindSlice(Signature canonical) const {
  if (canonical.pieces() > kMaxPieces || !canonical.IsCanonical()) return nullptr;
  return Lookup(canonical);
}

void Database::AddSlice(Slice slice) {
  const int key = Key(slice.shape.signature);
  if (lookup_[key] >= 0) {
    slices_[static_cast<std::size_t>(lookup_[key])] = std::move(slice);
  } else {
    lookup_[key] = static_cast<int>(slices_.size());
    slices_.push_back(std::move(slice));
  }
  UpdateCompleteness();
}

void Database::UpdateCompleteness() {
  complete_pieces_ = 0;
  for (int n = 2; n <= kMaxPieces; ++n) {
    for (const Signature& s : CanonicalSignatures(n)) {
      if (s.pieces() == n && !Lookup(s)) return;
    }
    complete_pieces_ = n;
  }
}

std::optional<Value> Database::Probe(const rules::Position& position) const {
  if (position.board() != variant_.board) return std::nullopt;
  const bool white = position.side_to_move() == rules::Color::kWhite;
  std::uint8_t c = code::kUnknown;
  if (variant_.board == rules::BoardSize::k8x8) {
    c = ProbeCode<rules::Layout8>(rules::internal::Board<rules::Layout8>::FromPosition(position),
                                  white);
  } else {
    c = ProbeCode<rules::Layout10>(rules::internal::Board<rules::Layout10>::FromPosition(position),
                                   white);
  }
  return code::Decode(c);
}

}  // namespace draughts::egdb
