#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/maintenance/table_fixture_test_util.h"
#include "lance_nd/table/tags.h"
#include "lance_nd/table/tags/ops_test_util.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using Clock = std::chrono::system_clock;
using ops_testing::TempDir;
using std::chrono::hours;

// 2026-11-01T00:00:00Z: the reference "now" of these tests.
const Clock::time_point kNow = Clock::time_point(std::chrono::seconds(1'793'491'200));
constexpr std::int64_t kNowSeconds = 1'793'491'200;
constexpr std::int64_t kDay = 24 * 3600;

Fragment Frag(std::uint64_t id, const std::string& file,
              std::optional<std::pair<std::uint64_t, std::uint64_t>> deletion = std::nullopt) {
  Fragment f;
  f.id = id;
  f.physical_rows = 10;
  f.files.push_back(DataFile{file, {0}, {0}, 2, 2, 100, std::nullopt});
  if (deletion) {
    f.deletion_file =
        DeletionFile{DeletionFileType::kArrowArray, deletion->first, deletion->second, 1, {}};
  }
  return f;
}

// Indexes the raw IndexSection holding one index whose uuid bytes are all `b`.
std::string IndexSection(std::uint8_t b) {
  std::string uuid_bytes(16, static_cast<char>(b));
  std::string uuid_msg = std::string("\x0a\x10", 2) + uuid_bytes;  // UUID.uuid
  std::string meta = "\x0a" + std::string(1, static_cast<char>(uuid_msg.size())) + uuid_msg +
                     "\x12\x03idx";                                       // uuid, name
  return "\x0a" + std::string(1, static_cast<char>(meta.size())) + meta;  // indices
}

class CleanupTest : public ops_testing::MemoryOrLocalTableTest {
 protected:
  void PutVersion(std::uint64_t v, std::int64_t timestamp, std::vector<Fragment> frags,
                  const std::string& txn, std::optional<std::string> index = std::nullopt) {
    Manifest m = testing::SampleManifest(v);
    m.fragments = std::move(frags);
    m.timestamp_seconds = timestamp;
    m.transaction_file = txn;
    m.index_section_blob = std::move(index);
    auto bytes = SerializeManifestFile(m, nullptr);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    Put("_versions/" + ManifestFileName(v, ManifestNaming::kV2), *bytes);
    Put("_transactions/" + txn, std::vector<std::uint8_t>(7, 1));
  }
  void Put(const std::string& rel, const std::vector<std::uint8_t>& bytes) {
    LND_ASSERT_OK(testing::WriteBytes(*fs_, table_ + "/" + rel, bytes));
  }
  void PutFile(const std::string& rel, std::size_t size = 100) {
    Put(rel, std::vector<std::uint8_t>(size, 2));
  }
  bool Has(const std::string& rel) {
    auto r = fs_->Exists(table_ + "/" + rel);
    return r.ok() && *r;
  }

  // v1..v4 old (30 days), v3 tagged, v5 young and latest.
  void MakeHistory() {
    const std::int64_t old = kNowSeconds - 30 * kDay;
    PutVersion(1, old, {Frag(0, "a.lance")}, "0-a.txn");
    PutVersion(2, old + 1, {Frag(0, "a.lance"), Frag(1, "b.lance", {{1, 7}})}, "1-b.txn");
    PutVersion(3, old + 2, {Frag(0, "a.lance"), Frag(1, "b.lance", {{2, 8}})}, "2-c.txn");
    PutVersion(4, old + 3, {Frag(2, "c.lance")}, "3-d.txn");
    PutVersion(5, kNowSeconds - 3600, {Frag(2, "c.lance"), Frag(3, "d.lance")}, "4-e.txn");
    for (const char* f : {"data/a.lance", "data/b.lance", "data/c.lance", "data/d.lance",
                          "_deletions/1-1-7.arrow", "_deletions/1-2-8.arrow"}) {
      PutFile(f);
    }
    // Unreferenced: an in-flight (or abandoned) commit's files.
    PutFile("data/orphan.lance", 50);
    PutFile("_deletions/9-9-9.arrow", 50);
    PutFile("_transactions/5-f.txn", 50);
    LND_ASSERT_OK(CreateTag(TableLocation(fs_, table_), "keep", 3));
  }

  CleanupOptions Options() {
    CleanupOptions o;
    o.now = kNow;
    return o;
  }
};

TEST_P(CleanupTest, KeepsLatestTaggedAndReferenced) {
  MakeHistory();
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), Options()));
  CleanupStats stats = std::move(stats_cleaned.stats);
  // The result holds the latest version, as it is after the cleanup.
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(stats_cleaned.dataset.version(), latest.version());
  EXPECT_EQ(stats_cleaned.dataset.versions().versions, latest.versions().versions);
  EXPECT_EQ(stats.old_versions, 3u);  // v1, v2, v4
  EXPECT_EQ(stats.data_files_removed, 0u);
  EXPECT_EQ(stats.deletion_files_removed, 1u);
  EXPECT_EQ(stats.transaction_files_removed, 3u);
  EXPECT_EQ(stats.files_removed, 7u);
  LND_ASSERT_OK_AND_ASSIGN(VersionList left, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(left.versions, (std::vector<std::uint64_t>{3, 5}));
  // Referenced by the tagged v3 or the latest v5 (a.lance also by the removed v1/v2).
  for (const char* f :
       {"data/a.lance", "data/b.lance", "data/c.lance", "data/d.lance", "_deletions/1-2-8.arrow",
        "_transactions/2-c.txn", "_transactions/4-e.txn"}) {
    EXPECT_TRUE(Has(f)) << f;
  }
  // Referenced only by removed versions.
  for (const char* f : {"_deletions/1-1-7.arrow", "_transactions/0-a.txn", "_transactions/1-b.txn",
                        "_transactions/3-d.txn"}) {
    EXPECT_FALSE(Has(f)) << f;
  }
  // Unreferenced files of unknown age are left alone.
  for (const char* f : {"data/orphan.lance", "_deletions/9-9-9.arrow", "_transactions/5-f.txn"}) {
    EXPECT_TRUE(Has(f)) << f;
  }
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, OpenTag(TableLocation(fs_, table_), "keep"));
  EXPECT_EQ(v3.fragments().size(), 2u);
  // Idempotent: nothing more to do.
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult again_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), Options()));
  CleanupStats again = std::move(again_cleaned.stats);
  EXPECT_EQ(again, CleanupStats{});

  // Untagging v3 lets it go, and with it a.lance, b.lance and its deletion file.
  LND_ASSERT_OK(DeleteTag(TableLocation(fs_, table_), "keep"));
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult cleaned_again,
                           CleanupOldVersions(TableLocation(fs_, table_), Options()));
  stats = cleaned_again.stats;
  EXPECT_EQ(stats.old_versions, 1u);
  EXPECT_EQ(stats.data_files_removed, 2u);
  EXPECT_EQ(stats.deletion_files_removed, 1u);
  EXPECT_EQ(stats.transaction_files_removed, 1u);
  EXPECT_FALSE(Has("data/a.lance"));
  EXPECT_FALSE(Has("data/b.lance"));
  EXPECT_TRUE(Has("data/c.lance"));
  EXPECT_TRUE(Has("data/d.lance"));
  LND_ASSERT_OK_AND_ASSIGN(left, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(left.versions, (std::vector<std::uint64_t>{5}));
}

TEST_P(CleanupTest, CountsBytes) {
  MakeHistory();
  std::uint64_t expected = 0;
  for (std::uint64_t v : {1u, 2u, 4u}) {
    LND_ASSERT_OK_AND_ASSIGN(auto f, fs_->OpenForRead(table_ + "/_versions/" +
                                                      ManifestFileName(v, ManifestNaming::kV2)));
    expected += f->Size();
  }
  expected += 100 + 3 * 7;  // 1-1-7.arrow, three .txn files
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), Options()));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_EQ(stats.bytes_removed, expected);
}

TEST_P(CleanupTest, LatestIsKeptEvenWhenOld) {
  const std::int64_t old = kNowSeconds - 30 * kDay;
  PutVersion(1, old, {Frag(0, "a.lance")}, "0-a.txn");
  PutVersion(2, old + 1, {Frag(1, "b.lance")}, "1-b.txn");
  PutFile("data/a.lance");
  PutFile("data/b.lance");
  CleanupOptions o = Options();
  o.older_than = std::chrono::seconds(0);
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), o));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_EQ(stats.old_versions, 1u);
  EXPECT_FALSE(Has("data/a.lance"));
  EXPECT_TRUE(Has("data/b.lance"));
  EXPECT_TRUE(Has("_transactions/1-b.txn"));
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(ds.version(), 2u);
}

TEST_P(CleanupTest, YoungVersionsAndTheirFilesStay) {
  MakeHistory();
  CleanupOptions o = Options();
  o.older_than = std::chrono::seconds(60 * kDay);  // everything is younger than that
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), o));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_EQ(stats, CleanupStats{});
  LND_ASSERT_OK_AND_ASSIGN(VersionList left, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(left.versions.size(), 5u);
}

TEST_P(CleanupTest, UnverifiedFilesByAge) {
  MakeHistory();
  std::map<std::string, Clock::time_point> mtimes = {
      {table_ + "/data/orphan.lance", kNow - hours(24 * 30)},      // abandoned long ago
      {table_ + "/_deletions/9-9-9.arrow", kNow - hours(24 * 3)},  // older than 1 day, < 7
      // _transactions/5-f.txn: unknown age
  };
  CleanupOptions o = Options();
  o.older_than = std::chrono::seconds(kDay);
  o.modified_time = [&](const std::string& p) -> std::optional<Clock::time_point> {
    auto it = mtimes.find(p);
    if (it == mtimes.end()) return std::nullopt;
    return it->second;
  };
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), o));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_FALSE(Has("data/orphan.lance"));
  EXPECT_TRUE(Has("_deletions/9-9-9.arrow"));  // younger than Lance's 7-day threshold
  EXPECT_TRUE(Has("_transactions/5-f.txn"));
  EXPECT_EQ(stats.data_files_removed, 1u);

  // delete_unverified: only the window counts, unknown ages too.
  o.delete_unverified = true;
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult cleaned_again,
                           CleanupOldVersions(TableLocation(fs_, table_), o));
  stats = cleaned_again.stats;
  EXPECT_FALSE(Has("_deletions/9-9-9.arrow"));
  EXPECT_FALSE(Has("_transactions/5-f.txn"));
  // Still never a referenced file.
  for (const char* f : {"data/a.lance", "data/c.lance", "data/d.lance", "_deletions/1-2-8.arrow",
                        "_transactions/4-e.txn"}) {
    EXPECT_TRUE(Has(f)) << f;
  }
}

TEST_P(CleanupTest, IndexDirectories) {
  const std::int64_t old = kNowSeconds - 30 * kDay;
  PutVersion(1, old, {Frag(0, "a.lance")}, "0-a.txn", IndexSection(0x11));
  PutVersion(2, old + 1, {Frag(0, "a.lance")}, "1-b.txn", IndexSection(0x22));
  PutFile("data/a.lance");
  const std::string old_dir = "_indices/11111111-1111-1111-1111-111111111111";
  const std::string new_dir = "_indices/22222222-2222-2222-2222-222222222222";
  PutFile(old_dir + "/page_lookup.lance");
  PutFile(old_dir + "/sub/part.bin");
  PutFile(new_dir + "/page_lookup.lance");
  PutFile("_indices/33333333-3333-3333-3333-333333333333/x.idx");  // unverified
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs_, table_), Options()));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_EQ(stats.index_files_removed, 2u);
  EXPECT_FALSE(Has(old_dir + "/page_lookup.lance"));
  EXPECT_FALSE(Has(old_dir + "/sub/part.bin"));
  EXPECT_TRUE(Has(new_dir + "/page_lookup.lance"));
  EXPECT_TRUE(Has("_indices/33333333-3333-3333-3333-333333333333/x.idx"));
}

TEST_P(CleanupTest, UnreadableManifestDeletesNothing) {
  MakeHistory();
  Put("_versions/" + ManifestFileName(2, ManifestNaming::kV2), {1, 2, 3, 4});
  LND_EXPECT_ERROR(CleanupOldVersions(TableLocation(fs_, table_), Options()), StatusCode::kCorrupt,
                   "");
  LND_ASSERT_OK_AND_ASSIGN(VersionList left, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(left.versions.size(), 5u);
  EXPECT_TRUE(Has("_transactions/0-a.txn"));
  EXPECT_TRUE(Has("_deletions/1-1-7.arrow"));
}

TEST_P(CleanupTest, BadIndexSectionDeletesNothing) {
  const std::int64_t old = kNowSeconds - 30 * kDay;
  PutVersion(1, old, {Frag(0, "a.lance")}, "0-a.txn", std::string("\x0a\x05\x0a", 3));
  PutVersion(2, old + 1, {Frag(1, "b.lance")}, "1-b.txn");
  PutFile("data/a.lance");
  LND_EXPECT_ERROR(CleanupOldVersions(TableLocation(fs_, table_), Options()), StatusCode::kCorrupt,
                   "index section of manifest");
  EXPECT_TRUE(Has("data/a.lance"));
  LND_ASSERT_OK_AND_ASSIGN(VersionList left, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(left.versions.size(), 2u);
}

TEST_P(CleanupTest, Errors) {
  LND_EXPECT_ERROR(CleanupOldVersions(TableLocation(fs_, table_), Options()), StatusCode::kNotFound,
                   "no Lance table");
  CleanupOptions o;
  o.older_than = std::chrono::seconds(-1);
  LND_EXPECT_ERROR(CleanupOldVersions(TableLocation(fs_, table_), o), StatusCode::kInvalidArgument,
                   "older_than must not be negative");
  LND_EXPECT_ERROR(CleanupOldVersions(TableLocation(nullptr, table_), o),
                   StatusCode::kInvalidArgument, "needs a file system");
}

INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, CleanupTest, ::testing::Values(false, true),
                         ops_testing::MemoryOrLocalName);

// Lance 12's table: tags protect v1 and v2; without them only v3 (and what it uses) remains.
TEST(CleanupLance12Test, CleansALance12Table) {
  TempDir temp;
  auto fs = io::LocalFileSystem();
  const std::string table = temp.path() + "/tagged.lance";
  LND_ASSERT_OK(ops_testing::CopyLocalTree(ops_testing::Lance12TaggedTable(), *fs, table));
  CleanupOptions o;
  o.older_than = std::chrono::seconds(0);
  o.modified_time = LocalModifiedTime();
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult stats_cleaned,
                           CleanupOldVersions(TableLocation(fs, table), o));
  CleanupStats stats = std::move(stats_cleaned.stats);
  EXPECT_EQ(stats, CleanupStats{});
  LND_ASSERT_OK(DeleteTag(TableLocation(fs, table), "x"));
  LND_ASSERT_OK(DeleteTag(TableLocation(fs, table), "v-one"));
  LND_ASSERT_OK_AND_ASSIGN(CleanupResult cleaned_again,
                           CleanupOldVersions(TableLocation(fs, table), o));
  stats = cleaned_again.stats;
  EXPECT_EQ(stats.old_versions, 2u);
  EXPECT_EQ(stats.transaction_files_removed, 2u);
  EXPECT_EQ(stats.data_files_removed, 0u);  // v3 still uses both data files
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs, table)));
  EXPECT_EQ(ds.version(), 3u);
  EXPECT_EQ(ds.versions().versions, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(ds.CountRows(), 4u);
}

TEST(CleanupLocalTest, LocalModifiedTimeProtectsFreshOrphans) {
  TempDir temp;
  const std::string file = temp.path() + "/f";
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK(testing::WriteBytes(*fs, file, {1}));
  const auto mtime = LocalModifiedTime()(file);
  ASSERT_TRUE(mtime.has_value());
  EXPECT_LT(std::chrono::abs(Clock::now() - *mtime), std::chrono::minutes(5));
  EXPECT_FALSE(LocalModifiedTime()(temp.path() + "/missing").has_value());
}

}  // namespace
}  // namespace lance_nd::table
