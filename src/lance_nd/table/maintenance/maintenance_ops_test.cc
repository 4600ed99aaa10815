// DeleteRows, Restore and Compact on tables written with WriteTable (memory and local disk).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/maintenance/compaction_plan.h"
#include "lance_nd/table/maintenance/table_fixture_test_util.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/tags/ops_test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

std::uint64_t Addr(std::uint64_t frag, std::uint64_t offset) { return (frag << 32) | offset; }

array::RecordBatchPtr Ids(std::int64_t from, std::int64_t to) {
  std::vector<std::optional<std::int64_t>> ids;
  std::vector<std::optional<double>> x;
  for (std::int64_t i = from; i < to; ++i) {
    ids.push_back(i);
    x.push_back(static_cast<double>(i) / 2);
  }
  auto schema = array::MakeSchema(
      {array::MakeField("id", array::Int64(), false), array::MakeField("x", array::Float64())});
  return array::RecordBatch::Make(schema, to - from,
                                  {array::MakePrimitiveArray<std::int64_t>(array::Int64(), ids),
                                   array::MakePrimitiveArray<double>(array::Float64(), x)})
      .value();
}

std::string IdsOf(const array::RecordBatch& b) { return array::PrettyPrint(*b.column(0)); }
std::string Expected(std::vector<std::int64_t> ids) {
  std::vector<std::optional<std::int64_t>> v(ids.begin(), ids.end());
  return array::PrettyPrint(*array::MakePrimitiveArray<std::int64_t>(array::Int64(), v));
}

class MaintenanceOpsTest : public ops_testing::MemoryOrLocalTableTest {
 protected:
  // Create with `first` rows per fragment, then one append per extra range.
  void Make(std::int64_t rows, std::int64_t rows_per_file) {
    WriteOptions o;
    o.max_rows_per_file = rows_per_file;
    std::vector<array::RecordBatchPtr> b = {Ids(0, rows)};
    auto ds = WriteTable(TableLocation(fs_, table_), b, o);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  }
  void Append(std::int64_t from, std::int64_t to) {
    WriteOptions o;
    o.mode = WriteMode::kAppend;
    std::vector<array::RecordBatchPtr> b = {Ids(from, to)};
    auto ds = WriteTable(TableLocation(fs_, table_), b, o);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  }
  Dataset Open(std::optional<std::uint64_t> v = std::nullopt) {
    return Dataset::Open(TableLocation(fs_, table_), v).value();
  }
  std::string Content(const Dataset& ds) { return IdsOf(*ReadTable(ds).value()); }
};

TEST_P(MaintenanceOpsTest, DeleteRowsUnionsAndIsIdempotent) {
  Make(10, 5);  // fragments 0 (ids 0..4), 1 (5..9)
  Dataset v1 = Open();
  ASSERT_EQ(v1.fragments().size(), 2u);
  const std::vector<std::uint64_t> first = {Addr(0, 1), Addr(0, 3), Addr(1, 0), Addr(0, 3)};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v2_deleted, DeleteRows(v1, first));
  EXPECT_EQ(v2_deleted.num_deleted_rows, 3u);  // offset 3 twice
  Dataset v2 = std::move(v2_deleted.dataset);
  EXPECT_EQ(v2.version(), 2u);
  ASSERT_TRUE(v2.transaction().has_value());
  EXPECT_EQ(v2.transaction()->type(), OperationType::kDelete);
  EXPECT_EQ(Content(v2), Expected({0, 2, 4, 6, 7, 8, 9}));
  EXPECT_EQ(v2.fragments()[0].deletion_file->num_deleted_rows, 2u);
  // Same addresses again: nothing new, no commit.
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult same_deleted, DeleteRows(v2, first));
  EXPECT_EQ(same_deleted.num_deleted_rows, 0u);
  Dataset same = std::move(same_deleted.dataset);
  EXPECT_EQ(same.version(), 2u);
  EXPECT_EQ(Open().version(), 2u);
  // Old and new rows: the new deletion file holds the union.
  const std::vector<std::uint64_t> more = {Addr(0, 1), Addr(0, 2)};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v3_deleted, DeleteRows(v2, more));
  EXPECT_EQ(v3_deleted.num_deleted_rows, 1u);  // offset 1 was deleted already
  Dataset v3 = std::move(v3_deleted.dataset);
  EXPECT_EQ(v3.version(), 3u);
  EXPECT_EQ(v3.fragments()[0].deletion_file->num_deleted_rows, 3u);
  EXPECT_EQ(Content(v3), Expected({0, 4, 6, 7, 8, 9}));
  // Deleting every remaining row of fragment 1 removes it.
  const std::vector<std::uint64_t> rest = {Addr(1, 1), Addr(1, 2), Addr(1, 3), Addr(1, 4)};
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult v4_deleted, DeleteRows(v3, rest));
  EXPECT_EQ(v4_deleted.num_deleted_rows, 4u);
  Dataset v4 = std::move(v4_deleted.dataset);
  ASSERT_EQ(v4.fragments().size(), 1u);
  EXPECT_EQ(v4.fragments()[0].id, 0u);
  ASSERT_NE(v4.transaction()->get<op::Delete>(), nullptr);
  EXPECT_EQ(v4.transaction()->get<op::Delete>()->deleted_fragment_ids,
            (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(Content(v4), Expected({0, 4}));
  // Empty input: nothing to do.
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult none_deleted,
                           DeleteRows(v4, std::span<const std::uint64_t>{}));
  Dataset none = std::move(none_deleted.dataset);
  EXPECT_EQ(none.version(), 4u);
}

TEST_P(MaintenanceOpsTest, DeleteRowsErrors) {
  Make(10, 5);
  Dataset v1 = Open();
  const std::vector<std::uint64_t> unknown = {Addr(0, 0), Addr(7, 1)};
  LND_EXPECT_ERROR(DeleteRows(v1, unknown), StatusCode::kInvalidArgument,
                   "cannot delete row address 30064771073 (fragment 7, offset 1): version 1 of "
                   "table");
  LND_EXPECT_ERROR(DeleteRows(v1, unknown), StatusCode::kInvalidArgument, "has no fragment 7");
  const std::vector<std::uint64_t> beyond = {Addr(1, 5)};
  LND_EXPECT_ERROR(DeleteRows(v1, beyond), StatusCode::kInvalidArgument,
                   "(fragment 1, offset 5): fragment 1 has only 5 rows");
  EXPECT_EQ(Open().version(), 1u);  // nothing committed
}

TEST_P(MaintenanceOpsTest, RestoreCommitsOldContent) {
  Make(10, 5);
  Append(10, 12);
  const std::vector<std::uint64_t> del = {Addr(0, 0), Addr(2, 1)};
  LND_ASSERT_OK(DeleteRows(Open(), del));
  Dataset v1 = Open(1);
  LND_ASSERT_OK_AND_ASSIGN(Dataset restored, Restore(v1));
  EXPECT_EQ(restored.version(), 4u);
  ASSERT_TRUE(restored.transaction().has_value());
  EXPECT_EQ(restored.transaction()->type(), OperationType::kRestore);
  EXPECT_EQ(restored.transaction()->operation, Operation(op::Restore{1}));
  EXPECT_EQ(restored.fragments(), v1.fragments());
  EXPECT_EQ(Content(restored), Content(v1));
  EXPECT_EQ(restored.manifest().max_fragment_id, std::optional<std::uint32_t>(2));
  // Appending after a restore uses fresh fragment ids.
  Append(20, 21);
  Dataset after = Open();
  EXPECT_EQ(after.fragments().back().id, 3u);
  EXPECT_EQ(Content(after), Expected({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20}));
}

TEST_P(MaintenanceOpsTest, CompactMergesSmallFragmentsInOrder) {
  Make(2, 2);
  for (std::int64_t i = 1; i < 5; ++i) Append(2 * i, 2 * i + 2);
  const std::vector<std::uint64_t> del = {Addr(1, 0), Addr(3, 1)};  // ids 2 and 7
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult before_deleted, DeleteRows(Open(), del));
  Dataset before = std::move(before_deleted.dataset);
  ASSERT_EQ(before.fragments().size(), 5u);
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(before));
  CompactionMetrics m = std::move(m_compacted.metrics);
  EXPECT_EQ(m.fragments_removed, 5u);
  EXPECT_EQ(m.fragments_added, 1u);
  EXPECT_EQ(m.files_removed, 7u);  // 5 data files, 2 deletion files
  EXPECT_EQ(m.files_added, 1u);
  EXPECT_EQ(m.committed_version, before.version() + 1);
  Dataset after = Open();
  EXPECT_EQ(after.version(), m.committed_version);
  EXPECT_EQ(m_compacted.dataset.version(), m.committed_version);
  EXPECT_EQ(m_compacted.dataset.fragments().size(), 1u);
  ASSERT_EQ(after.fragments().size(), 1u);
  EXPECT_FALSE(after.fragments()[0].deletion_file.has_value());
  EXPECT_EQ(after.fragments()[0].physical_rows, 8u);
  EXPECT_EQ(after.fragments()[0].id, 5u);
  ASSERT_TRUE(after.transaction().has_value());
  EXPECT_EQ(after.transaction()->type(), OperationType::kRewrite);
  EXPECT_EQ(Content(after), Expected({0, 1, 3, 4, 5, 6, 8, 9}));
  EXPECT_EQ(Content(after), Content(before));
  // Nothing left to do: no commit.
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult none_compacted, Compact(after));
  CompactionMetrics none = std::move(none_compacted.metrics);
  EXPECT_EQ(none, CompactionMetrics{});
  EXPECT_EQ(none_compacted.dataset.version(), after.version());
  EXPECT_EQ(Open().version(), after.version());
}

TEST_P(MaintenanceOpsTest, CompactSplitsByTarget) {
  Make(2, 2);
  for (std::int64_t i = 1; i < 5; ++i) Append(2 * i, 2 * i + 2);
  CompactionOptions o;
  o.target_rows_per_fragment = 4;
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(Open(), o));
  CompactionMetrics m = std::move(m_compacted.metrics);
  EXPECT_EQ(m.fragments_removed, 5u);
  EXPECT_EQ(m.fragments_added, 3u);  // [0,1] -> 4 rows; [2,3,4] -> 4 + 2 rows
  Dataset after = Open();
  ASSERT_EQ(after.fragments().size(), 3u);
  EXPECT_EQ(after.fragments()[0].physical_rows, 4u);
  EXPECT_EQ(after.fragments()[1].physical_rows, 4u);
  EXPECT_EQ(after.fragments()[2].physical_rows, 2u);
  EXPECT_EQ(Content(after), Expected({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST_P(MaintenanceOpsTest, CompactMaterializesDeletionsAlone) {
  Make(10, 10);
  const std::vector<std::uint64_t> del = {Addr(0, 4), Addr(0, 5)};  // 20% deleted
  LND_ASSERT_OK_AND_ASSIGN(DeleteResult ds_deleted, DeleteRows(Open(), del));
  Dataset ds = std::move(ds_deleted.dataset);
  CompactionOptions o;
  o.target_rows_per_fragment = 10;  // not small
  o.materialize_deletions_threshold = 0.25;
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult none_compacted, Compact(ds, o));
  CompactionMetrics none = std::move(none_compacted.metrics);
  EXPECT_EQ(none.committed_version, 0u);
  o.materialize_deletions_threshold = 0.1;
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult m_compacted, Compact(ds, o));
  CompactionMetrics m = std::move(m_compacted.metrics);
  EXPECT_EQ(m.fragments_removed, 1u);
  Dataset after = Open();
  ASSERT_EQ(after.fragments().size(), 1u);
  EXPECT_FALSE(after.fragments()[0].deletion_file.has_value());
  EXPECT_EQ(Content(after), Expected({0, 1, 2, 3, 6, 7, 8, 9}));
}

TEST_P(MaintenanceOpsTest, CompactErrors) {
  Make(4, 2);
  CompactionOptions o;
  o.target_rows_per_fragment = 0;
  LND_EXPECT_ERROR(Compact(Open(), o), StatusCode::kInvalidArgument,
                   "target_rows_per_fragment must be positive (got 0)");
}

INSTANTIATE_TEST_SUITE_P(MemoryAndLocal, MaintenanceOpsTest, ::testing::Values(false, true),
                         ops_testing::MemoryOrLocalName);

// Planner cases (Lance's rules) on metadata only.
Fragment F(std::uint64_t id, std::uint64_t rows, std::uint64_t deleted = 0) {
  Fragment f;
  f.id = id;
  f.physical_rows = rows;
  if (deleted > 0) f.deletion_file = DeletionFile{DeletionFileType::kArrowArray, 1, 1, deleted, {}};
  return f;
}
std::vector<std::vector<std::uint64_t>> Plan(const std::vector<Fragment>& frags,
                                             const CompactionOptions& o) {
  std::vector<std::vector<std::uint64_t>> out;
  for (const auto& g : internal::PlanCompaction(frags, o)) {
    out.emplace_back();
    for (const Fragment& f : g) out.back().push_back(f.id);
  }
  return out;
}
using Groups = std::vector<std::vector<std::uint64_t>>;

TEST(CompactionPlanTest, LanceRules) {
  CompactionOptions o;
  o.target_rows_per_fragment = 100;
  // A lone small fragment has no neighbour to merge with.
  EXPECT_EQ(Plan({F(0, 10)}, o), Groups{});
  EXPECT_EQ(Plan({F(0, 10), F(1, 100), F(2, 10)}, o), Groups{});
  // Adjacent small ones merge; a big one breaks runs.
  EXPECT_EQ(Plan({F(0, 10), F(1, 10), F(2, 100), F(3, 10), F(4, 10)}, o), (Groups{{0, 1}, {3, 4}}));
  // Deletions above the threshold: rewritten alone, and join small neighbours.
  EXPECT_EQ(Plan({F(0, 100, 20)}, o), (Groups{{0}}));
  EXPECT_EQ(Plan({F(0, 100, 5)}, o), Groups{});
  EXPECT_EQ(Plan({F(0, 100, 20), F(1, 10)}, o), (Groups{{0, 1}}));
  o.materialize_deletions = false;
  EXPECT_EQ(Plan({F(0, 100, 20)}, o), Groups{});
  o.materialize_deletions = true;
  o.materialize_deletions_threshold = 1.0;  // disables materialisation
  EXPECT_EQ(Plan({F(0, 100, 99)}, o), Groups{});
  // Split: bins of at least target live rows, remainder joins the last bin.
  o.materialize_deletions_threshold = 0.1;
  EXPECT_EQ(Plan({F(0, 60), F(1, 60), F(2, 60), F(3, 60), F(4, 30)}, o),
            (Groups{{0, 1}, {2, 3, 4}}));
  EXPECT_EQ(Plan({F(0, 60), F(1, 60), F(2, 60)}, o), (Groups{{0, 1, 2}}));
}

}  // namespace
}  // namespace lance_nd::table
