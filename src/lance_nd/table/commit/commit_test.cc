// The commit protocol: versions, .txn files, rebasing over concurrent commits, conflicts,
// carrying a Lance 12 table's state forward.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

using testing::TestBatch;

Result<Dataset> Create(const std::shared_ptr<io::FileSystem>& fs, const std::string& path,
                       std::int64_t rows = 5) {
  std::vector<array::RecordBatchPtr> batches = {TestBatch(0, rows)};
  return WriteTable(TableLocation(fs, path), batches);
}

Result<std::vector<Fragment>> NewFragments(io::FileSystem& /*fs*/, const Dataset& ds,
                                           std::int64_t first, std::int64_t rows) {
  std::vector<array::RecordBatchPtr> batches = {TestBatch(first, rows)};
  return WriteFragments(ds.location(), ds.manifest().fields, batches, WriteOptions{});
}

Transaction AppendTxn(std::uint64_t read_version, std::vector<Fragment> fragments) {
  Transaction t;
  t.read_version = read_version;
  t.operation = op::Append{std::move(fragments)};
  return t;
}

Transaction DeleteTxn(std::uint64_t read_version, Fragment fragment, std::uint64_t rows) {
  Transaction t;
  t.read_version = read_version;
  fragment.deletion_file = DeletionFile{DeletionFileType::kArrowArray, read_version,
                                        fragment.id + 1000, rows, std::nullopt};
  t.operation = op::Delete{{fragment}, {}, "id < 1"};
  return t;
}

TEST(TableCommit, TwoAppendsFromTheSameReadVersionBothLand) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto b, NewFragments(*fs, v1, 200, 3));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, CommitTransaction({fs, "t"}, AppendTxn(1, a)));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, CommitTransaction({fs, "t"}, AppendTxn(1, b)));
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.CountRows(), 10u);
  ASSERT_EQ(v3.fragments().size(), 3u);
  EXPECT_EQ(v3.fragments()[1].id, 1u);
  EXPECT_EQ(v3.fragments()[2].id, 2u);
  EXPECT_EQ(v3.fragments()[2].physical_rows, 3u);
  // The rebased transaction keeps its read version (Lance does the same).
  EXPECT_EQ(v3.transaction()->read_version, 1u);
  EXPECT_EQ(v3.manifest().transaction_file.substr(0, 2), "1-");
  LND_ASSERT_OK_AND_ASSIGN(bool exists,
                           fs->Exists("t/_transactions/" + v3.manifest().transaction_file));
  EXPECT_TRUE(exists);
}

TEST(TableCommit, AppendAfterConcurrentOverwriteIsConflict) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  WriteOptions overwrite;
  overwrite.mode = WriteMode::kOverwrite;
  std::vector<array::RecordBatchPtr> rows = {TestBatch(50, 1)};
  LND_ASSERT_OK(WriteTable(TableLocation(fs, "t"), rows, overwrite).status());
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, AppendTxn(1, a)), StatusCode::kCommitConflict,
                   "version 2 was committed by a Overwrite operation after this Append was "
                   "planned at version 1");
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs, "t")));
  EXPECT_EQ(latest.version(), 2u);
  EXPECT_EQ(latest.CountRows(), 1u);
}

TEST(TableCommit, ConcurrentCreateLosesWithConflict) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK(Create(fs, "t").status());
  Transaction create;
  op::Overwrite overwrite;
  overwrite.schema = testing::NestedFields();
  create.operation = overwrite;
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, create), StatusCode::kCommitConflict,
                   "version 1 was committed by a Overwrite");
}

TEST(TableCommit, DeletesOnDifferentFragmentsRebase) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 4), TestBatch(4, 4)};
  WriteOptions o;
  o.max_rows_per_file = 4;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, "t"), rows, o));
  ASSERT_EQ(v1.fragments().size(), 2u);
  LND_ASSERT_OK(CommitTransaction({fs, "t"}, DeleteTxn(1, v1.fragments()[0], 1)).status());
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3,
                           CommitTransaction({fs, "t"}, DeleteTxn(1, v1.fragments()[1], 2)));
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.CountRows(), 5u);
  ASSERT_TRUE(v3.fragments()[0].deletion_file.has_value());
  ASSERT_TRUE(v3.fragments()[1].deletion_file.has_value());
  EXPECT_EQ(v3.manifest().reader_feature_flags, kFlagDeletionFiles);
  EXPECT_EQ(v3.manifest().writer_feature_flags, kFlagDeletionFiles);
}

TEST(TableCommit, DeletesOnTheSameFragmentMergeTheirDeletionVectors) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t", 6));
  const std::vector<std::uint64_t> first = {1};
  const std::vector<std::uint64_t> second = {4, 5};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v2_deleted, DeleteRows(v1, first));
  Dataset v2 = std::move(v2_deleted.dataset);
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v3_deleted, DeleteRows(v1, second));
  Dataset v3 = std::move(v3_deleted.dataset);  // planned at v1 too
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.CountRows(), 3u);
  ASSERT_EQ(v3.fragments().size(), 1u);
  const Fragment& f = v3.fragments()[0];
  ASSERT_TRUE(f.deletion_file.has_value());
  // A NEW file (Lance's rebase writes a bitmap); v2's file is untouched.
  EXPECT_EQ(f.deletion_file->file_type, DeletionFileType::kBitmap);
  EXPECT_NE(f.deletion_file, v2.fragments()[0].deletion_file);
  LND_ASSERT_OK_AND_ASSIGN(DeletionVector rows, ReadFragmentDeletions(TableLocation(fs, "t"), f));
  EXPECT_EQ(rows.offsets(), (std::vector<std::uint32_t>{1, 4, 5}));
  LND_ASSERT_OK_AND_ASSIGN(DeletionVector old,
                           ReadFragmentDeletions(TableLocation(fs, "t"), v2.fragments()[0]));
  EXPECT_EQ(old.offsets(), (std::vector<std::uint32_t>{1}));
  // The rebased transaction has its own .txn file recording the merged fragment.
  ASSERT_TRUE(v3.transaction().has_value());
  ASSERT_NE(v3.transaction()->get<op::Delete>(), nullptr);
  EXPECT_EQ(v3.transaction()->get<op::Delete>()->updated_fragments.at(0).deletion_file,
            f.deletion_file);
  LND_ASSERT_OK_AND_ASSIGN(bool exists,
                           fs->Exists("t/_transactions/" + v3.manifest().transaction_file));
  EXPECT_TRUE(exists);
  // The same again from v1 on a third writer: merges over both.
  const std::vector<std::uint64_t> third = {0};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v4_deleted, DeleteRows(v1, third));
  Dataset v4 = std::move(v4_deleted.dataset);
  EXPECT_EQ(v4.CountRows(), 2u);
}

TEST(TableCommit, ConcurrentDeletesThatDeleteEveryRowRemoveTheFragment) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t", 3));
  const std::vector<std::uint64_t> first = {0, 1};
  const std::vector<std::uint64_t> second = {2};
  LND_ASSERT_OK(DeleteRows(v1, first).status());
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v3_deleted, DeleteRows(v1, second));
  Dataset v3 = std::move(v3_deleted.dataset);
  EXPECT_EQ(v3.CountRows(), 0u);
  EXPECT_TRUE(v3.fragments().empty());
}

TEST(TableCommit, DeleteOfAFragmentAnotherDeleteRemovedConflicts) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t", 3));
  const std::vector<std::uint64_t> all = {0, 1, 2};
  const std::vector<std::uint64_t> one = {1};
  LND_ASSERT_OK(DeleteRows(v1, all).status());
  auto st = DeleteRows(v1, one).status();
  LND_EXPECT_ERROR(st, StatusCode::kCommitConflict,
                   "version 2 was committed by a Delete operation after this Delete was planned "
                   "at version 1, and it removed fragment 0");
  EXPECT_TRUE(st.retryable());
}

TEST(TableCommit, DeleteRacingACompactionConflictsNamingIt) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 4)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, "t"), rows));
  std::vector<array::RecordBatchPtr> more = {TestBatch(4, 4)};
  WriteOptions append;
  append.mode = WriteMode::kAppend;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs, "t"), more, append));
  ASSERT_EQ(v2.fragments().size(), 2u);
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(v2));
  CompactionMetrics m = std::move(m_compacted.metrics);
  ASSERT_EQ(m.committed_version, 3u);
  const std::vector<std::uint64_t> one = {1};
  auto st = DeleteRows(v2, one).status();
  LND_EXPECT_ERROR(st, StatusCode::kCommitConflict,
                   "version 3 was committed by a Rewrite operation after this Delete was planned "
                   "at version 2");
  EXPECT_TRUE(st.retryable());
}

TEST(TableCommit, AppendRebasesOverDeleteAndKeepsTheDeletion) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  LND_ASSERT_OK(CommitTransaction({fs, "t"}, DeleteTxn(1, v1.fragments()[0], 1)).status());
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, CommitTransaction({fs, "t"}, AppendTxn(1, a)));
  EXPECT_EQ(v3.CountRows(), 6u);
  EXPECT_TRUE(v3.fragments()[0].deletion_file.has_value());
}

TEST(TableCommit, UnknownWinnerOperationIsConflictNamingIt) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  // Version 2 written by "someone else" with an operation lance-nd does not know (field 116).
  Manifest m = v1.manifest();
  m.version = 2;
  m.transaction_file = "1-x.txn";
  const std::vector<std::uint8_t> txn = {0x08, 0x01, 0xa2, 0x07, 0x00};
  LND_ASSERT_OK(testing::WriteBytes(*fs, "t/_transactions/1-x.txn", txn));
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  LND_ASSERT_OK(
      fs->CreateIfAbsent("t/_versions/" + ManifestFileName(2, ManifestNaming::kV2), bytes));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, AppendTxn(1, a)), StatusCode::kCommitConflict,
                   "Unknown (transaction field 116)");
}

TEST(TableCommit, WinnerWithoutTransactionIsConflict) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  Manifest m = v1.manifest();
  m.version = 2;
  m.transaction_file.clear();
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  LND_ASSERT_OK(
      fs->CreateIfAbsent("t/_versions/" + ManifestFileName(2, ManifestNaming::kV2), bytes));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, AppendTxn(1, a)), StatusCode::kCommitConflict,
                   "records no transaction");
}

TEST(TableCommit, KeepsV1NamingOfTheTable) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "src"));
  // The same version 1 under a V1 name in another table directory.
  LND_ASSERT_OK_AND_ASSIGN(auto in, fs->OpenForRead(v1.manifest_path()));
  LND_ASSERT_OK_AND_ASSIGN(io::Bytes bytes, io::ReadWholeFile(*in));
  LND_ASSERT_OK(testing::WriteBytes(*fs, "t/_versions/1.manifest",
                                    std::vector<std::uint8_t>(bytes->begin(), bytes->end())));
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v1, 100, 2));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, CommitTransaction({fs, "t"}, AppendTxn(1, a)));
  EXPECT_EQ(v2.versions().naming, ManifestNaming::kV1);
  LND_ASSERT_OK_AND_ASSIGN(bool exists, fs->Exists("t/_versions/2.manifest"));
  EXPECT_TRUE(exists);
}

TEST(TableCommit, ReserveRewriteUpdateConfigRestore) {
  auto fs = io::MakeMemoryFileSystem();
  std::vector<array::RecordBatchPtr> rows = {TestBatch(0, 4), TestBatch(4, 4)};
  WriteOptions o;
  o.max_rows_per_file = 4;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs, "t"), rows, o));

  Transaction reserve;
  reserve.read_version = 1;
  reserve.operation = op::ReserveFragments{2};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, CommitTransaction({fs, "t"}, reserve));
  EXPECT_EQ(v2.manifest().max_fragment_id, std::optional<std::uint32_t>(3));
  EXPECT_EQ(v2.fragments().size(), 2u);

  // Compaction planned at version 1: fragments 0 and 1 -> one new fragment with reserved id 2.
  std::vector<array::RecordBatchPtr> all = {TestBatch(0, 8)};
  LND_ASSERT_OK_AND_ASSIGN(auto merged, WriteFragments(TableLocation(fs, "t"), v1.manifest().fields,
                                                       all, WriteOptions{}));
  merged[0].id = 2;
  Transaction rewrite;
  rewrite.read_version = 1;
  rewrite.operation = op::Rewrite{{RewriteGroup{v1.fragments(), merged}}};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, CommitTransaction({fs, "t"}, rewrite));
  ASSERT_EQ(v3.fragments().size(), 1u);
  EXPECT_EQ(v3.fragments()[0].id, 2u);
  EXPECT_EQ(v3.CountRows(), 8u);
  EXPECT_EQ(v3.manifest().max_fragment_id, std::optional<std::uint32_t>(3));

  Transaction config;
  config.read_version = 3;
  op::UpdateConfig update;
  update.config_updates = UpdateMap{{{"lance.auto_cleanup.interval", "20"}}, false};
  update.table_metadata_updates = UpdateMap{{{"owner", "nd"}}, false};
  update.field_metadata_updates = {{0, UpdateMap{{{"unit", "count"}}, false}}};
  config.operation = update;
  LND_ASSERT_OK_AND_ASSIGN(Dataset v4, CommitTransaction({fs, "t"}, config));
  EXPECT_EQ(
      v4.manifest().config,
      (std::vector<std::pair<std::string, std::string>>{{"lance.auto_cleanup.interval", "20"}}));
  EXPECT_EQ(v4.manifest().writer_feature_flags, kFlagTableConfig);
  EXPECT_EQ(v4.manifest().table_metadata,
            (std::vector<std::pair<std::string, std::string>>{{"owner", "nd"}}));
  EXPECT_EQ(v4.manifest().fields[0].metadata.Get("unit"), std::optional<std::string_view>("count"));

  // An append after the config change keeps config, table metadata and field metadata.
  LND_ASSERT_OK_AND_ASSIGN(auto a, NewFragments(*fs, v4, 100, 2));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v5, CommitTransaction({fs, "t"}, AppendTxn(4, a)));
  EXPECT_EQ(v5.manifest().config, v4.manifest().config);
  EXPECT_EQ(v5.manifest().table_metadata, v4.manifest().table_metadata);
  EXPECT_EQ(v5.manifest().fields, v4.manifest().fields);
  EXPECT_EQ(v5.fragments().back().id, 4u);  // after the reserved ids

  Transaction restore;
  restore.read_version = 5;
  restore.operation = op::Restore{1};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v6, CommitTransaction({fs, "t"}, restore));
  EXPECT_EQ(v6.version(), 6u);
  EXPECT_EQ(v6.fragments(), v1.fragments());
  EXPECT_EQ(v6.manifest().max_fragment_id, std::optional<std::uint32_t>(4));
  EXPECT_EQ(v6.transaction()->type(), OperationType::kRestore);
}

TEST(TableCommit, RewriteOfAFragmentDeletedConcurrentlyConflicts) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, "t"));
  LND_ASSERT_OK(CommitTransaction({fs, "t"}, DeleteTxn(1, v1.fragments()[0], 1)).status());
  Transaction rewrite;
  rewrite.read_version = 1;
  rewrite.operation = op::Rewrite{{RewriteGroup{v1.fragments(), {}}}};
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, rewrite), StatusCode::kCommitConflict,
                   "by a Delete operation after this Rewrite");
}

TEST(TableCommit, CannotWriteCreateIndex) {
  auto fs = io::MakeMemoryFileSystem();
  LND_ASSERT_OK(Create(fs, "t").status());
  Transaction t;
  t.read_version = 1;
  t.operation = op::CreateIndex{};
  LND_EXPECT_ERROR(CommitTransaction({fs, "t"}, t), StatusCode::kInvalidArgument,
                   "cannot write a transaction of operation 'CreateIndex'");
}

TEST(TableCommit, NewUuidIsVersion4) {
  const std::string u = NewUuid();
  ASSERT_EQ(u.size(), 36u);
  EXPECT_EQ(u[8], '-');
  EXPECT_EQ(u[14], '4');
  EXPECT_NE(std::string("89ab").find(u[19]), std::string::npos);
  EXPECT_NE(NewUuid(), u);
}

void RaceAppends(std::shared_ptr<io::FileSystem> fs, const std::string& path) {
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Create(fs, path, 3));
  constexpr int kWriters = 6;
  std::vector<std::vector<Fragment>> fragments;
  for (int i = 0; i < kWriters; ++i) {
    LND_ASSERT_OK_AND_ASSIGN(auto f, NewFragments(*fs, v1, 1000 * (i + 1), i + 1));
    fragments.push_back(std::move(f));
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      auto r = CommitTransaction({fs, path}, AppendTxn(1, fragments[static_cast<std::size_t>(i)]));
      if (!r.ok()) {
        ADD_FAILURE() << r.status().ToString();
        ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  LND_ASSERT_OK_AND_ASSIGN(Dataset latest, Dataset::Open(TableLocation(fs, path)));
  EXPECT_EQ(latest.version(), 1u + kWriters);
  EXPECT_EQ(latest.CountRows(), 3u + 21u);
  ASSERT_EQ(latest.fragments().size(), 1u + kWriters);
  for (std::size_t i = 0; i < latest.fragments().size(); ++i) {
    EXPECT_EQ(latest.fragments()[i].id, i);
  }
  LND_ASSERT_OK_AND_ASSIGN(auto txns, fs->List(path + "/_transactions"));
  EXPECT_EQ(txns.size(), 1u + kWriters);
}

TEST(TableCommit, RacingThreadsAllLandInMemory) { RaceAppends(io::MakeMemoryFileSystem(), "t"); }

TEST(TableCommit, RacingThreadsAllLandOnLocalDisk) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_commit_race_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  RaceAppends(io::LocalFileSystem(), (dir / "t.lance").string());
  std::filesystem::remove_all(dir);
}

std::string GoldenPath() {
  return lance_nd::testing::SourcePath("src/lance_nd/table/testdata/lance12_nested.lance");
}

TEST(TableCommit, AppendToLance12TableKeepsItsState) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_commit_golden_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "t.lance").string();
  std::filesystem::copy(GoldenPath(), path, std::filesystem::copy_options::recursive);
  auto fs = io::LocalFileSystem();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v4, Dataset::Open(TableLocation(fs, path)));
  ASSERT_EQ(v4.version(), 4u);

  // Give the table an index section, config and table metadata (version 5, hand-made).
  Manifest m5 = v4.manifest();
  m5.version = 5;
  m5.index_section_blob = std::string("\x0a\x03\x1a\x01x", 5);  // IndexSection{indices{name x}}
  m5.config = {{"lance.test", "1"}};
  m5.table_metadata = {{"owner", "lance"}};
  m5.writer_feature_flags |= kFlagTableConfig;
  Transaction t5;
  t5.read_version = 4;
  t5.uuid = NewUuid();
  op::UpdateConfig config;
  config.config_updates = UpdateMap{{{"lance.test", "1"}}, false};
  t5.operation = config;
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m5, &t5));
  LND_ASSERT_OK(
      fs->CreateIfAbsent(path + "/_versions/" + ManifestFileName(5, ManifestNaming::kV2), bytes));

  // Append (planned at version 4, so it also rebases over version 5) a copy of fragment 1.
  Fragment copy = v4.fragments()[1];
  copy.id = 0;
  copy.deletion_file.reset();
  LND_ASSERT_OK_AND_ASSIGN(Dataset v6, CommitTransaction({fs, path}, AppendTxn(4, {copy})));
  EXPECT_EQ(v6.version(), 6u);
  EXPECT_EQ(v6.versions().versions, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(v6.manifest().index_section_blob, m5.index_section_blob);
  EXPECT_EQ(v6.manifest().config, m5.config);
  EXPECT_EQ(v6.manifest().table_metadata, m5.table_metadata);
  EXPECT_EQ(v6.manifest().fields, v4.manifest().fields);  // incl. Lance's encoding members
  EXPECT_FALSE(v4.manifest().fields[0].unmodelled_proto.empty());
  EXPECT_EQ(v6.manifest().schema_metadata, v4.manifest().schema_metadata);
  EXPECT_EQ(v6.manifest().data_format_version, "2.2");
  EXPECT_EQ(v6.manifest().reader_feature_flags, kFlagDeletionFiles);
  EXPECT_EQ(v6.manifest().writer_feature_flags, kFlagDeletionFiles | kFlagTableConfig);
  ASSERT_EQ(v6.fragments().size(), 3u);
  EXPECT_EQ(v6.fragments()[2].id, 2u);
  EXPECT_EQ(v6.manifest().max_fragment_id, std::optional<std::uint32_t>(2));
  EXPECT_EQ(v6.CountRows(), 13u + 5u);
  EXPECT_EQ(v6.manifest().writer_library, "lance-nd");
  // Older versions are untouched.
  LND_ASSERT_OK_AND_ASSIGN(Dataset again, Dataset::Open(TableLocation(fs, path), 4));
  EXPECT_EQ(again.manifest().writer_library, "lance");
  EXPECT_EQ(again.CountRows(), 13u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd::table
