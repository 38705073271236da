#include "rules/pdn.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "rules/text_cursor.h"

namespace draughts::rules {
namespace {

struct ResultForm {
  std::string_view text;
  PdnResult result;
};

// Longest first so "1/2-1/2" is not read as something shorter.
constexpr std::array<ResultForm, 7> kResultForms{{
    {"1/2-1/2", PdnResult::kDraw},
    {"2-0", PdnResult::kWhiteWins},
    {"0-2", PdnResult::kBlackWins},
    {"1-1", PdnResult::kDraw},
    {"1-0", PdnResult::kWhiteWins},
    {"0-1", PdnResult::kBlackWins},
    {"*", PdnResult::kUnknown},
}};

constexpr int kMaxMoveNumber = 100000;

bool IsMoveChar(char c) {
  return text::IsDigit(c) || c == '-' || c == 'x' || c == 'X' || c == ':';
}
bool IsTagNameChar(char c) {
  return text::IsDigit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

// Maps offsets to 1-based line and column numbers for error messages.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
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

void AppendComment(std::string& to, std::string_view raw) {
  // Whitespace inside a comment is collapsed so that writing and reading a
  // game again gives the same text however the lines were wrapped.
  bool pending_space = !to.empty();
  for (char c : raw) {
    if (text::IsSpace(c)) {
      pending_space = !to.empty();
      continue;
    }
    if (pending_space) to += ' ';
    pending_space = false;
    to += c;
  }
}

class PdnReader {
 public:
  explicit PdnReader(std::string_view text) : in_(text), lines_(text) {}

  Result<std::vector<PdnGame>> Read() {
    std::vector<PdnGame> games;
    while (true) {
      in_.SkipSpaces();
      if (in_.AtEnd()) return games;
      PdnGame game;
      if (auto error = ReadGame(game)) return *error;
      games.push_back(std::move(game));
    }
  }

 private:
  Error Fail(const std::string& message, std::size_t offset) const {
    const auto [line, column] = lines_.LineColumn(offset);
    return MakeError(
        "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message,
        offset);
  }

  std::optional<Error> ReadGame(PdnGame& game) {
    game.offset = in_.Offset();
    while (in_.Peek() == '[' && !in_.AtEnd()) {
      if (auto error = ReadTag(game)) return error;
      in_.SkipSpaces();
    }
    std::optional<PdnResult> terminator;
    std::size_t terminator_offset = 0;
    std::optional<std::pair<int, bool>> first_number;
    while (!terminator) {
      in_.SkipSpaces();
      if (in_.AtEnd() || in_.Peek() == '[') break;  // next game without a result
      const std::size_t start = in_.Offset();
      const char c = in_.Peek();
      std::string& comment_target =
          game.moves.empty() ? game.leading_comment : game.moves.back().comment;
      if (c == '{') {
        const std::string_view rest = in_.Rest();
        const std::size_t close = rest.find('}');
        if (close == std::string_view::npos) return Fail("comment '{' is never closed", start);
        AppendComment(comment_target, rest.substr(1, close - 1));
        in_.Advance(close + 1);
      } else if (c == ';') {
        const std::string_view rest = in_.Rest();
        const std::size_t eol = std::min(rest.find('\n'), rest.size());
        AppendComment(comment_target, rest.substr(1, eol - 1));
        in_.Advance(eol);
      } else if (c == '(') {
        if (auto error = SkipVariation()) return error;
      } else if (c == ')') {
        return Fail("')' without a variation to close", start);
      } else if (c == '$') {
        in_.Advance();
        if (!text::IsDigit(in_.Peek())) return Fail("'$' must be followed by a number", start);
        while (text::IsDigit(in_.Peek()) && !in_.AtEnd()) in_.Advance();
      } else if (auto result = MatchResult()) {
        terminator = result->result;
        terminator_offset = start;
        in_.Advance(result->text.size());
      } else if (text::IsDigit(c)) {
        if (auto error = ReadNumberOrMove(game, first_number)) return error;
      } else {
        return Fail("unexpected " + in_.DescribeHere() + " in the moves", start);
      }
    }
    if (first_number) {
      game.first_move_number = first_number->first;
      game.first_move_by_second_player = first_number->second;
    }
    return SettleResult(game, terminator, terminator_offset);
  }

  std::optional<Error> ReadTag(PdnGame& game) {
    const std::size_t open = in_.Offset();
    in_.Advance();  // '['
    in_.SkipSpaces();
    const std::size_t name_start = in_.Position();
    while (!in_.AtEnd() && IsTagNameChar(in_.Peek())) in_.Advance();
    if (in_.Position() == name_start) {
      return Fail("expected a tag name after '[', found " + in_.DescribeHere(), in_.Offset());
    }
    PdnTag tag;
    tag.name = std::string(in_.Text().substr(name_start, in_.Position() - name_start));
    in_.SkipSpaces();
    if (!in_.Consume('"')) {
      return Fail("expected '\"' to open the value of tag " + text::Excerpt(tag.name) + ", found " +
                      in_.DescribeHere(),
                  in_.Offset());
    }
    const std::size_t quote = in_.Offset() - 1;
    while (true) {
      if (in_.AtEnd())
        return Fail("the value of tag " + text::Excerpt(tag.name) + " is never closed", quote);
      const char c = in_.Peek();
      in_.Advance();
      if (c == '"') break;
      if (c == '\\' && (in_.Peek() == '"' || in_.Peek() == '\\') && !in_.AtEnd()) {
        tag.value += in_.Peek();
        in_.Advance();
        continue;
      }
      tag.value += c;
    }
    in_.SkipSpaces();
    if (!in_.Consume(']')) {
      return Fail("expected ']' to close tag " + text::Excerpt(tag.name) + " opened here", open);
    }
    game.tags.push_back(std::move(tag));
    return std::nullopt;
  }

  // Variations are skipped whole; counting depth instead of recursing keeps
  // hostile nesting from exhausting the stack.
  std::optional<Error> SkipVariation() {
    const std::size_t open = in_.Offset();
    int depth = 0;
    while (!in_.AtEnd()) {
      const char c = in_.Peek();
      const std::size_t here = in_.Offset();
      if (c == '{') {
        const std::size_t close = in_.Rest().find('}');
        if (close == std::string_view::npos) return Fail("comment '{' is never closed", here);
        in_.Advance(close + 1);
        continue;
      }
      if (c == ';') {
        in_.Advance(std::min(in_.Rest().find('\n'), in_.Rest().size()));
        continue;
      }
      in_.Advance();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return std::nullopt;
    }
    return Fail("variation '(' is never closed", open);
  }

  std::optional<ResultForm> MatchResult() const {
    const std::string_view rest = in_.Rest();
    for (const ResultForm& form : kResultForms) {
      if (rest.substr(0, form.text.size()) != form.text) continue;
      // "1-10" is a move, not the result "1-1" followed by "0".
      const char after = rest.size() > form.text.size() ? rest[form.text.size()] : ' ';
      if (IsMoveChar(after) || after == '/' || after == '.') continue;
      return form;
    }
    return std::nullopt;
  }

  std::optional<Error> ReadNumberOrMove(PdnGame& game,
                                        std::optional<std::pair<int, bool>>& first_number) {
    const std::size_t start = in_.Offset();
    const std::string_view rest = in_.Rest();
    std::size_t digits = 0;
    while (digits < rest.size() && text::IsDigit(rest[digits])) ++digits;
    if (digits < rest.size() && rest[digits] == '.') {
      std::size_t dots = 0;
      while (digits + dots < rest.size() && rest[digits + dots] == '.') ++dots;
      int number = 0;
      const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + digits, number);
      (void)ptr;
      // Bounded so that numbering the moves written after it cannot overflow.
      if (ec != std::errc() || number < 1 || number > kMaxMoveNumber) {
        return Fail("move number " + text::Excerpt(rest.substr(0, digits), 12) + " is not valid",
                    start);
      }
      if (game.moves.empty()) first_number = std::make_pair(number, dots > 1);
      in_.Advance(digits + dots);
      return std::nullopt;
    }
    auto move = ReadMoveText(in_);
    if (!move.ok()) return Fail(move.error().message, move.error().offset);
    const auto [line, column] = lines_.LineColumn(start);
    game.moves.push_back(PdnMove{std::move(move).value(), "", start, line, column});
    while (in_.Peek() == '!' || in_.Peek() == '?') in_.Advance();
    return std::nullopt;
  }

  std::optional<Error> SettleResult(PdnGame& game, std::optional<PdnResult> terminator,
                                    std::size_t terminator_offset) const {
    std::optional<PdnResult> tagged;
    if (const std::string* value = game.FindTag("Result")) tagged = ParsePdnResult(*value);
    if (terminator && tagged && *terminator != *tagged) {
      return Fail("the game ends with a result that differs from its Result tag \"" +
                      text::Excerpt(*game.FindTag("Result")) + "\"",
                  terminator_offset);
    }
    game.result = terminator ? *terminator : tagged.value_or(PdnResult::kUnknown);
    return std::nullopt;
  }

  text::Cursor in_;
  LineIndex lines_;
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

}  // namespace

std::optional<PdnResult> ParsePdnResult(std::string_view text) {
  for (const ResultForm& form : kResultForms) {
    if (form.text == text) return form.result;
  }
  return std::nullopt;
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

Result<std::vector<PdnGame>> ReadPdn(std::string_view text) {
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
    if (half % 2 == 0) {
      line.Add(number + ". " + FormatMoveText(game.moves[i].move));
    } else if (i == 0) {
      line.Add(number + "... " + FormatMoveText(game.moves[i].move));
    } else {
      line.Add(FormatMoveText(game.moves[i].move));
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
