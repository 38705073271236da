// The book file format (docs/OPENING_BOOK.md), little-endian throughout:
//
//   header   magic "DRBOOK\r\n" (8 bytes), version u16, variant id length u8
//            and bytes, playable squares u8, entry count u32, payload
//            length u32, FNV-1a 64 checksum of the payload u64
//   payload  entries in increasing key order, each: Zobrist key u64, side to
//            move u8 (0 White, 1 Black), the board as one nibble per
//            playable square, two squares a byte, square 1 in the low nibble
//            (0 empty, 1 white man, 2 black man, 3 white king, 4 black
//            king), move count u8, then per move: from u8, to u8, capture
//            count u8, that many landings and that many captured squares
//            (u8 each, in order), score i16 (centipawns, side to move).
//
// The key is recomputed from the board on reading and must match, so a
// file's positions and keys cannot disagree.

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/book.h"
#include "rules/fen.h"

namespace draughts::engine {
namespace {

constexpr char kMagic[8] = {'D', 'R', 'B', 'O', 'O', 'K', '\r', '\n'};
constexpr std::size_t kMaxMovesPerEntry = 255;

std::uint64_t Fnv1a64(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

class Writer {
 public:
  void U8(unsigned v) { out_.push_back(static_cast<char>(v & 0xff)); }
  void U16(unsigned v) {
    U8(v);
    U8(v >> 8);
  }
  void U32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(v >> (8 * i));
  }
  void U64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<unsigned>(v >> (8 * i)));
  }
  void Bytes(std::string_view bytes) { out_.append(bytes); }
  std::string& str() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool U8(unsigned& v) {
    if (pos_ >= in_.size()) return false;
    v = static_cast<unsigned char>(in_[pos_++]);
    return true;
  }
  bool U16(unsigned& v) {
    unsigned lo = 0;
    unsigned hi = 0;
    if (!U8(lo) || !U8(hi)) return false;
    v = lo | (hi << 8);
    return true;
  }
  bool U32(std::uint32_t& v) {
    v = 0;
    for (int i = 0; i < 4; ++i) {
      unsigned b = 0;
      if (!U8(b)) return false;
      v |= static_cast<std::uint32_t>(b) << (8 * i);
    }
    return true;
  }
  bool U64(std::uint64_t& v) {
    v = 0;
    for (int i = 0; i < 8; ++i) {
      unsigned b = 0;
      if (!U8(b)) return false;
      v |= static_cast<std::uint64_t>(b) << (8 * i);
    }
    return true;
  }
  bool Bytes(std::size_t n, std::string_view& out) {
    if (in_.size() - pos_ < n) return false;
    out = in_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  std::size_t offset() const { return pos_; }
  bool done() const { return pos_ == in_.size(); }

 private:
  std::string_view in_;
  std::size_t pos_ = 0;
};

unsigned Nibble(const std::optional<rules::SetupPiece>& piece) {
  if (!piece) return 0;
  const bool king = piece->kind == rules::PieceKind::kKing;
  const bool white = piece->color == rules::Color::kWhite;
  return (white ? 1u : 2u) + (king ? 2u : 0u);
}

void WriteEntry(Writer& w, const BookEntry& entry, int squares) {
  const rules::Position& p = entry.position;
  w.U64(p.hash());
  w.U8(p.side_to_move() == rules::Color::kWhite ? 0 : 1);
  for (int square = 1; square <= squares; square += 2) {
    const unsigned low = Nibble(p.PieceAt(square));
    const unsigned high = square + 1 <= squares ? Nibble(p.PieceAt(square + 1)) : 0;
    w.U8(low | (high << 4));
  }
  const std::size_t count = std::min(entry.moves.size(), kMaxMovesPerEntry);
  w.U8(static_cast<unsigned>(count));
  for (std::size_t i = 0; i < count; ++i) {
    const BookMove& m = entry.moves[i];
    w.U8(m.move.from);
    w.U8(m.move.to);
    w.U8(m.move.capture_count);
    for (int j = 0; j < m.move.capture_count; ++j) w.U8(m.move.landings[j]);
    for (int j = 0; j < m.move.capture_count; ++j) w.U8(m.move.captured[j]);
    const int score = std::clamp(m.score_cp, -32767, 32767);
    w.U16(static_cast<std::uint16_t>(static_cast<std::int16_t>(score)));
  }
}

rules::Error Corrupt(const std::string& why, std::size_t offset) {
  return rules::MakeError("corrupt opening book: " + why, offset);
}

rules::Result<BookEntry> ReadEntry(Reader& r, const rules::Variant& variant, int squares) {
  const std::size_t start = r.offset();
  std::uint64_t key = 0;
  unsigned side = 0;
  if (!r.U64(key) || !r.U8(side)) return Corrupt("truncated entry", start);
  if (side > 1) return Corrupt("side to move must be 0 or 1", start);
  rules::PositionSetup setup;
  setup.side_to_move = side == 0 ? rules::Color::kWhite : rules::Color::kBlack;
  for (int square = 1; square <= squares; square += 2) {
    unsigned byte = 0;
    if (!r.U8(byte)) return Corrupt("truncated board", start);
    for (int half = 0; half < 2; ++half) {
      const unsigned nibble = (byte >> (4 * half)) & 0xf;
      const int sq = square + half;
      if (nibble == 0) continue;
      if (nibble > 4 || sq > squares) return Corrupt("bad square code", start);
      setup.pieces.push_back(
          rules::SetupPiece{sq, nibble % 2 == 1 ? rules::Color::kWhite : rules::Color::kBlack,
                            nibble >= 3 ? rules::PieceKind::kKing : rules::PieceKind::kMan});
    }
  }
  rules::Result<rules::Position> position = rules::Position::FromSetup(variant, setup);
  if (!position.ok()) return Corrupt("bad position: " + position.error().message, start);
  if (position->hash() != key) return Corrupt("key does not match its position", start);
  BookEntry entry{*position, {}};
  unsigned count = 0;
  if (!r.U8(count)) return Corrupt("truncated entry", start);
  for (unsigned i = 0; i < count; ++i) {
    BookMove m;
    unsigned from = 0;
    unsigned to = 0;
    unsigned captures = 0;
    if (!r.U8(from) || !r.U8(to) || !r.U8(captures)) return Corrupt("truncated move", start);
    if (static_cast<int>(from) < 1 || static_cast<int>(from) > squares ||
        static_cast<int>(to) < 1 || static_cast<int>(to) > squares ||
        captures > static_cast<unsigned>(rules::Move::kMaxCaptures)) {
      return Corrupt("move off the board", start);
    }
    m.move.from = static_cast<std::uint8_t>(from);
    m.move.to = static_cast<std::uint8_t>(to);
    m.move.capture_count = static_cast<std::uint8_t>(captures);
    m.move.landings[0] = m.move.to;
    for (int pass = 0; pass < 2; ++pass) {
      for (unsigned j = 0; j < captures; ++j) {
        unsigned sq = 0;
        if (!r.U8(sq)) return Corrupt("truncated move", start);
        if (static_cast<int>(sq) < 1 || static_cast<int>(sq) > squares) {
          return Corrupt("move off the board", start);
        }
        (pass == 0 ? m.move.landings : m.move.captured)[j] = static_cast<std::uint8_t>(sq);
      }
    }
    if (captures > 0 && m.move.landings[captures - 1] != m.move.to) {
      return Corrupt("a capture's last landing is not its destination", start);
    }
    unsigned score = 0;
    if (!r.U16(score)) return Corrupt("truncated move", start);
    m.score_cp = static_cast<std::int16_t>(static_cast<std::uint16_t>(score));
    entry.moves.push_back(m);
  }
  return entry;
}

}  // namespace

std::string Book::Serialize() const {
  const int squares = rules::SquareCount(variant_.board);
  std::vector<const BookEntry*> entries = Entries();
  std::sort(entries.begin(), entries.end(), [](const BookEntry* a, const BookEntry* b) {
    if (a->position.hash() != b->position.hash()) {
      return a->position.hash() < b->position.hash();
    }
    return rules::FormatFen(a->position) < rules::FormatFen(b->position);
  });
  Writer payload;
  for (const BookEntry* entry : entries) WriteEntry(payload, *entry, squares);

  Writer file;
  file.Bytes(std::string_view(kMagic, sizeof kMagic));
  file.U16(kFormatVersion);
  file.U8(static_cast<unsigned>(variant_.id.size()));
  file.Bytes(variant_.id);
  file.U8(static_cast<unsigned>(squares));
  file.U32(static_cast<std::uint32_t>(entries.size()));
  file.U32(static_cast<std::uint32_t>(payload.str().size()));
  file.U64(Fnv1a64(payload.str()));
  file.Bytes(payload.str());
  return std::move(file.str());
}

rules::Result<Book> Book::Parse(std::string_view bytes) {
  Reader r(bytes);
  std::string_view magic;
  if (!r.Bytes(sizeof kMagic, magic) || magic != std::string_view(kMagic, sizeof kMagic)) {
    return rules::MakeError("not an opening book (bad magic)");
  }
  unsigned version = 0;
  unsigned id_length = 0;
  std::string_view id;
  unsigned squares = 0;
  std::uint32_t count = 0;
  std::uint32_t payload_length = 0;
  std::uint64_t checksum = 0;
  if (!r.U16(version)) return Corrupt("truncated header", r.offset());
  if (version != kFormatVersion) {
    return rules::MakeError("opening book format version " + std::to_string(version) +
                            " is not supported (this engine reads version " +
                            std::to_string(kFormatVersion) + ")");
  }
  if (!r.U8(id_length) || !r.Bytes(id_length, id) || !r.U8(squares) || !r.U32(count) ||
      !r.U32(payload_length) || !r.U64(checksum)) {
    return Corrupt("truncated header", r.offset());
  }
  rules::Result<rules::Variant> variant = rules::FindVariant(id);
  if (!variant.ok()) {
    return rules::MakeError("opening book for an unknown rule set: " + variant.error().message);
  }
  if (static_cast<int>(squares) != rules::SquareCount(variant->board)) {
    return Corrupt("the square count does not match " + std::string(id), r.offset());
  }
  const std::size_t payload_start = r.offset();
  if (bytes.size() - payload_start != payload_length) {
    return Corrupt("payload is " + std::to_string(bytes.size() - payload_start) +
                       " bytes, the header says " + std::to_string(payload_length),
                   payload_start);
  }
  if (Fnv1a64(bytes.substr(payload_start)) != checksum) {
    return Corrupt("checksum mismatch", payload_start);
  }
  Book book(*variant);
  for (std::uint32_t i = 0; i < count; ++i) {
    rules::Result<BookEntry> entry = ReadEntry(r, *variant, static_cast<int>(squares));
    if (!entry.ok()) return entry.error();
    if (book.Find(entry->position) != nullptr) {
      return Corrupt("a position appears twice", r.offset());
    }
    book.Add(entry->position, std::move(entry->moves));
  }
  if (!r.done()) return Corrupt("bytes after the last entry", r.offset());
  return book;
}

rules::Result<Book> Book::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return rules::MakeError(path + ": cannot open the opening book");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return rules::MakeError(path + ": cannot read the opening book");
  rules::Result<Book> book = Parse(bytes.str());
  if (!book.ok()) return rules::MakeError(path + ": " + book.error().ToString());
  return book;
}

std::optional<rules::Error> Book::Save(const std::string& path) const {
  const std::string bytes = Serialize();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return rules::MakeError(path + ": cannot write the opening book");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return rules::MakeError(path + ": cannot write the opening book");
  return std::nullopt;
}

}  // namespace draughts::engine
