#pragma once

// The endgame databases of one family (family.h), in memory: the solved
// slices, each one byte per position and side to move (value.h), and the
// probe. Probing is exact for every position whose slice is loaded,
// positions with captures included, and costs a few table lookups.
//
//   auto db = egdb::Database::Load("/work/data/egdb", variant);
//   if (db.ok()) if (auto v = db->Probe(position)) ... v->wdl, v->plies
//
// A Database is immutable once loaded, so one may be shared by threads.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egdb/slice.h"
#include "egdb/value.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::egdb {

struct Slice {
  SliceShape shape;
  // Indexed by side to move: [0] White, [1] Black.
  std::array<std::vector<std::uint8_t>, 2> codes;
};

class Database {
 public:
  // An empty database for this rule set. Precondition: !Unsupported(variant).
  explicit Database(const rules::Variant& variant);

  // Every slice file of the variant's family under directory/<family>/ of
  // at most `max_pieces` pieces (memory: 8x8 six-piece slices take 4 GB);
  // an error when there is none or a file is damaged or for other rules.
  static rules::Result<Database> Load(const std::string& directory, const rules::Variant& variant,
                                      int max_pieces = kMaxPieces);

  const rules::Variant& variant() const { return variant_; }
  const std::string& family() const { return family_; }
  // Every slice of at most this many pieces is loaded (0: not even 2).
  int complete_pieces() const { return complete_pieces_; }
  std::size_t slice_count() const { return slices_.size(); }
  const Slice* FindSlice(Signature canonical) const;

  // Adds a solved slice (canonical signature), replacing one already there.
  void AddSlice(Slice slice);

  // Exact value of `position` (side to move's view), nullopt when its
  // slice is not loaded or it is not a position of this rule set's board.
  std::optional<Value> Probe(const rules::Position& position) const;

  // The stored byte for a board of layout L (8x8 or 10x10, as the
  // variant's), or code::kUnknown when its slice is not loaded. A side to
  // move without pieces has lost (code::Loss(0)).
  template <class L>
  std::uint8_t ProbeCode(const rules::internal::Board<L>& board, bool white_to_move) const {
    using Ix = Indexing<L>;
    if ((white_to_move ? board.white : board.black) == 0) return code::Loss(0);
    if ((white_to_move ? board.black : board.white) == 0) return code::Win(0);
    Signature s = Ix::SignatureOf(board);
    if (s.pieces() > kMaxPieces) return code::kUnknown;
    const Slice* slice;
    std::uint64_t index;
    if (s.IsCanonical()) {
      slice = Lookup(s);
      if (!slice) return code::kUnknown;
      index = Ix::Index(slice->shape, board);
    } else {
      slice = Lookup(s.Mirrored());
      if (!slice) return code::kUnknown;
      index = Ix::Index(slice->shape, Ix::Mirror(board));
      white_to_move = !white_to_move;
    }
    return slice->codes[white_to_move ? 0 : 1][index];
  }

  static constexpr int kMaxPieces = 7;

 private:
  const Slice* Lookup(const Signature& s) const {
    const int at = lookup_[Key(s)];
    return at < 0 ? nullptr : &slices_[static_cast<std::size_t>(at)];
  }
  static int Key(const Signature& s) {
    return ((s.white_men * 8 + s.white_kings) * 8 + s.black_men) * 8 + s.black_kings;
  }
  void UpdateCompleteness();

  rules::Variant variant_;
  std::string family_;
  std::vector<Slice> slices_;
  std::array<int, 8 * 8 * 8 * 8> lookup_;
  int complete_pieces_ = 0;
};

}  // namespace draughts::egdb
