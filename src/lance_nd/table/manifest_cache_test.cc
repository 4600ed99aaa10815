// The in-memory manifest parses (manifest_cache.h) are reused only for identical bytes.
#include "lance_nd/table/manifest_cache.h"

#include <gtest/gtest.h>

#include "lance_nd/table/dataset.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

Status Put(io::FileSystem& fs, const std::string& path, const Manifest& m) {
  LND_ASSIGN_OR_RETURN(auto bytes, SerializeManifestFile(m, nullptr));
  return testing::WriteBytes(fs, path, bytes);
}

TEST(TableManifestCache, ReusesAParseOnlyForIdenticalBytes) {
  ClearManifestCache();
  auto fs = io::MakeMemoryFileSystem();
  const std::string path = "t/_versions/" + ManifestFileName(1, ManifestNaming::kV2);
  LND_ASSERT_OK(Put(*fs, path, testing::SampleManifest(1)));
  LND_ASSERT_OK_AND_ASSIGN(auto a, internal::ReadManifestShared(*fs, path));
  LND_ASSERT_OK_AND_ASSIGN(auto b, internal::ReadManifestShared(*fs, path));
  EXPECT_EQ(a, b);  // same bytes: same parse
  // The same name with other content (a table deleted and created again): parsed afresh.
  Manifest other = testing::SampleManifest(1);
  other.fragments.pop_back();
  LND_ASSERT_OK(Put(*fs, path, other));
  LND_ASSERT_OK_AND_ASSIGN(auto c, internal::ReadManifestShared(*fs, path));
  EXPECT_NE(c, a);
  EXPECT_EQ(c->manifest.fragments.size(), 1u);
  EXPECT_EQ(a->manifest.fragments.size(), 2u);  // earlier results are unchanged
  // Another file system with the same path and bytes is a different key.
  auto fs2 = io::MakeMemoryFileSystem();
  LND_ASSERT_OK(Put(*fs2, path, other));
  LND_ASSERT_OK_AND_ASSIGN(auto d, internal::ReadManifestShared(*fs2, path));
  EXPECT_NE(d, c);
  ClearManifestCache();
  LND_ASSERT_OK_AND_ASSIGN(auto e, internal::ReadManifestShared(*fs, path));
  EXPECT_NE(e, c);
  EXPECT_EQ(e->manifest.fragments, c->manifest.fragments);
  // Errors are those of ParseManifestFile, naming the file, and nothing is remembered.
  LND_ASSERT_OK(testing::WriteBytes(*fs, path, {1, 2, 3}));
  LND_EXPECT_ERROR(internal::ReadManifestShared(*fs, path), StatusCode::kCorrupt,
                   "manifest file '" + path + "': file is 3 bytes");
  LND_EXPECT_ERROR(internal::ReadManifestShared(*fs, "t/_versions/none.manifest"),
                   StatusCode::kNotFound, "none.manifest");
}

TEST(TableManifestCache, RecreatedTableIsNeverServedFromAnOldParse) {
  ClearManifestCache();
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> three = {testing::TestBatch(0, 3)};
  std::vector<array::RecordBatchPtr> five = {testing::TestBatch(0, 5)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset first, WriteTable(TableLocation(fs, "t"), three));
  LND_ASSERT_OK_AND_ASSIGN(Dataset again, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(again.manifest_file(), first.manifest_file());  // the commit's parse, reused
  // Delete the table and create another one at the same path: version 1 again, other rows.
  LND_ASSERT_OK_AND_ASSIGN(auto names, fs->List("t/_versions"));
  for (const auto& n : names) LND_ASSERT_OK(fs->Delete("t/_versions/" + n.name));
  LND_ASSERT_OK_AND_ASSIGN(Dataset second, WriteTable(TableLocation(fs, "t"), five));
  EXPECT_EQ(second.version(), 1u);
  ClearManifestCache();
  LND_ASSERT_OK_AND_ASSIGN(Dataset reopened, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(reopened.CountRows(), 5u);
}

}  // namespace
}  // namespace lance_nd::table
