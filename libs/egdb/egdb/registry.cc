#include "egdb/registry.h"

#include <algorithm>
#include <cstdlib>

#include "egdb/family.h"

namespace draughts::egdb {

Registry::Registry(std::string directory, int max_pieces)
    : directory_(std::move(directory)), max_pieces_(max_pieces) {}

Registry::Entry& Registry::Find(const rules::Variant& variant) {
  const std::string family = FamilyId(variant);
  auto it = families_.find(family);
  if (it != families_.end()) return it->second;
  Entry entry;
  if (auto why = Unsupported(variant)) {
    entry.problem = *why;
  } else if (directory_.empty()) {
    entry.problem = "no endgame database directory";
  } else {
    auto db = Database::Load(directory_, variant, max_pieces_);
    if (db.ok()) {
      entry.db = std::make_unique<const Database>(std::move(db).value());
    } else {
      entry.problem = db.error().message;
    }
  }
  return families_.emplace(family, std::move(entry)).first->second;
}

const Database* Registry::For(const rules::Variant& variant) {
  std::lock_guard lock(mutex_);
  return Find(variant).db.get();
}

std::string Registry::Problem(const rules::Variant& variant) {
  std::lock_guard lock(mutex_);
  return Find(variant).problem;
}

void Registry::Add(Database db) {
  std::lock_guard lock(mutex_);
  Entry& entry = families_[db.family()];
  entry.db = std::make_unique<const Database>(std::move(db));
  entry.problem.clear();
}

std::shared_ptr<Registry> Registry::FromEnvironment() {
  static const std::shared_ptr<Registry> registry = []() -> std::shared_ptr<Registry> {
    const char* dir = std::getenv("DRAUGHTS_EGDB_DIR");
    if (dir == nullptr || *dir == '\0') return nullptr;
    int max_pieces = Database::kMaxPieces;
    if (const char* pieces = std::getenv("DRAUGHTS_EGDB_PIECES"); pieces != nullptr) {
      const int n = std::atoi(pieces);
      if (n >= 2) max_pieces = std::min(n, Database::kMaxPieces);
    }
    return std::make_shared<Registry>(dir, max_pieces);
  }();
  return registry;
}

}  // namespace draughts::egdb
