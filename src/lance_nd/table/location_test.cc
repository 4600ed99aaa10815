#include "lance_nd/table/location.h"

#include <gtest/gtest.h>

namespace lance_nd::table {
namespace {

TEST(TableLocation, JoinsWithExactlyOneSlash) {
  EXPECT_EQ(JoinPath("a", "b"), "a/b");
  EXPECT_EQ(JoinPath("a/", "b"), "a/b");
  EXPECT_EQ(JoinPath("", "b"), "b");
  EXPECT_EQ(JoinPath("/", "b"), "/b");
}

TEST(TableLocation, NamesTheTableDirectories) {
  TableLocation loc(io::MakeMemoryFileSystem(), "/t/tbl.lance//");
  EXPECT_EQ(loc.root(), "/t/tbl.lance");
  EXPECT_EQ(loc.VersionsDir(), "/t/tbl.lance/_versions");
  EXPECT_EQ(loc.DataDir(), "/t/tbl.lance/data");
  EXPECT_EQ(loc.DeletionsDir(), "/t/tbl.lance/_deletions");
  EXPECT_EQ(loc.TransactionsDir(), "/t/tbl.lance/_transactions");
  EXPECT_EQ(loc.IndicesDir(), "/t/tbl.lance/_indices");
  EXPECT_EQ(loc.TagsDir(), "/t/tbl.lance/_refs/tags");
  EXPECT_EQ(loc.Path(kDataDir, "x.lance"), "/t/tbl.lance/data/x.lance");
  EXPECT_EQ(TableLocation(io::MakeMemoryFileSystem(), "/").root(), "/");
}

TEST(TableLocation, SharesItsFileSystem) {
  auto fs = io::MakeMemoryFileSystem();
  TableLocation loc(fs, "t");
  EXPECT_EQ(&loc.fs(), fs.get());
  EXPECT_EQ(TableLocation::Local("t").file_system(), io::LocalFileSystem());
}

}  // namespace
}  // namespace lance_nd::table
