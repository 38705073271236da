// The Hub engine's "book" parameter: off by default (a match measures the
// engine alone), a book file or directory turns it on for that process,
// and a bad book is refused with an error while the engine plays on.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/book.h"
#include "hub/commands.h"
#include "hub/engine_session.h"
#include "rules/movegen.h"
#include "rules/variant.h"

namespace draughts::hub {
namespace {

class Lines {
 public:
  void Add(std::string_view line) {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.emplace_back(line);
    changed_.notify_all();
  }
  // The first line from index `from` on starting with `prefix`, waiting up
  // to a deadline; empty if none came.
  std::string WaitFor(std::string_view prefix, std::size_t from) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::string found;
    changed_.wait_for(lock, std::chrono::seconds(30), [&] {
      for (std::size_t i = from; i < lines_.size(); ++i) {
        if (lines_[i].rfind(prefix, 0) == 0) {
          found = lines_[i];
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
};

std::int64_t Nodes(const std::string& info_line) {
  auto answer = ParseEngineAnswer(info_line);
  EXPECT_TRUE(answer.ok()) << info_line;
  if (!answer.ok() || !std::holds_alternative<InfoAnswer>(*answer)) return -1;
  return std::get<InfoAnswer>(*answer).nodes.value_or(0);
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("hub_book_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(HubBook, TheBookParameterSwitchesTheBookPerProcess) {
  const rules::Variant english = rules::FindVariant("english").value();
  const rules::Position start = rules::Position::Initial(english);
  const rules::Move only = rules::LegalMoves(english, start).back();
  engine::Book book(english);
  book.Add(start, {{only, 0}});
  const std::string path = TempPath("english.book");
  ASSERT_FALSE(book.Save(path).has_value());
  const std::string bad = TempPath("bad.book");
  {
    std::ofstream out(bad, std::ios::binary);
    out << "not a book";
  }

  Lines lines;
  EngineSession session([&](std::string_view line) { lines.Add(line); });
  auto think = [&]() {
    const std::size_t from = lines.size();
    EXPECT_TRUE(session.HandleLine("pos"));
    EXPECT_TRUE(session.HandleLine("go think"));
    const std::string done = lines.WaitFor("done", from);
    const std::string info = lines.WaitFor("info", from);
    return std::make_pair(done, info);
  };
  EXPECT_TRUE(session.HandleLine("hub"));
  EXPECT_FALSE(lines.WaitFor("param name=book", 0).empty());
  EXPECT_TRUE(session.HandleLine("set-param name=variant value=english"));
  EXPECT_TRUE(session.HandleLine("set-param name=level value=medium"));
  EXPECT_TRUE(session.HandleLine("init"));

  // Without a book Medium searches (nodes in its info line).
  auto [plain_done, plain_info] = think();
  EXPECT_GT(Nodes(plain_info), 0) << plain_info;

  const std::size_t before_bad = lines.size();
  EXPECT_TRUE(session.HandleLine("set-param name=book value=" + bad));
  EXPECT_NE(lines.WaitFor("error", before_bad).find("not an opening book"), std::string::npos);

  EXPECT_TRUE(session.HandleLine("set-param name=book value=" + path));
  const std::string expected = std::to_string(only.from) + "-" + std::to_string(only.to);
  for (int i = 0; i < 3; ++i) {
    auto [done, info] = think();
    EXPECT_NE(done.find("move=" + expected), std::string::npos) << done;
    EXPECT_EQ(Nodes(info), 0) << info;
  }

  // Turned off again: searches.
  EXPECT_TRUE(session.HandleLine("set-param name=book value="));
  auto [off_done, off_info] = think();
  EXPECT_GT(Nodes(off_info), 0) << off_info;
  EXPECT_TRUE(session.HandleLine("quit") == false);
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace draughts::hub
