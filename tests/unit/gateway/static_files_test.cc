#include "gateway/static_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace draughts::gateway {
namespace {

namespace fs = std::filesystem;

TEST(PercentDecodeTest, DecodesAndRejectsBadEscapes) {
  EXPECT_EQ(PercentDecode("a%41%2e").value(), "aA.");
  EXPECT_FALSE(PercentDecode("%4").ok());
  EXPECT_FALSE(PercentDecode("%").ok());
  EXPECT_FALSE(PercentDecode("%zz").ok());
}

TEST(ResolveStaticPathTest, MapsInsideTheRoot) {
  EXPECT_EQ(ResolveStaticPath("/srv/web", "/").value(), fs::path("/srv/web/index.html"));
  EXPECT_EQ(ResolveStaticPath("/srv/web", "/js/app.js").value(), fs::path("/srv/web/js/app.js"));
  EXPECT_EQ(ResolveStaticPath("/srv/web", "/img/").value(), fs::path("/srv/web/img/index.html"));
  EXPECT_EQ(ResolveStaticPath("/srv/web", "//a//b").value(), fs::path("/srv/web/a/b"));
}

TEST(ResolveStaticPathTest, RejectsTraversalAndOddNames) {
  for (const char* bad : {"/../etc/passwd", "/a/../../etc/passwd", "/%2e%2e/etc/passwd",
                          "/a/%2E%2E/%2e%2e/x", "/..%2fetc", "/.git/config", "/a/.env", "/a%00b",
                          "/a\\..\\b", "/c:/x", "/%zz", "relative", ""}) {
    EXPECT_FALSE(ResolveStaticPath("/srv/web", bad).ok()) << bad;
  }
}

TEST(ContentTypeTest, KnownExtensions) {
  EXPECT_EQ(ContentTypeFor("a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("style.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("board.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("icon.png"), "image/png");
  EXPECT_EQ(ContentTypeFor("data.json"), "application/json");
  EXPECT_EQ(ContentTypeFor("blob.bin"), "application/octet-stream");
}

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("gateway-static-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_ / "web" / "js");
    std::ofstream(root_ / "web" / "index.html") << "<html>home</html>";
    std::ofstream(root_ / "web" / "js" / "app.js") << "export {}";
    std::ofstream(root_ / "secret.txt") << "outside";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(StaticFilesTest, ServesFilesWithTheirType) {
  StaticFiles files(root_ / "web");
  HttpResponse home = files.Serve("/");
  EXPECT_EQ(home.status, 200);
  EXPECT_EQ(home.body, "<html>home</html>");
  EXPECT_EQ(home.content_type, "text/html; charset=utf-8");
  HttpResponse script = files.Serve("/js/app.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
}

TEST_F(StaticFilesTest, NothingOutsideTheRootOrMissing) {
  StaticFiles files(root_ / "web");
  EXPECT_EQ(files.Serve("/../secret.txt").status, 404);
  EXPECT_EQ(files.Serve("/%2e%2e/secret.txt").status, 404);
  EXPECT_EQ(files.Serve("/missing.js").status, 404);
  EXPECT_EQ(files.Serve("/js").status, 404);  // a directory without index.html
  EXPECT_NE(files.Serve("/../secret.txt").body.find("NOT_FOUND"), std::string::npos);
}

}  // namespace
}  // namespace draughts::gateway
