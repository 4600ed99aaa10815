// Writing to tables with stable row ids (flag 2) like Lance 12: appends number new rows from
// next_row_id (also after losing a race), deletes keep ids, compaction keeps them (after a
// ReserveFragments commit), creates can enable them; what is not done is refused.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/rowids/row_id_codec.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"
#include "table.pb.h"

namespace lance_nd::table {
namespace {

using testing::TestBatch;
using testing::TestSchema;

std::string GoldenDir() {
  return lance_nd::testing::SourcePath("src/lance_nd/table/testdata/lance12_rowids.lance");
}

class RowIdsWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("lnd_rowids_w_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string CopyGolden() {
    std::filesystem::copy(GoldenDir(), dir_ / "r.lance", std::filesystem::copy_options::recursive);
    return (dir_ / "r.lance").string();
  }

  // (_rowid, _rowaddr) of every live row, in table order.
  static std::vector<std::uint64_t> RowIds(const Dataset& ds) {
    TableScanOptions o;
    o.projection = {"_rowid"};
    auto b = ReadTable(ds, o);
    EXPECT_TRUE(b.ok()) << b.status().ToString();
    std::vector<std::uint64_t> out;
    if (!b.ok()) return out;
    const auto& a = *(*b)->column(0);
    for (std::int64_t i = 0; i < a.length; ++i) out.push_back(a.values<std::uint64_t>()[i]);
    return out;
  }

  static internal::FragmentRowIdMeta Meta(const Dataset& ds, const Fragment& f) {
    auto m = internal::ReadFragmentRowIdMeta(ds.location(), f);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    return m.ok() ? *m : internal::FragmentRowIdMeta{};
  }

  static std::vector<std::uint64_t> Iota(std::uint64_t from, std::uint64_t n) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < n; ++i) v.push_back(from + i);
    return v;
  }

  std::filesystem::path dir_;
  std::shared_ptr<io::FileSystem> fs_ = io::LocalFileSystem();
};

TEST_F(RowIdsWriteTest, LanceSequencesReEncodeToTheSameBytes) {
  // Every sequence and version run Lance 12 wrote (ranges, and after its compaction, holes)
  // comes out byte-identical from our encoder: our forms are Lance's.
  int checked = 0;
  for (std::uint64_t v = 1; v <= 8; ++v) {
    LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, GoldenDir()), v));
    for (const Fragment& f : ds.fragments()) {
      lance::table::DataFragment p;
      ASSERT_TRUE(p.ParseFromString(f.unmodelled_proto));
      LND_ASSERT_OK_AND_ASSIGN(
          auto segs, internal::DecodeRowIdSegments(p.inline_row_ids(), f.id, f.physical_rows));
      EXPECT_EQ(internal::EncodeRowIdSegments(segs), p.inline_row_ids()) << "fragment " << f.id;
      LND_ASSERT_OK_AND_ASSIGN(
          auto runs, internal::DecodeVersionRuns(p.inline_created_at_versions(), f.id, 1 << 20));
      EXPECT_EQ(internal::EncodeVersionRuns(runs), p.inline_created_at_versions());
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST_F(RowIdsWriteTest, AppendNumbersNewRowsFromNextRowId) {
  const std::string path = CopyGolden();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, path)));
  const std::uint64_t next = ds.manifest().next_row_id;
  const auto before = RowIds(ds);
  LND_ASSERT_OK_AND_ASSIGN(auto rows, ReadTable(ds));
  WriteOptions w;
  w.mode = WriteMode::kAppend;
  std::vector<array::RecordBatchPtr> batches = {rows};
  LND_ASSERT_OK_AND_ASSIGN(Dataset after, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(after.version(), ds.version() + 1);
  EXPECT_EQ(after.manifest().reader_feature_flags & kFlagStableRowIds, kFlagStableRowIds);
  EXPECT_EQ(after.manifest().writer_feature_flags & kFlagStableRowIds, kFlagStableRowIds);
  const std::uint64_t n = static_cast<std::uint64_t>(rows->num_rows());
  EXPECT_EQ(after.manifest().next_row_id, next + n);
  auto expected = before;
  for (std::uint64_t id : Iota(next, n)) expected.push_back(id);
  EXPECT_EQ(RowIds(after), expected);
  // The new fragment: one Range segment, created_at = last_updated_at = the new version.
  const Fragment& f = after.fragments().back();
  const auto meta = Meta(after, f);
  EXPECT_EQ(meta.row_ids, (internal::SegmentList{Iota(next, n)}));
  EXPECT_EQ(meta.created_at, internal::UniformVersionRuns(n, after.version()));
  EXPECT_EQ(meta.last_updated_at, meta.created_at);
}

TEST_F(RowIdsWriteTest, RebasedAppendTakesIdsAfterTheWinner) {
  const std::string path = CopyGolden();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, path)));
  const std::uint64_t next = ds.manifest().next_row_id;
  LND_ASSERT_OK_AND_ASSIGN(auto rows, ReadTable(ds));
  std::vector<array::RecordBatchPtr> batches = {rows};
  WriteOptions w;
  w.mode = WriteMode::kAppend;
  auto plan = [&]() -> Result<Transaction> {
    Transaction t;
    t.read_version = ds.version();
    op::Append append;
    LND_ASSIGN_OR_RETURN(append.fragments, WriteFragments(TableLocation(fs_, path),
                                                          ds.manifest().fields, batches, w));
    t.operation = std::move(append);
    return t;
  };
  LND_ASSERT_OK_AND_ASSIGN(Transaction first, plan());
  LND_ASSERT_OK_AND_ASSIGN(Transaction second, plan());
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, CommitTransaction({fs_, path}, first));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, CommitTransaction({fs_, path}, second));  // rebased
  const std::uint64_t n = static_cast<std::uint64_t>(rows->num_rows());
  EXPECT_EQ(v2.version(), v1.version() + 1);
  EXPECT_EQ(Meta(v1, v1.fragments().back()).row_ids, (internal::SegmentList{Iota(next, n)}));
  EXPECT_EQ(Meta(v2, v2.fragments().back()).row_ids, (internal::SegmentList{Iota(next + n, n)}));
  EXPECT_EQ(v2.manifest().next_row_id, next + 2 * n);
}

TEST_F(RowIdsWriteTest, DeleteKeepsIdsAndCompactionKeepsThemAfterAReservation) {
  const std::string path = CopyGolden();
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, Dataset::Open(TableLocation(fs_, path)));
  const std::uint64_t next = ds.manifest().next_row_id;
  // Delete every third live row by address.
  TableScanOptions o;
  o.projection = {"_rowaddr"};
  LND_ASSERT_OK_AND_ASSIGN(auto b, ReadTable(ds, o));
  const auto ids = RowIds(ds);
  ASSERT_EQ(static_cast<std::size_t>(b->num_rows()), ids.size());
  std::vector<std::uint64_t> addrs;
  std::vector<std::uint64_t> kept;
  for (std::int64_t i = 0; i < b->num_rows(); ++i) {
    if (i % 3 == 0) {
      addrs.push_back(b->column(0)->values<std::uint64_t>()[i]);
    } else {
      kept.push_back(ids[static_cast<std::size_t>(i)]);
    }
  }
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult deleted_deleted, DeleteRows(ds, addrs));
  Dataset deleted = std::move(deleted_deleted.dataset);
  EXPECT_EQ(RowIds(deleted), kept);
  EXPECT_EQ(deleted.manifest().next_row_id, next);
  EXPECT_EQ(deleted.manifest().reader_feature_flags & kFlagStableRowIds, kFlagStableRowIds);

  CompactionOptions c;
  c.target_rows_per_fragment = 40;  // several new fragments
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(deleted, c));
  CompactionMetrics m = std::move(m_compacted.metrics);
  ASSERT_GT(m.fragments_added, 1u);
  EXPECT_EQ(m.committed_version, deleted.version() + 2);  // ReserveFragments, then Rewrite
  LND_ASSERT_OK_AND_ASSIGN(Dataset reserve,
                           Dataset::Open(TableLocation(fs_, path), deleted.version() + 1));
  EXPECT_EQ(*reserve.manifest().max_fragment_id,
            *deleted.manifest().max_fragment_id + m.fragments_added);
  LND_ASSERT_OK_AND_ASSIGN(Dataset compacted, Dataset::Open(TableLocation(fs_, path)));
  EXPECT_EQ(RowIds(compacted), kept);
  EXPECT_EQ(compacted.manifest().next_row_id, next);
  std::uint64_t live = 0;
  for (const Fragment& f : compacted.fragments()) {
    EXPECT_TRUE(f.has_row_ids);
    const auto meta = Meta(compacted, f);
    EXPECT_EQ(meta.created_at.empty(), f.physical_rows == 0);
    live += f.num_rows();
  }
  EXPECT_EQ(live, kept.size());
  // The reserved ids are the new fragments' ids.
  for (std::uint64_t id = *deleted.manifest().max_fragment_id + 1;
       id <= *reserve.manifest().max_fragment_id; ++id) {
    EXPECT_TRUE(std::any_of(compacted.fragments().begin(), compacted.fragments().end(),
                            [&](const Fragment& f) { return f.id == id; }))
        << "fragment " << id;
  }
}

TEST_F(RowIdsWriteTest, CreateWithStableRowIdsThenAppendOverwriteAndCompact) {
  const std::string path = (dir_ / "t.lance").string();
  WriteOptions w;
  w.enable_stable_row_ids = true;
  w.max_rows_per_file = 4;
  std::vector<array::RecordBatchPtr> batches = {TestBatch(0, 10)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset created, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(created.manifest().reader_feature_flags & kFlagStableRowIds, kFlagStableRowIds);
  EXPECT_EQ(created.manifest().next_row_id, 10u);
  EXPECT_EQ(RowIds(created), Iota(0, 10));
  EXPECT_EQ(Meta(created, created.fragments()[1]).created_at, internal::UniformVersionRuns(4, 1));

  w.mode = WriteMode::kAppend;
  w.enable_stable_row_ids = false;  // the table's setting wins
  batches = {TestBatch(10, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset appended, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(RowIds(appended), Iota(0, 13));

  const std::vector<std::uint64_t> gone = {(std::uint64_t{1} << 32) | 1};  // row id 5
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult deleted_deleted, DeleteRows(appended, gone));
  Dataset deleted = std::move(deleted_deleted.dataset);
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(deleted));
  CompactionMetrics m = std::move(m_compacted.metrics);
  EXPECT_EQ(m.fragments_added, 1u);
  LND_ASSERT_OK_AND_ASSIGN(Dataset compacted, Dataset::Open(TableLocation(fs_, path)));
  auto expected = Iota(0, 13);
  expected.erase(expected.begin() + 5);
  EXPECT_EQ(RowIds(compacted), expected);
  // Lance's segments: the old fragments' pieces, adjacent ranges merged (8 9 + 10 11 12).
  const auto meta = Meta(compacted, compacted.fragments()[0]);
  EXPECT_EQ(meta.row_ids, (internal::SegmentList{{0, 1, 2, 3}, {4, 6, 7}, Iota(8, 5)}));
  // created_at keeps each row's version: 10 rows of version 1, then 3 of version 2.
  ASSERT_EQ(meta.created_at.size(), 4u);  // runs cut at the old fragments' ends (4, 3, 2, 3)
  EXPECT_EQ(meta.created_at.back().version, 2u);

  w.mode = WriteMode::kOverwrite;
  batches = {TestBatch(0, 2)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset over, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(RowIds(over), Iota(13, 2));  // Lance keeps counting across an overwrite
  EXPECT_EQ(over.manifest().next_row_id, 15u);
}

TEST_F(RowIdsWriteTest, EvolveAndRestoreKeepIdsAndNextRowIdNeverGoesBack) {
  const std::string path = (dir_ / "t.lance").string();
  WriteOptions w;
  w.enable_stable_row_ids = true;
  std::vector<array::RecordBatchPtr> batches = {TestBatch(0, 5)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, WriteTable(TableLocation(fs_, path), batches, w));
  w.mode = WriteMode::kAppend;
  batches = {TestBatch(5, 4)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(v2.manifest().next_row_id, 9u);

  // A new column (a Merge of the same fragments) keeps every fragment's ids.
  auto fields = TestSchema()->fields();
  fields.push_back(array::MakeField("extra", array::Int32()));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, EvolveSchema(v2, array::Schema(fields)));
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(RowIds(v3), Iota(0, 9));
  EXPECT_EQ(v3.manifest().reader_feature_flags & kFlagStableRowIds, kFlagStableRowIds);

  // Restore version 1: its rows and ids, but next_row_id stays 9, so the next append does not
  // hand out ids 5..8 again.
  LND_ASSERT_OK_AND_ASSIGN(Dataset restored, Restore(v1));
  EXPECT_EQ(RowIds(restored), Iota(0, 5));
  EXPECT_EQ(restored.manifest().next_row_id, 9u);
  batches = {TestBatch(20, 2)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset v5, WriteTable(TableLocation(fs_, path), batches, w));
  EXPECT_EQ(RowIds(v5), (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 9, 10}));
}

TEST_F(RowIdsWriteTest, WhatIsNotDoneIsRefused) {
  const std::string path = (dir_ / "t.lance").string();
  WriteOptions w;
  w.enable_stable_row_ids = true;
  std::vector<array::RecordBatchPtr> empty = {TestBatch(0, 0)};
  LND_EXPECT_ERROR(WriteTable(TableLocation(fs_, path), empty, w), StatusCode::kNotImplemented,
                   "with stable row ids needs at least one row");

  std::vector<array::RecordBatchPtr> batches = {TestBatch(0, 3)};
  LND_ASSERT_OK_AND_ASSIGN(Dataset ds, WriteTable(TableLocation(fs_, path), batches, w));
  Transaction update;
  update.read_version = ds.version();
  op::Update removal;
  removal.removed_fragment_ids = {0};
  update.operation = removal;
  LND_EXPECT_ERROR(CommitTransaction({fs_, path}, update), StatusCode::kNotImplemented,
                   "the table uses stable row ids (feature flag 2)");

  // A fragment without row ids cannot enter a stable-row-id table by a Merge.
  Transaction merge;
  merge.read_version = ds.version();
  op::Merge replaced{ds.fragments(), ds.manifest().fields, {}};
  replaced.fragments[0].has_row_ids = false;
  replaced.fragments[0].unmodelled_proto.clear();
  merge.operation = replaced;
  LND_EXPECT_ERROR(CommitTransaction({fs_, path}, merge), StatusCode::kInvalidArgument,
                   "fragment 0 carries no row ids but the table uses stable row ids");

  // Numbered fragments cannot turn stable row ids on for an existing table.
  const std::string plain = (dir_ / "plain.lance").string();
  LND_ASSERT_OK_AND_ASSIGN(Dataset p, WriteTable(TableLocation(fs_, plain), batches, {}));
  EXPECT_EQ(p.manifest().reader_feature_flags & kFlagStableRowIds, 0u);
  Transaction append;
  append.read_version = p.version();
  op::Append numbered{ds.fragments()};
  numbered.fragments[0].id = 0;
  append.operation = numbered;
  LND_EXPECT_ERROR(CommitTransaction({fs_, plain}, append), StatusCode::kInvalidArgument,
                   "stable row ids can only be enabled when a table is created");
}

}  // namespace
}  // namespace lance_nd::table
