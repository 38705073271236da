#pragma once

// Small databases solved once per test binary (they take well under a
// second in Release) and FEN helpers.

#include <string_view>

#include <gtest/gtest.h>

#include "egdb/database.h"
#include "egdb/solver.h"
#include "rules/fen.h"
#include "rules/variant.h"

namespace draughts::egdb::testing {

inline rules::Variant VariantOrDie(std::string_view id) {
  auto v = rules::FindVariant(id);
  EXPECT_TRUE(v.ok());
  return *v;
}

// English up to 4 pieces.
inline const Database& English() {
  static const Database* db = [] {
    auto* d = new Database(VariantOrDie("english"));
    auto built = SolveUpTo(*d, 4);
    EXPECT_TRUE(built.ok()) << built.error().message;
    return d;
  }();
  return *db;
}

// International, kings only, up to three kings against one.
inline const Database& InternationalKings() {
  static const Database* db = [] {
    auto* d = new Database(VariantOrDie("international"));
    for (Signature s : {Signature{0, 1, 0, 1}, Signature{0, 2, 0, 1}, Signature{0, 3, 0, 1}}) {
      auto r = SolveSlice(*d, s);
      EXPECT_TRUE(r.ok()) << r.error().message;
    }
    return d;
  }();
  return *db;
}

inline std::optional<Value> ProbeFen(const Database& db, std::string_view fen) {
  auto position = rules::ParseFen(db.variant(), fen);
  EXPECT_TRUE(position.ok()) << fen;
  if (!position.ok()) return std::nullopt;
  return db.Probe(*position);
}

inline Wdl WdlOf(const Database& db, std::string_view fen) {
  auto v = ProbeFen(db, fen);
  EXPECT_TRUE(v.has_value()) << fen;
  return v ? v->wdl : Wdl::kDraw;
}

}  // namespace draughts::egdb::testing
