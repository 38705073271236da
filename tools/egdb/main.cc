// egdb build  --variant=ID --pieces=N [--out=DIR]
// egdb probe  --variant=ID --fen=FEN [--dir=DIR]
// egdb verify --variant=ID [--dir=DIR] [--pieces=N] [--stride=K]
// egdb families
//
// build solves every slice of up to N pieces that DIR lacks (slices already
// there are loaded and reused), writing one file per slice and printing,
// per slice, its positions, wins, draws, losses, longest distance and
// time. probe prints the value of a position and of each legal move.
// verify checks every K-th position of each slice against its successors.
// families lists every built-in rule set with the family whose databases
// it uses, or why it has none.
// DIR defaults to $DRAUGHTS_EGDB_DIR, then /work/data/egdb.
// Exit status: 0 done, 1 failed (or verify found errors), 2 bad usage.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "egdb/database.h"
#include "egdb/family.h"
#include "egdb/file_format.h"
#include "egdb/solver.h"
#include "egdb/verify.h"
#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"

namespace {

using namespace draughts;

struct Flags {
  std::string command;
  std::string variant = "english";
  int pieces = 0;
  std::string dir;
  std::string fen;
  long stride = 1;
};

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "egdb: %s\nusage: egdb build --variant=ID --pieces=N [--out=DIR]\n"
               "       egdb probe --variant=ID --fen=FEN [--dir=DIR]\n"
               "       egdb verify --variant=ID [--dir=DIR] [--pieces=N] [--stride=K]\n"
               "       egdb families\n",
               problem.c_str());
  return 2;
}

std::string DefaultDir() {
  const char* env = std::getenv("DRAUGHTS_EGDB_DIR");
  return env != nullptr && *env != '\0' ? env : "/work/data/egdb";
}

const char* WdlName(egdb::Wdl w) {
  return w == egdb::Wdl::kWin ? "win" : w == egdb::Wdl::kLoss ? "loss" : "draw";
}

std::string Describe(const std::optional<egdb::Value>& v) {
  if (!v) return "unknown (not in the loaded databases)";
  std::string s = WdlName(v->wdl);
  if (v->wdl != egdb::Wdl::kDraw) s += " (" + std::to_string(v->plies) + " plies to conversion)";
  return s;
}

int Build(const rules::Variant& variant, const Flags& flags) {
  if (flags.pieces < 2 || flags.pieces > egdb::Database::kMaxPieces)
    return Usage("--pieces must be 2.." + std::to_string(egdb::Database::kMaxPieces));
  egdb::Database db(variant);
  if (auto existing = egdb::Database::Load(flags.dir, variant); existing.ok()) {
    db = std::move(existing).value();
    std::printf("loaded %zu existing slices from %s\n", db.slice_count(),
                egdb::FamilyDirectory(flags.dir, variant).c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  std::printf("%-12s %14s %14s %14s %14s %6s %9s\n", "slice", "positions", "wins", "draws",
              "losses", "plies", "seconds");
  std::uint64_t total = 0;
  auto saved = egdb::SolveUpTo(
      db, flags.pieces,
      [&](const egdb::Slice& slice, const egdb::SliceReport& r) -> rules::Result<bool> {
        auto path = egdb::WriteSlice(flags.dir, variant, slice);
        if (!path.ok()) return path.error();
        total += r.positions;
        std::printf("%-12s %14llu %14llu %14llu %14llu %6d %9.2f\n", r.signature.Name().c_str(),
                    static_cast<unsigned long long>(r.positions),
                    static_cast<unsigned long long>(r.wins),
                    static_cast<unsigned long long>(r.draws),
                    static_cast<unsigned long long>(r.losses), r.max_plies, r.seconds);
        std::fflush(stdout);
        return true;
      });
  if (!saved.ok()) {
    std::fprintf(stderr, "egdb: %s\n", saved.error().message.c_str());
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("built %zu slices, %llu positions, in %.1f s (%s, up to %d pieces)\n", saved->size(),
              static_cast<unsigned long long>(total), seconds, db.family().c_str(), flags.pieces);
  return 0;
}

int Probe(const rules::Variant& variant, const Flags& flags) {
  auto position = rules::ParseFen(variant, flags.fen);
  if (!position.ok()) return Usage("bad --fen: " + position.error().ToString());
  auto db = egdb::Database::Load(flags.dir, variant);
  if (!db.ok()) {
    std::fprintf(stderr, "egdb: %s\n", db.error().message.c_str());
    return 1;
  }
  std::printf("%s: %s\n", rules::FormatFen(*position).c_str(),
              Describe(db->Probe(*position)).c_str());
  for (const rules::Move& m : rules::LegalMoves(variant, *position)) {
    auto after = db->Probe(position->Play(m));
    if (after) after->wdl = egdb::Flip(after->wdl);
    std::printf("  %-10s %s\n", rules::FormatMove(variant, *position, m).c_str(),
                Describe(after).c_str());
  }
  return 0;
}

int Verify(const rules::Variant& variant, const Flags& flags) {
  auto db = egdb::Database::Load(flags.dir, variant);
  if (!db.ok()) {
    std::fprintf(stderr, "egdb: %s\n", db.error().message.c_str());
    return 1;
  }
  const int pieces = flags.pieces > 0 ? flags.pieces : egdb::Database::kMaxPieces;
  std::uint64_t checked = 0, failed = 0;
  for (const egdb::Signature& s : egdb::CanonicalSignatures(pieces)) {
    if (!db->FindSlice(s)) continue;
    auto report = egdb::VerifySlice(*db, s, static_cast<std::uint64_t>(flags.stride));
    if (!report.ok()) {
      std::fprintf(stderr, "egdb: %s\n", report.error().message.c_str());
      return 1;
    }
    checked += report->checked;
    failed += report->failure_count;
    std::printf("%-12s checked %llu, wrong %llu\n", s.Name().c_str(),
                static_cast<unsigned long long>(report->checked),
                static_cast<unsigned long long>(report->failure_count));
    for (const std::string& f : report->failures) std::printf("  %s\n", f.c_str());
  }
  std::printf("verified %llu positions, %llu wrong\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(failed));
  return failed == 0 ? 0 : 1;
}

bool ParseLong(std::string_view text, long& out) {
  if (text.empty() || text.size() > 12) return false;
  long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("missing command");
  Flags flags;
  flags.command = argv[1];
  if (flags.command == "families") {
    for (const rules::Variant& v : rules::AllVariants()) {
      const auto why = egdb::Unsupported(v);
      std::printf("%-16s %s\n", std::string(v.id).c_str(),
                  why ? ("none: " + *why).c_str() : egdb::FamilyId(v).c_str());
    }
    return 0;
  }
  flags.dir = DefaultDir();
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    if (arg.substr(0, 2) != "--" || eq == std::string_view::npos)
      return Usage("bad argument " + std::string(arg));
    const std::string_view name = arg.substr(2, eq - 2);
    const std::string_view value = arg.substr(eq + 1);
    long number = 0;
    if (name == "variant") {
      flags.variant = value;
    } else if (name == "out" || name == "dir") {
      flags.dir = value;
    } else if (name == "fen") {
      flags.fen = value;
    } else if (name == "pieces" && ParseLong(value, number) && number <= 100) {
      flags.pieces = static_cast<int>(number);
    } else if (name == "stride" && ParseLong(value, number) && number >= 1) {
      flags.stride = number;
    } else {
      return Usage("bad argument " + std::string(arg));
    }
  }
  auto variant = rules::FindVariant(flags.variant);
  if (!variant.ok()) return Usage(variant.error().message);
  if (auto why = egdb::Unsupported(*variant)) return Usage(*why);
  if (flags.command == "build") return Build(*variant, flags);
  if (flags.command == "probe") return Probe(*variant, flags);
  if (flags.command == "verify") return Verify(*variant, flags);
  return Usage("unknown command " + flags.command);
}
