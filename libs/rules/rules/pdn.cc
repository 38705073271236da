#include "rules/pdn.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "rules/pdn_lexer.h"
#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

using pdn_lexer::Token;

constexpr int kMaxMoveNumber = 100000;

// Maps offsets to 1-based line and column numbers. CR, LF and CRLF each
// end a line.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      const bool cr_alone = text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n');
      if (text[i] == '\n' || cr_alone) starts_.push_back(i + 1);
    }
  }
  std::pair<int, int> LineColumn(std::size_t offset) const {
    const auto next = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const auto line = static_cast<std::size_t>(next - starts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - starts_[line - 1] + 1)};
  }

 private:
  std::vector<std::size_t> starts_;
};

// Whether `text` is valid UTF-8 (so that a Latin-1 file can be told apart).
bool IsUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t follow = 0;
    if (c < 0x80) {
      follow = 0;
    } else if (c >= 0xc2 && c <= 0xdf) {
      follow = 1;
    } else if ((c >> 4) == 0xe) {
      follow = 2;
    } else if (c >= 0xf0 && c <= 0xf4) {
      follow = 3;
    } else {
      return false;
    }
    if (i + follow >= text.size() && follow > 0) return false;
    for (std::size_t k = 1; k <= follow; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return false;
    }
    i += follow + 1;
  }
  return true;
}

// Text from a file of unknown encoding as UTF-8: kept when it is UTF-8,
// else read as Latin-1, the usual encoding of older PDN archives.
std::string AsUtf8(std::string_view raw) {
  if (IsUtf8(raw)) return std::string(raw);
  std::string out;
  for (char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out += ch;
    } else {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return out;
}

void AppendComment(std::string& to, std::string_view raw) {
  // Whitespace inside a comment is collapsed so that writing and reading a
  // game again gives the same text however the lines were wrapped.
  const std::string utf8 = AsUtf8(raw);
  bool pending_space = !to.empty();
  for (char c : utf8) {
    if (text::IsSpace(c)) {
      pending_space = !to.empty();
      continue;
    }
    if (pending_space) to += ' ';
    pending_space = false;
    to += c;
  }
}

std::string Trim(std::string_view text) {
  while (!text.empty() && text::IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && text::IsSpace(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string_view LineEndingAt(std::string_view text, std::size_t from) {
  const std::size_t eol = std::min(text.find_first_of("\r\n", from), text.size());
  return text.substr(from, eol - from);
}

class PdnReader {
 public:
  explicit PdnReader(std::string_view text) : text_(text), in_(text), lines_(text) {}

  PdnReadReport Read() {
    PdnReadReport report;
    int number = 0;
    while (true) {
      SkipSpacesAndEscapes();
      if (in_.AtEnd()) break;
      ++number;
      PdnGame game;
      game.number = number;
      notes_.clear();
      in_tags_ = true;
      const std::size_t start = in_.Offset();
      if (auto failure = ReadGame(game)) {
        report.failures.push_back(Problem(number, failure->offset, failure->message));
        Resync(std::max(failure->offset, start));
        (void)start;
        continue;
      }
      for (const auto& [offset, message] : notes_) {
        report.notes.push_back(Problem(number, offset, message));
      }
      report.games.push_back(std::move(game));
    }
    return report;
  }

 private:
  struct Failure {
    std::size_t offset;
    std::string message;
  };

  PdnProblem Problem(int game, std::size_t offset, std::string message) const {
    const auto [line, column] = lines_.LineColumn(offset);
    return PdnProblem{game, offset, line, column, std::move(message)};
  }

  void Note(std::size_t offset, std::string message) {
    notes_.emplace_back(offset, std::move(message));
  }

  void SkipSpacesAndEscapes() {
    while (true) {
      in_.SkipSpaces();
      // PGN's escape: a line starting with '%' is ignored.
      if (in_.Peek() != '%' || in_.AtEnd() || !AtLineStart()) return;
      in_.Advance(LineEndingAt(text_, in_.Offset()).size());
    }
  }

  bool AtLineStart() const {
    const std::size_t at = in_.Offset();
    return at == 0 || text_[at - 1] == '\n' || text_[at - 1] == '\r';
  }

  // After a game that cannot be read: on to the next line that opens a tag
  // pair, past the failing game's own tag lines when it failed in them.
  void Resync(std::size_t from) {
    std::size_t at = NextLine(from);
    if (in_tags_) {
      while (at < text_.size() && LineOpensTag(at)) at = NextLine(at);
    }
    while (at < text_.size() && !LineOpensTag(at)) at = NextLine(at);
    in_ = text::Cursor(text_);
    in_.Advance(at);
  }

  std::size_t NextLine(std::size_t from) const {
    const std::size_t eol = text_.find_first_of("\r\n", from);
    if (eol == std::string_view::npos) return text_.size();
    return (text_[eol] == '\r' && eol + 1 < text_.size() && text_[eol + 1] == '\n') ? eol + 2
                                                                                    : eol + 1;
  }

  bool LineOpensTag(std::size_t at) const {
    while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t')) ++at;
    return at < text_.size() && text_[at] == '[';
  }

  std::optional<Failure> ReadGame(PdnGame& game) {
    game.offset = in_.Offset();
    while (in_.Peek() == '[' && !in_.AtEnd()) {
      if (auto failure = ReadTag(game)) return failure;
      SkipSpacesAndEscapes();
    }
    in_tags_ = false;
    std::optional<PdnResult> terminator;
    std::size_t terminator_offset = 0;
    std::optional<std::pair<int, bool>> first_number;
    while (!terminator) {
      SkipSpacesAndEscapes();
      if (in_.AtEnd() || in_.Peek() == '[') break;  // next game without a result
      const std::size_t start = in_.Offset();
      const char c = in_.Peek();
      std::string& comment_target =
          game.moves.empty() ? game.leading_comment : game.moves.back().comment;
      if (c == '{') {
        const std::string_view rest = in_.Rest();
        const std::size_t close = rest.find('}');
        if (close == std::string_view::npos) return Failure{start, "comment '{' is never closed"};
        AppendComment(comment_target, rest.substr(1, close - 1));
        in_.Advance(close + 1);
        continue;
      }
      if (c == ';') {
        const std::string_view line = LineEndingAt(text_, start);
        AppendComment(comment_target, line.substr(1));
        in_.Advance(line.size());
        continue;
      }
      if (c == '(') {
        if (auto failure = SkipVariation()) return failure;
        continue;
      }
      if (c == ')') return Failure{start, "')' without a variation to close"};
      if (c == '$') {
        in_.Advance();
        if (!text::IsDigit(in_.Peek())) return Failure{start, "'$' must be followed by a number"};
        while (text::IsDigit(in_.Peek()) && !in_.AtEnd()) in_.Advance();
        continue;
      }
      Token token = pdn_lexer::Next(in_);
      switch (token.kind) {
        case Token::kResult:
          terminator = token.result;
          terminator_offset = start;
          break;
        case Token::kMoveNumber:
          if (token.number < 1 || token.number > kMaxMoveNumber) {
            return Failure{start, "move number " + text::Excerpt(token.text, 12) + " is not valid"};
          }
          if (game.moves.empty()) first_number = std::make_pair(token.number, token.black_number);
          break;
        case Token::kEllipsis:
          if (game.moves.empty() && first_number) first_number->second = true;
          break;
        case Token::kMove: {
          const auto [line, column] = lines_.LineColumn(start);
          PdnMove move{token.move, "", start, line, column};
          move.text = token.text;
          game.moves.push_back(std::move(move));
          break;
        }
        case Token::kWord:
          Note(start, "skipped the word " + text::Excerpt(token.text, 20) + " in the moves");
          break;
        case Token::kError:
          return Failure{token.error_offset, token.error};
      }
    }
    if (first_number) {
      game.first_move_number = first_number->first;
      game.first_move_by_second_player = first_number->second;
    }
    SettleResult(game, terminator, terminator_offset);
    return std::nullopt;
  }

  std::optional<Failure> ReadTag(PdnGame& game) {
    const std::size_t open = in_.Offset();
    in_.Advance();  // '['
    while (in_.Peek() == ' ' || in_.Peek() == '\t') in_.Advance();
    const std::size_t name_start = in_.Position();
    auto in_name = [](char c) {
      return !text::IsSpace(c) && c != '"' && c != ']' && c != '[' && c != '\0';
    };
    while (!in_.AtEnd() && in_name(in_.Peek())) in_.Advance();
    if (in_.Position() == name_start) {
      return Failure{in_.Offset(), "expected a tag name after '[', found " + in_.DescribeHere()};
    }
    const std::string raw_name = AsUtf8(in_.Text().substr(name_start, in_.Position() - name_start));
    PdnTag tag;
    tag.name = PdnTagAlias(raw_name);
    if (tag.name != raw_name) Note(open, "tag " + raw_name + " read as " + tag.name);
    while (in_.Peek() == ' ' || in_.Peek() == '\t') in_.Advance();
    const std::string_view line = LineEndingAt(text_, in_.Offset());
    if (in_.Peek() == '"' && !in_.AtEnd()) {
      if (auto failure = ReadQuotedValue(tag, line)) return failure;
    } else {
      // No quotes: the value runs to the ']' on this line (often empty).
      const std::size_t close = line.find(']');
      if (close == std::string_view::npos) {
        return Failure{open,
                       "expected ']' to close tag " + text::Excerpt(tag.name) + " opened here"};
      }
      tag.value = AsUtf8(Trim(line.substr(0, close)));
      if (!tag.value.empty()) Note(open, "value of tag " + tag.name + " without quotes");
      in_.Advance(close + 1);
    }
    game.tags.push_back(std::move(tag));
    return std::nullopt;
  }

  // From the opening quote: the value with its escapes, then ']'.
  std::optional<Failure> ReadQuotedValue(PdnTag& tag, std::string_view line) {
    const std::size_t quote = in_.Offset();
    std::string value;
    std::size_t i = 1;
    bool closed = false;
    while (i < line.size()) {
      const char c = line[i++];
      if (c == '\\' && i < line.size() && (line[i] == '"' || line[i] == '\\')) {
        value += line[i++];
        continue;
      }
      if (c == '"') {
        closed = true;
        break;
      }
      value += c;
    }
    std::size_t after = i;
    while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
    if (closed && after < line.size() && line[after] == ']') {
      tag.value = AsUtf8(value);
      in_.Advance(after + 1);
      return std::nullopt;
    }
    // A quote inside the value, unescaped ("Club "Open" 2024"), or no closing
    // quote: the value runs to the last '"' before the line's last ']'.
    const std::size_t bracket = line.rfind(']');
    if (bracket != std::string_view::npos && bracket > 0) {
      std::size_t end = bracket;
      while (end > 1 && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
      if (end > 1 && line[end - 1] == '"') --end;
      tag.value = AsUtf8(line.substr(1, end - 1));
      Note(quote, "value of tag " + tag.name + " has an unescaped quote or no closing quote");
      in_.Advance(bracket + 1);
      return std::nullopt;
    }
    if (closed && after == line.size()) {
      // [Name "value" with the ']' missing at the end of the line.
      tag.value = AsUtf8(value);
      Note(quote, "tag " + tag.name + " is not closed by ']'");
      in_.Advance(line.size());
      return std::nullopt;
    }
    if (!closed) {
      return Failure{quote, "the value of tag " + text::Excerpt(tag.name) + " is never closed"};
    }
    return Failure{in_.Offset() + after, "expected ']' to close tag " + text::Excerpt(tag.name) +
                                             ", found " + text::Describe(line[after])};
  }

  // Variations are skipped whole; counting depth instead of recursing keeps
  // hostile nesting from exhausting the stack.
  std::optional<Failure> SkipVariation() {
    const std::size_t open = in_.Offset();
    int depth = 0;
    while (!in_.AtEnd()) {
      const char c = in_.Peek();
      const std::size_t here = in_.Offset();
      if (c == '{') {
        const std::size_t close = in_.Rest().find('}');
        if (close == std::string_view::npos) return Failure{here, "comment '{' is never closed"};
        in_.Advance(close + 1);
        continue;
      }
      if (c == ';') {
        in_.Advance(LineEndingAt(text_, here).size());
        continue;
      }
      in_.Advance();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return std::nullopt;
    }
    return Failure{open, "variation '(' is never closed"};
  }

  void SettleResult(PdnGame& game, std::optional<PdnResult> terminator,
                    std::size_t terminator_offset) {
    std::optional<PdnResult> tagged;
    if (const std::string* value = game.FindTag("Result")) tagged = ParsePdnResult(*value);
    const bool tag_known = tagged && *tagged != PdnResult::kUnknown;
    const bool moves_known = terminator && *terminator != PdnResult::kUnknown;
    if (tag_known && moves_known && *terminator != *tagged) {
      Note(terminator_offset, "the result after the moves differs from the Result tag \"" +
                                  text::Excerpt(*game.FindTag("Result")) + "\"; the tag is used");
    }
    if (tag_known) {
      game.result = *tagged;
    } else {
      game.result = terminator.value_or(tagged.value_or(PdnResult::kUnknown));
    }
  }

  std::string_view text_;
  text::Cursor in_;
  LineIndex lines_;
  bool in_tags_ = true;
  std::vector<std::pair<std::size_t, std::string>> notes_;
};

std::string EscapeTagValue(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

class LineWrapper {
 public:
  explicit LineWrapper(std::string& out) : out_(out) {}
  void Add(const std::string& token) {
    if (line_length_ > 0 && line_length_ + 1 + token.size() > kWidth) {
      out_ += '\n';
      line_length_ = 0;
    }
    if (line_length_ > 0) {
      out_ += ' ';
      ++line_length_;
    }
    out_ += token;
    line_length_ += token.size();
  }

  // "{text}", or "; text" up to the end of the line when the text holds a
  // '}' that would close the braces early.
  void AddComment(std::string_view comment) {
    std::string body;
    AppendComment(body, comment);  // one line, even for comments built in code
    if (body.find('}') == std::string::npos) {
      Add("{" + body + "}");
      return;
    }
    Add("; " + body);
    out_ += '\n';
    line_length_ = 0;
  }

 private:
  static constexpr std::size_t kWidth = 80;
  std::string& out_;
  std::size_t line_length_ = 0;
};

std::string MoveTextOf(const PdnMove& move) {
  return move.text.empty() ? FormatMoveText(move.move) : move.text;
}

}  // namespace

std::string PdnProblem::ToString() const {
  return "game " + std::to_string(game) + ", line " + std::to_string(line) + ", column " +
         std::to_string(column) + ": " + message;
}

std::optional<PdnResult> ParsePdnResult(std::string_view text) {
  return pdn_lexer::ParseResult(text);
}

std::string FormatPdnResult(PdnResult result, PdnScoreStyle style) {
  const bool one = style == PdnScoreStyle::kOnePoint;
  switch (result) {
    case PdnResult::kWhiteWins:
      return one ? "1-0" : "2-0";
    case PdnResult::kBlackWins:
      return one ? "0-1" : "0-2";
    case PdnResult::kDraw:
      return one ? "1/2-1/2" : "1-1";
    case PdnResult::kUnknown:
      break;
  }
  return "*";
}

std::string PdnTagAlias(std::string_view name) {
  struct Alias {
    std::string_view from;
    std::string_view to;
  };
  // Lower-case ASCII forms, and the Cyrillic ones as written (capitalised).
  static constexpr std::array<Alias, 34> kAliases{{
      {"result", "Result"},
      {"resultaat", "Result"},
      {"uitslag", "Result"},
      {"resultat", "Result"},
      {"r\xc3\xa9sultat", "Result"},
      {"risultato", "Result"},
      {"resultado", "Result"},
      {"ergebnis", "Result"},
      {"v\xc3\xbdsledek", "Result"},
      {"wynik", "Result"},
      {"\xd0\xa0\xd0\xb5\xd0\xb7\xd1\x83\xd0\xbb\xd1\x8c\xd1\x82\xd0\xb0\xd1\x82", "Result"},
      {"white", "White"},
      {"wit", "White"},
      {"blanc", "White"},
      {"bianco", "White"},
      {"blancas", "White"},
      {"weiss", "White"},
      {"\xd0\x91\xd0\xb5\xd0\xbb\xd1\x8b\xd0\xb5", "White"},
      {"black", "Black"},
      {"zwart", "Black"},
      {"noir", "Black"},
      {"nero", "Black"},
      {"negras", "Black"},
      {"schwarz", "Black"},
      {"\xd0\xa7\xd0\xb5\xd1\x80\xd0\xbd\xd1\x8b\xd0\xb5", "Black"},
      {"event", "Event"},
      {"\xd0\xa2\xd1\x83\xd1\x80\xd0\xbd\xd0\xb8\xd1\x80", "Event"},
      {"date", "Date"},
      {"datum", "Date"},
      {"\xd0\x94\xd0\xb0\xd1\x82\xd0\xb0", "Date"},
      {"fen", "FEN"},
      {"gametype", "GameType"},
      {"round", "Round"},
      {"site", "Site"},
  }};
  std::string lower(name);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  for (const Alias& alias : kAliases) {
    if (alias.from == lower || alias.from == name) return std::string(alias.to);
  }
  return std::string(name);
}

const std::string* PdnGame::FindTag(std::string_view name) const {
  for (const PdnTag& tag : tags) {
    if (tag.name == name) return &tag.value;
  }
  return nullptr;
}

void PdnGame::SetTag(std::string_view name, std::string value) {
  for (PdnTag& tag : tags) {
    if (tag.name == name) {
      tag.value = std::move(value);
      return;
    }
  }
  tags.push_back(PdnTag{std::string(name), std::move(value)});
}

std::optional<int> PdnGame::GameType() const {
  const std::string* value = FindTag("GameType");
  if (value == nullptr) return std::nullopt;
  std::string_view text = *value;
  while (!text.empty() && text::IsSpace(text.front())) text.remove_prefix(1);
  int number = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc()) return std::nullopt;
  const std::string_view rest = text.substr(static_cast<std::size_t>(ptr - text.data()));
  if (!rest.empty() && rest.front() != ',' && !text::IsSpace(rest.front())) return std::nullopt;
  return number;
}

PdnReadReport ReadPdnGames(std::string_view text) {
  // Files saved by some editors start with a UTF-8 byte order mark. It is
  // read as spaces so that offsets still count from the file's first byte.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    std::string copy(text);
    copy.replace(0, kByteOrderMark.size(), kByteOrderMark.size(), ' ');
    return PdnReader(copy).Read();
  }
  return PdnReader(text).Read();
}

Result<std::vector<PdnGame>> ReadPdn(std::string_view text) {
  PdnReadReport report = ReadPdnGames(text);
  if (!report.failures.empty()) {
    const PdnProblem& first = report.failures.front();
    return MakeError(first.ToString(), first.offset);
  }
  return std::move(report.games);
}

std::string WritePdn(const PdnGame& game) {
  const PdnScoreStyle style =
      game.GameType() == 21 ? PdnScoreStyle::kOnePoint : PdnScoreStyle::kTwoPoints;
  const std::string result = FormatPdnResult(game.result, style);
  std::string out;
  bool wrote_result_tag = false;
  for (const PdnTag& tag : game.tags) {
    const bool is_result = tag.name == "Result";
    if (is_result && wrote_result_tag) continue;
    wrote_result_tag = wrote_result_tag || is_result;
    out += "[" + tag.name + " \"" + EscapeTagValue(is_result ? result : tag.value) + "\"]\n";
  }
  if (!wrote_result_tag) out += "[Result \"" + result + "\"]\n";
  out += '\n';
  LineWrapper line(out);
  if (!game.leading_comment.empty()) line.AddComment(game.leading_comment);
  const int shift = game.first_move_by_second_player ? 1 : 0;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const std::size_t half = i + static_cast<std::size_t>(shift);
    const std::string number = std::to_string(game.first_move_number + static_cast<int>(half / 2));
    const std::string move = MoveTextOf(game.moves[i]);
    if (half % 2 == 0) {
      line.Add(number + ". " + move);
    } else if (i == 0) {
      line.Add(number + "... " + move);
    } else {
      line.Add(move);
    }
    if (!game.moves[i].comment.empty()) line.AddComment(game.moves[i].comment);
  }
  line.Add(result);
  out += '\n';
  return out;
}

std::string WritePdn(const std::vector<PdnGame>& games) {
  std::string out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (i > 0) out += '\n';
    out += WritePdn(games[i]);
  }
  return out;
}

}  // namespace draughts::rules
