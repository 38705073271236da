#include "rules/perft.h"

#include <bit>
#include <memory>

#include "rules/movegen.h"
#include "rules/movegen_impl.h"
#include "rules/zobrist.h"

namespace draughts::rules {
namespace {

using internal::Apply;
using internal::Board;
using internal::CompactMove;
using internal::CompactSink;
using internal::Generator;
using internal::MoveBuffer;
using internal::RuleFlags;

// Subtree counts keyed by Zobrist hash and depth; always-replace, one entry
// per slot. The full 64-bit key is compared, so a wrong count would need
// two positions with the same 64-bit hash at the same depth.
class CountTable {
 public:
  explicit CountTable(std::size_t bytes) {
    std::size_t entries = std::bit_floor(std::max<std::size_t>(bytes / sizeof(Entry), 1));
    entries_ = std::make_unique<Entry[]>(entries);
    mask_ = entries - 1;
  }
  bool Find(std::uint64_t key, std::uint64_t& count) const {
    const Entry& e = entries_[key & mask_];
    if (e.key != key || e.count == 0) return false;
    count = e.count;
    return true;
  }
  void Store(std::uint64_t key, std::uint64_t count) { entries_[key & mask_] = {key, count}; }

  // Mixes the remaining depth into a position's key.
  static std::uint64_t WithDepth(std::uint64_t key, int depth) {
    return key ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(depth + 1));
  }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint64_t count = 0;
  };
  std::unique_ptr<Entry[]> entries_;
  std::size_t mask_ = 0;
};

template <class L>
class Perfter {
 public:
  using Bits = typename L::Bits;
  Perfter(const RuleFlags& rules, int depth, CountTable* table)
      : rules_(rules), buffers_(std::make_unique<MoveBuffer<L>[]>(depth + 1)), table_(table) {}

  template <bool kWhite>
  std::uint64_t Run(const Board<L>& b, std::uint64_t key, int depth) {
    if (depth <= 0) return 1;
    if (table_) return Count<kWhite, true>(b, key, depth);
    return Count<kWhite, false>(b, key, depth);
  }

 private:
  template <bool kWhite, bool kHashed>
  std::uint64_t Count(const Board<L>& b, std::uint64_t key, int depth) {
    Generator<L, kWhite> gen(b, rules_);
    MoveBuffer<L>& moves = buffers_[depth];
    moves.clear();
    CompactSink<L> sink(moves, rules_);
    if (depth == 1) {  // bulk counting: no move is played at the last ply
      if (!gen.HasCapture()) return gen.CountQuiet();
      gen.Captures(sink);
      return moves.size() + (rules_.mandatory_capture ? 0 : gen.CountQuiet());
    }
    std::uint64_t table_key = 0;
    if constexpr (kHashed) {
      table_key = CountTable::WithDepth(key, depth);
      std::uint64_t cached;
      if (table_->Find(table_key, cached)) return cached;
    }
    gen.All(sink);
    std::uint64_t total = 0;
    for (const CompactMove<L>& m : moves) {
      const std::uint64_t child_key = kHashed ? key ^ MoveKey<kWhite>(b, m) : 0;
      total += Count<!kWhite, kHashed>(Apply<L, kWhite>(b, m), child_key, depth - 1);
    }
    if constexpr (kHashed) table_->Store(table_key, total);
    return total;
  }

  // The change of the Zobrist hash made by playing m.
  template <bool kWhite>
  static std::uint64_t MoveKey(const Board<L>& b, const CompactMove<L>& m) {
    constexpr Color us = kWhite ? Color::kWhite : Color::kBlack;
    constexpr Color them = Opponent(us);
    const PieceKind before = m.by_king ? PieceKind::kKing : PieceKind::kMan;
    const PieceKind after = m.by_king || m.promotes ? PieceKind::kKing : PieceKind::kMan;
    std::uint64_t k = kZobrist.black_to_move ^
                      kZobrist.piece[ZobristPiece(us, before)][LowestBit(m.from)] ^
                      kZobrist.piece[ZobristPiece(us, after)][LowestBit(m.to)];
    Bits captured = m.captured;
    while (captured) {
      const int bit = LowestBit(captured);
      captured &= captured - 1;
      const PieceKind kind = ((b.kings >> bit) & 1) ? PieceKind::kKing : PieceKind::kMan;
      k ^= kZobrist.piece[ZobristPiece(them, kind)][bit];
    }
    return k;
  }

  const RuleFlags rules_;
  std::unique_ptr<MoveBuffer<L>[]> buffers_;
  CountTable* table_;
};

std::uint64_t PerftWithTable(const Variant& variant, const Position& position, int depth,
                             CountTable* table) {
  if (depth <= 0) return 1;
  if (position.board() != variant.board || CheckVariant(variant)) return 0;
  const RuleFlags rules = RuleFlags::From(variant);
  return internal::WithLayout(position.board(), [&]<class L>() {
    // Depths 1 and 2 gain nothing from the table (bulk counting).
    Perfter<L> perfter(rules, depth, depth >= 3 ? table : nullptr);
    const Board<L> board = Board<L>::FromPosition(position);
    if (position.side_to_move() == Color::kWhite)
      return perfter.template Run<true>(board, position.hash(), depth);
    return perfter.template Run<false>(board, position.hash(), depth);
  });
}

std::unique_ptr<CountTable> MakeTable(const PerftOptions& options) {
  if (options.hash_bytes == 0) return nullptr;
  return std::make_unique<CountTable>(options.hash_bytes);
}

}  // namespace

std::uint64_t Perft(const Variant& variant, const Position& position, int depth,
                    const PerftOptions& options) {
  const auto table = depth >= 3 ? MakeTable(options) : nullptr;
  return PerftWithTable(variant, position, depth, table.get());
}

std::vector<PerftDivideEntry> PerftDivide(const Variant& variant, const Position& position,
                                          int depth, const PerftOptions& options) {
  std::vector<PerftDivideEntry> entries;
  if (depth < 1) return entries;
  const auto table = depth >= 4 ? MakeTable(options) : nullptr;  // shared: subtrees transpose
  for (const Move& m : LegalMoves(variant, position))
    entries.push_back({m, PerftWithTable(variant, position.Play(m), depth - 1, table.get())});
  return entries;
}

}  // namespace draughts::rules
