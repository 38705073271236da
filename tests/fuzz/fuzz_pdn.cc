// PDN: reading never crashes and errors point inside the input; what reads
// writes and reads back the same; each game replays through the rules or
// fails cleanly, and a replayed game survives record -> PDN -> record.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "rules/variant.h"

namespace {

using namespace draughts::rules;

bool SameMoves(const PdnGame& a, const PdnGame& b) {
  if (a.moves.size() != b.moves.size()) return false;
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    if (!(a.moves[i].move == b.moves[i].move) || a.moves[i].comment != b.moves[i].comment ||
        a.moves[i].text != b.moves[i].text) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Variant international = *FindVariant("international");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The recovering reader: every failure points inside the input, and the
  // strict reader fails exactly when it reports one.
  const PdnReadReport report = ReadPdnGames(text);
  for (const PdnProblem& failure : report.failures) FUZZ_CHECK(failure.offset <= size);
  for (const PdnProblem& note : report.notes) FUZZ_CHECK(note.offset <= size);
  auto games = ReadPdn(text);
  FUZZ_CHECK(games.ok() == report.failures.empty());
  if (!games.ok()) {
    FUZZ_CHECK(games.error().offset <= size);
    return 0;
  }
  const std::string written = WritePdn(*games);
  auto again = ReadPdn(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->size() == games->size());
  for (std::size_t g = 0; g < games->size(); ++g) {
    const PdnGame& a = (*games)[g];
    const PdnGame& b = (*again)[g];
    FUZZ_CHECK(SameMoves(a, b));
    FUZZ_CHECK(a.leading_comment == b.leading_comment);
    FUZZ_CHECK(a.result == b.result);
    for (const PdnTag& tag : a.tags) {
      const std::string* value = b.FindTag(tag.name);
      FUZZ_CHECK(value != nullptr);
      if (tag.name != "Result" && a.FindTag(tag.name) == &tag.value)
        FUZZ_CHECK(*value == tag.value);
    }
    // Replayed in the rule set it names (or guessed), as pdn check does.
    auto record = ReplayPdnGame(a, international);
    if (!record.ok()) continue;
    const PdnGame exported = ToPdnGame(*record);
    auto reread = ReadPdn(WritePdn(exported));
    FUZZ_CHECK(reread.ok());
    FUZZ_CHECK(reread->size() == 1);
    auto replayed = ReplayPdnGame(reread->front(), international);
    FUZZ_CHECK(replayed.ok());
    FUZZ_CHECK(replayed->positions() == record->positions());
  }
  return 0;
}
