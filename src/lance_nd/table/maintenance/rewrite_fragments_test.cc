// RewriteFragments: caller-planned runs rewritten in place (row order kept, rows cut as
// planned, deleted rows dropped, one Rewrite commit), its errors, and Lance 12 reading the
// result in the same order.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "lance_nd/array/view.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/rewrite.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd::table {
namespace {

/// A table of `per_fragment.size()` fragments holding ids 0, 1, ... in order.
Dataset MakeTable(const TableLocation& location, const std::vector<std::int64_t>& per_fragment) {
  std::int64_t next = 0;
  Result<Dataset> ds = Status::Internal("no fragments");
  for (std::int64_t n : per_fragment) {
    WriteOptions options;
    options.mode = next == 0 ? WriteMode::kCreate : WriteMode::kAppend;
    const std::vector<array::RecordBatchPtr> batches{testing::TestBatch(next, n)};
    ds = WriteTable(location, batches, options);
    EXPECT_TRUE(ds.ok()) << ds.status().ToString();
    next += n;
  }
  return *ds;
}

std::vector<std::int64_t> Ids(const Dataset& ds) {
  TableScanOptions options;
  options.projection = {"id"};
  auto batch = ReadTable(ds, options);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  std::vector<std::int64_t> out;
  const array::PrimitiveView<std::int64_t> ids(*(*batch)->column(0));
  for (std::int64_t i = 0; i < (*batch)->num_rows(); ++i) out.push_back(ids.Value(i));
  return out;
}

std::vector<std::int64_t> Range(std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

TableLocation Memory() { return TableLocation(io::MakeMemoryFileSystem(), "db/t.lance"); }

TEST(RewriteFragmentsTest, ARunInTheMiddleIsReplacedInPlace) {
  const auto location = Memory();
  const Dataset ds = MakeTable(location, {3, 2, 2, 2, 4});
  const auto& f = ds.fragments();
  const std::vector<RewriteGroupPlan> plan = {{{f[1].id, f[2].id, f[3].id}, {1, 5}}};
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult result, RewriteFragments(ds, plan));
  EXPECT_EQ(result.metrics.fragments_removed, 3u);
  EXPECT_EQ(result.metrics.fragments_added, 2u);
  EXPECT_EQ(result.metrics.committed_version, ds.version() + 1);
  const auto& after = result.dataset.fragments();
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[0].id, f[0].id);
  EXPECT_EQ(after[1].physical_rows, 1u);
  EXPECT_EQ(after[2].physical_rows, 5u);
  EXPECT_EQ(after[3].id, f[4].id);
  EXPECT_EQ(Ids(result.dataset), Range(13));
  LND_ASSERT_OK_AND_ASSIGN(Dataset reopened, Dataset::Open(location));
  EXPECT_EQ(Ids(reopened), Range(13));
  LND_ASSERT_OK_AND_ASSIGN(auto txn, reopened.ReadTransaction());
  ASSERT_TRUE(txn.has_value());
  EXPECT_EQ(txn->name(), "Rewrite");
}

TEST(RewriteFragmentsTest, DeletedRowsAreDroppedAndSeveralGroupsCommitOnce) {
  const auto location = Memory();
  Dataset ds = MakeTable(location, {4, 4, 4});
  const std::vector<std::uint64_t> doomed = {(ds.fragments()[0].id << 32) | 1,
                                             (ds.fragments()[2].id << 32) | 3};
  LND_ASSERT_OK_AND_ASSIGN(auto deleted, DeleteRows(ds, doomed));
  ds = deleted.dataset;
  const auto& f = ds.fragments();
  const std::vector<RewriteGroupPlan> plan = {{{f[0].id}, {3}}, {{f[2].id}, {1, 1, 1}}};
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult result, RewriteFragments(ds, plan));
  EXPECT_EQ(result.metrics.committed_version, ds.version() + 1);
  EXPECT_EQ(Ids(result.dataset), (std::vector<std::int64_t>{0, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  ASSERT_EQ(result.dataset.fragments().size(), 5u);
  for (const Fragment& fragment : result.dataset.fragments()) {
    EXPECT_FALSE(fragment.deletion_file.has_value());
  }
}

TEST(RewriteFragmentsTest, AnEmptyPlanCommitsNothing) {
  const Dataset ds = MakeTable(Memory(), {2, 2});
  LND_ASSERT_OK_AND_ASSIGN(CompactionResult result, RewriteFragments(ds, {}));
  EXPECT_EQ(result.metrics.committed_version, 0u);
  EXPECT_EQ(result.dataset.version(), ds.version());
}

TEST(RewriteFragmentsTest, BadPlansAreInvalidArgument) {
  const Dataset ds = MakeTable(Memory(), {2, 2, 2});
  const auto& f = ds.fragments();
  auto rewrite = [&](std::vector<RewriteGroupPlan> plan) { return RewriteFragments(ds, plan); };
  LND_EXPECT_ERROR(rewrite({{{99}, {2}}}), StatusCode::kInvalidArgument, "no fragment 99");
  LND_EXPECT_ERROR(rewrite({{{f[0].id, f[2].id}, {4}}}), StatusCode::kInvalidArgument,
                   "not neighbours");
  LND_EXPECT_ERROR(rewrite({{{f[1].id, f[0].id}, {4}}}), StatusCode::kInvalidArgument,
                   "not neighbours");
  LND_EXPECT_ERROR(rewrite({{{f[0].id}, {1}}}), StatusCode::kInvalidArgument, "holds 2 live rows");
  LND_EXPECT_ERROR(rewrite({{{f[0].id}, {2, 0}}}), StatusCode::kInvalidArgument, "0 rows");
  LND_EXPECT_ERROR(rewrite({{{f[0].id}, {2}}, {{f[0].id}, {2}}}), StatusCode::kInvalidArgument,
                   "more than once");
  LND_EXPECT_ERROR(rewrite({{{}, {}}}), StatusCode::kInvalidArgument, "a group of 0 fragments");
}

// ---- Lance 12 reads the rewritten table in the same row order ----

std::string RunNode(const std::string& script) {
  return lance_nd::testing::RunCommand("node --input-type=module -e '" + script + "'");
}

TEST(RewriteFragmentsTest, Lance12ReadsTheRowsInOrder) {
  const std::string modules = std::filesystem::absolute(lance_nd::testing::SourceDir() +
                                                        "/interop/node_modules/@lancedb/lancedb")
                                  .string();
  LND_NEED_ORACLE();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_rewrite_interop_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const Dataset ds = MakeTable(TableLocation::Local(dir.string() + "/t.lance"), {3, 1, 1, 3});
  const auto& f = ds.fragments();
  const std::vector<RewriteGroupPlan> plan = {{{f[1].id, f[2].id}, {2}}};
  LND_ASSERT_OK(RewriteFragments(ds, plan).status());
  const std::string script =
      "import { createRequire } from \"module\";"
      "const lancedb = createRequire(import.meta.url)(\"" +
      modules +
      "\");"
      "const db = await lancedb.connect(\"" +
      dir.string() +
      "\");"
      "const t = await db.openTable(\"t\");"
      "const rows = await t.query().select([\"id\"]).toArray();"
      "console.log(rows.map(r => String(r.id)).join(\",\"));";
  EXPECT_EQ(RunNode(script), "0,1,2,3,4,5,6,7\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lance_nd::table
