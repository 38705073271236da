#pragma once

// The databases a process uses: loaded from one directory on first use,
// one Database per family, shared by every engine of the process (a
// Database is immutable). Thread-safe.
//
// The engine takes the registry of the DRAUGHTS_EGDB_DIR environment
// variable by default (FromEnvironment), so a bot or a Hub engine uses the
// databases when that variable names a directory built by scripts/build-egdb.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "egdb/database.h"

namespace draughts::egdb {

class Registry {
 public:
  // Databases under `directory` (empty: none, only those added with Add),
  // slices of at most `max_pieces` pieces.
  explicit Registry(std::string directory, int max_pieces = Database::kMaxPieces);

  // The databases of the variant's family, or null: unsupported rules, no
  // files, or a damaged file (then Problem() says why).
  const Database* For(const rules::Variant& variant);
  // Why For returned null for this variant ("" when it did not).
  std::string Problem(const rules::Variant& variant);

  // Uses `db` for its family (tests, or databases built in memory).
  void Add(Database db);

  // The registry of $DRAUGHTS_EGDB_DIR, the same one on every call; null
  // when the variable is unset or empty. $DRAUGHTS_EGDB_PIECES, when set,
  // caps the pieces of the slices loaded (memory, see Database::Load).
  static std::shared_ptr<Registry> FromEnvironment();

 private:
  struct Entry {
    std::unique_ptr<const Database> db;
    std::string problem;
  };
  Entry& Find(const rules::Variant& variant);

  std::string directory_;
  int max_pieces_;
  std::mutex mutex_;
  std::map<std::string, Entry> families_;
};

}  // namespace draughts::egdb
