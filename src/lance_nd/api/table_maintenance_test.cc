// Table maintenance: compaction (merge, split, deleted rows, order, rows never split, no-op),
// versions, checkout, restore and cleanup of old versions.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

#include "lance_nd/api/read_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"
#include "lance_nd/testing/test_env.h"

namespace lance_nd {
namespace {

using api_testing::MemoryLocation;
using api_testing::WriteInGroups;
using api_testing::WriteRows;
using nd::NdRecordBatch;
using nd::testing::Rng;
using nd::testing::Uniform;
using nd::testing::Unwrap;

/// Row `id`: global `id` = "r<id>"; even rows carry `temp` (n Float64 values id * 10000 + i)
/// with units degF when id % 4 == 0, else degC.
NdRecordBatch MaintenanceRow(int id, int n = 500) {
  nd::Attributes globals;
  globals.Set("id", "r" + std::to_string(id));
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  if (id % 2 == 0) {
    std::vector<std::optional<double>> values;
    for (int i = 0; i < n; ++i) values.emplace_back(id * 10000.0 + i);
    nd::Attributes attrs;
    attrs.Set("units", id % 4 == 0 ? "degF" : "degC");
    arrays.emplace_back("temp", nd::testing::Nd(nd::testing::F64(values),
                                                {{"n", static_cast<std::uint64_t>(n)}}, attrs));
  }
  return Unwrap(NdRecordBatch::FromArrays(std::move(arrays), globals));
}

std::vector<NdRecordBatch> MaintenanceRows(int count, int n = 500) {
  std::vector<NdRecordBatch> rows;
  for (int id = 0; id < count; ++id) rows.push_back(MaintenanceRow(id, n));
  return rows;
}

std::vector<NdRecordBatch> ReadAll(const Table& table) { return Unwrap(table.Scan().ReadAll()); }

void ExpectRowsEqual(const std::vector<NdRecordBatch>& got,
                     const std::vector<NdRecordBatch>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i].Equals(want[i]))
        << "row " << i << "\n got: " << got[i].ToString() << "\nwant: " << want[i].ToString();
  }
}

std::uint64_t TableBytes(const Table& table) {
  std::uint64_t total = 0;
  for (const auto& f : table.dataset().fragments()) {
    for (const auto& file : f.files) total += file.file_size_bytes;
  }
  return total;
}

// ---- compaction ----

TEST(CompactTest, SmallFragmentsAreMergedKeepingRowOrder) {
  const auto rows = MaintenanceRows(12);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 1));
  ASSERT_EQ(table.dataset().fragments().size(), 12u);
  const std::uint64_t before = table.version();
  CompactOptions options;
  options.target_fragment_bytes = 10 * TableBytes(table);
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
  EXPECT_EQ(stats.fragments_removed, 12u);
  EXPECT_EQ(stats.fragments_added, 1u);
  EXPECT_EQ(stats.rows_rewritten, 12u);
  EXPECT_EQ(stats.deleted_rows_removed, 0u);
  EXPECT_EQ(stats.committed_version, before + 1);
  EXPECT_EQ(table.version(), before + 1);
  ASSERT_EQ(table.dataset().fragments().size(), 1u);
  ExpectRowsEqual(ReadAll(table), rows);
  LND_ASSERT_OK_AND_ASSIGN(auto txn, table.dataset().ReadTransaction());
  ASSERT_TRUE(txn.has_value());
  EXPECT_EQ(txn->name(), "Rewrite");
}

TEST(CompactTest, NoWorkMakesNoNewVersion) {
  const auto rows = MaintenanceRows(6);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 2));
  CompactOptions options;
  options.target_fragment_bytes = 10 * TableBytes(table);
  LND_ASSERT_OK(table.Compact(options).status());
  const std::uint64_t version = table.version();
  const std::size_t versions = Unwrap(table.Versions()).size();
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats again, table.Compact(options));
  EXPECT_EQ(again.committed_version, 0u);
  EXPECT_EQ(again.fragments_removed, 0u);
  EXPECT_EQ(table.version(), version);
  EXPECT_EQ(Unwrap(table.Versions()).size(), versions);
  ExpectRowsEqual(ReadAll(table), rows);
}

TEST(CompactTest, ProgressCountsTheRewrittenRowsOfEachNewFragment) {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    const auto rows = MaintenanceRows(static_cast<int>(Uniform(rng, 2, 24)));
    Table table =
        Unwrap(WriteInGroups(MemoryLocation(), rows, static_cast<std::size_t>(Uniform(rng, 1, 3))));
    std::set<std::uint64_t> old_ids;
    for (const auto& f : table.dataset().fragments()) old_ids.insert(f.id);
    CompactOptions options;
    options.target_fragment_bytes =
        TableBytes(table) / static_cast<std::uint64_t>(Uniform(rng, 1, 4));
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      calls.emplace_back(done, total);
    };
    LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
    if (stats.committed_version == 0) {
      EXPECT_TRUE(calls.empty());
      continue;
    }
    // One call for the plan, one per new fragment; `done` grows to the rows rewritten.
    ASSERT_EQ(calls.size(), stats.fragments_added + 1);
    EXPECT_EQ(calls.front().first, 0u);
    EXPECT_EQ(calls.back().first, stats.rows_rewritten);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      EXPECT_EQ(calls[i].second, stats.rows_rewritten);
      if (i > 0) {
        EXPECT_GT(calls[i].first, calls[i - 1].first);
      }
    }
    // The steps are the rows of the new fragments, in table order.
    std::vector<std::uint64_t> steps, new_fragment_rows;
    for (std::size_t i = 1; i < calls.size(); ++i) {
      steps.push_back(calls[i].first - calls[i - 1].first);
    }
    for (const auto& f : table.dataset().fragments()) {
      if (old_ids.count(f.id) == 0) new_fragment_rows.push_back(f.physical_rows);
    }
    EXPECT_EQ(steps, new_fragment_rows);
    ExpectRowsEqual(ReadAll(table), rows);
  }
}

TEST(CompactTest, LargeFragmentsAreSplitIntoFragmentsNearTheTarget) {
  // Rows of equal size, so the estimate of a row's size is exact.
  std::vector<NdRecordBatch> rows;
  for (int id = 0; id < 12; ++id) rows.push_back(MaintenanceRow(2 * id));
  Table table = Unwrap(WriteRows(MemoryLocation(), rows));
  ASSERT_EQ(table.dataset().fragments().size(), 1u);
  CompactOptions options;
  options.target_fragment_bytes = TableBytes(table) / 4;
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
  EXPECT_EQ(stats.fragments_removed, 1u);
  EXPECT_EQ(stats.fragments_added, 4u);
  ASSERT_EQ(table.dataset().fragments().size(), 4u);
  for (const auto& f : table.dataset().fragments()) EXPECT_EQ(f.physical_rows, 3u);
  ExpectRowsEqual(ReadAll(table), rows);
}

TEST(CompactTest, ARowIsNeverSplit) {
  Table table = Unwrap(WriteRows(MemoryLocation(), MaintenanceRows(1, 5000)));
  CompactOptions options;
  options.target_fragment_bytes = 64;  // the one row is far above twice the target
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
  EXPECT_EQ(stats.committed_version, 0u);
  EXPECT_EQ(table.dataset().fragments().size(), 1u);
}

Status DeleteByOffset(Table& table, std::uint64_t fragment_index,
                      const std::vector<std::uint32_t>& offsets, std::vector<NdRecordBatch>* rows) {
  const auto& fragment = table.dataset().fragments().at(fragment_index);
  std::vector<std::uint64_t> addresses;
  for (std::uint32_t o : offsets) addresses.push_back((fragment.id << 32) | o);
  LND_ASSIGN_OR_RETURN(auto deleted, table::DeleteRows(table.dataset(), addresses));
  table = TableTestPeer::Make(deleted.dataset);
  // Fragments hold consecutive rows; erase from the back so indices stay valid.
  std::uint64_t first = 0;
  for (std::uint64_t i = 0; i < fragment_index; ++i) {
    first += table.dataset().fragments()[i].physical_rows;
  }
  std::vector<std::uint32_t> sorted = offsets;
  std::sort(sorted.rbegin(), sorted.rend());
  for (std::uint32_t o : sorted)
    rows->erase(rows->begin() + static_cast<std::ptrdiff_t>(first + o));
  return Status::OK();
}

TEST(CompactTest, FragmentsWithManyDeletedRowsAreRewrittenWithoutThem) {
  std::vector<NdRecordBatch> rows;
  for (int id = 0; id < 10; ++id) rows.push_back(MaintenanceRow(2 * id));
  auto all = rows;
  Table table = Unwrap(WriteRows(MemoryLocation(), rows));
  LND_ASSERT_OK(DeleteByOffset(table, 0, {3, 7}, &rows));
  ExpectRowsEqual(ReadAll(table), rows);

  CompactOptions options;
  options.target_fragment_bytes = TableBytes(table);  // the right size: only deletions count
  options.deleted_fraction = 0.25;                    // 2 of 10 is below it
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats none, table.Compact(options));
  EXPECT_EQ(none.committed_version, 0u);

  options.deleted_fraction = 0.2;  // at the threshold
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
  EXPECT_NE(stats.committed_version, 0u);
  EXPECT_EQ(stats.deleted_rows_removed, 2u);
  EXPECT_EQ(stats.rows_rewritten, 8u);
  ASSERT_EQ(table.dataset().fragments().size(), 1u);
  EXPECT_FALSE(table.dataset().fragments()[0].deletion_file.has_value());
  EXPECT_EQ(table.dataset().fragments()[0].physical_rows, 8u);
  ExpectRowsEqual(ReadAll(table), rows);
}

TEST(CompactTest, RandomTablesKeepTheirRowsAndOrder) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    std::vector<NdRecordBatch> rows;
    while (rows.empty() || (rows[0].num_columns() == 0 && rows[0].attributes().empty())) {
      rows = api_testing::TableRows(nd::testing::RandomRows(rng));
    }
    api_testing::WriteSpec spec;
    spec.stats = nd::testing::Chance(rng, 0.5);
    Table table = Unwrap(
        WriteInGroups(MemoryLocation(), rows, static_cast<std::size_t>(Uniform(rng, 1, 2)), spec));
    if (nd::testing::Chance(rng, 0.5) && table.dataset().fragments().size() > 1) {
      LND_ASSERT_OK(DeleteByOffset(table, 0, {0}, &rows));
    }
    CompactOptions options;
    options.target_fragment_bytes = std::max<std::uint64_t>(
        1, TableBytes(table) / static_cast<std::uint64_t>(Uniform(rng, 1, 8)));
    options.deleted_fraction = 0.1;
    LND_ASSERT_OK(table.Compact(options).status());
    ExpectRowsEqual(ReadAll(table), rows);
  }
}

/// Runs `script` (an ES module) with node from `dir`; its stdout, or the exit code and output.
std::string RunNode(const std::filesystem::path& dir, const std::string& script) {
  const auto file = dir / "check.mjs";
  if (FILE* f = std::fopen(file.c_str(), "w")) {
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  return lance_nd::testing::RunNode(file.string());
}

// Fragments written before a variable or key existed are rewritten with nulls of the current
// schema (null rows with valid empty children): Lance 12 reads the result and filters on it.
TEST(CompactTest, Lance12ReadsACompactedTableWrittenAcrossSchemaChanges) {
  const std::string modules = std::filesystem::absolute(lance_nd::testing::SourceDir() +
                                                        "/interop/node_modules/@lancedb/lancedb")
                                  .string();
  LND_NEED_ORACLE();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lance_nd_compact_interop_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::vector<NdRecordBatch> rows;
  for (int r = 0; r < 4; ++r) {
    nd::Attributes globals;
    globals.Set("id", static_cast<int64_t>(r));
    nd::Attributes attrs;
    attrs.Set(r < 2 ? "units" : "source", "x");
    rows.push_back(Unwrap(NdRecordBatch::FromArrays(
        {{r % 2 == 1 ? "b" : "a", nd::testing::Nd(nd::testing::Iota32(3), {{"x", 3}}, attrs)}},
        globals)));
  }
  api_testing::WriteSpec spec;
  spec.stats = true;
  Table table =
      Unwrap(WriteInGroups(table::TableLocation::Local(dir.string() + "/t.lance"), rows, 1, spec));
  CompactOptions options;
  options.target_fragment_bytes = std::uint64_t{1} << 20;
  LND_ASSERT_OK_AND_ASSIGN(CompactionStats stats, table.Compact(options));
  ASSERT_EQ(stats.fragments_added, 1u);
  ExpectRowsEqual(ReadAll(table), rows);
  const std::string script =
      "import { createRequire } from \"module\";"
      "const lancedb = createRequire(import.meta.url)(\"" +
      modules +
      "\");"
      "const db = await lancedb.connect(\"" +
      dir.string() +
      "\");"
      "const t = await db.openTable(\"t\");"
      "const rows = await t.query().where(\"a.attrs.source = 'x' OR b IS NOT NULL\")"
      ".select([\"__global_attrs__\"]).toArray();"
      "console.log(rows.map(r => String(r.__global_attrs__.id)).join(\",\"));";
  EXPECT_EQ(RunNode(dir, script), "1,2,3\n");
  std::filesystem::remove_all(dir);
}

TEST(CompactTest, ReadOnlyCheckoutRefusesChanges) {
  Table table = Unwrap(WriteInGroups(MemoryLocation(), MaintenanceRows(4), 1));
  LND_ASSERT_OK_AND_ASSIGN(Table old, table.Checkout(2));
  EXPECT_FALSE(old.writable());
  LND_EXPECT_ERROR(old.Compact(), StatusCode::kInvalidArgument, "open the table again");
  LND_EXPECT_ERROR(old.Restore(1), StatusCode::kInvalidArgument, "read-only by Checkout");
  LND_EXPECT_ERROR(old.Delete("true"), StatusCode::kInvalidArgument, "latest version");
  LND_EXPECT_ERROR(old.Append(MaintenanceRows(1)), StatusCode::kInvalidArgument,
                   "Append: this table is version 2 opened read-only");
  LND_EXPECT_ERROR(old.Widen(old.Variables().front()->name(), array::Float64()),
                   StatusCode::kInvalidArgument, "Widen: this table is version 2");
  EXPECT_EQ(Unwrap(table.Versions()).size(), 4u);
}

// ---- versions, checkout, restore ----

TEST(VersionsTest, VersionsAreListedOldestFirstWithTimestamps) {
  const auto rows = MaintenanceRows(4);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 1));
  LND_ASSERT_OK_AND_ASSIGN(auto versions, table.Versions());
  ASSERT_EQ(versions.size(), 4u);
  for (std::size_t i = 0; i < versions.size(); ++i) {
    EXPECT_EQ(versions[i].version, i + 1);
    EXPECT_GT(versions[i].timestamp.time_since_epoch().count(), 0);
    if (i > 0) {
      EXPECT_GE(versions[i].timestamp, versions[i - 1].timestamp);
    }
  }
  EXPECT_LE(versions.back().timestamp, std::chrono::system_clock::now());
}

TEST(VersionsTest, CheckoutReadsAnOldVersion) {
  const auto rows = MaintenanceRows(5);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 1));
  for (std::uint64_t v = 1; v <= 5; ++v) {
    LND_ASSERT_OK_AND_ASSIGN(Table old, table.Checkout(v));
    EXPECT_EQ(old.version(), v);
    EXPECT_FALSE(old.writable());
    ExpectRowsEqual(ReadAll(old), std::vector<NdRecordBatch>(
                                      rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(v)));
  }
  EXPECT_TRUE(table.writable());
  LND_EXPECT_ERROR(table.Checkout(9), StatusCode::kNotFound, "");
}

TEST(VersionsTest, CheckoutChecksTheFormatOfThatVersion) {
  const auto location = MemoryLocation();
  // Version 1 is a plain Lance table; version 2 a lance-nd table over it.
  auto plain = array::MakeSchema({array::MakeField("x", array::Int32())});
  const std::vector<array::RecordBatchPtr> batches{std::make_shared<const array::RecordBatch>(
      plain, 1, std::vector<array::ArrayPtr>{nd::testing::I32({7})})};
  LND_ASSERT_OK(table::WriteTable(location, batches).status());
  const auto rows = MaintenanceRows(2);
  const auto encoded = Unwrap(nd::EncodeRows(rows));
  const auto schema = api_testing::NewTableSchema(*encoded->schema(), false);
  const std::vector<array::RecordBatchPtr> nd_batches{
      Unwrap(api_testing::AsTableBatch(rows, *encoded, schema))};
  table::WriteOptions overwrite;
  overwrite.mode = table::WriteMode::kOverwrite;
  LND_ASSERT_OK_AND_ASSIGN(auto ds, table::WriteTable(location, nd_batches, overwrite));
  const Table table = TableTestPeer::Make(ds);
  LND_EXPECT_ERROR(table.Checkout(1), StatusCode::kInvalidTable, "has no 'lance_nd:format' key");
  LND_ASSERT_OK(table.Checkout(2).status());
}

TEST(VersionsTest, RestoreMakesAnOldVersionTheLatestInANewCommit) {
  const auto rows = MaintenanceRows(3);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 1));
  LND_ASSERT_OK(table.Restore(1));
  EXPECT_EQ(table.version(), 4u);
  EXPECT_TRUE(table.writable());
  ExpectRowsEqual(ReadAll(table), {rows[0]});
  LND_ASSERT_OK_AND_ASSIGN(auto versions, table.Versions());
  EXPECT_EQ(versions.size(), 4u);
  // Later versions stay in the history.
  LND_ASSERT_OK_AND_ASSIGN(Table v3, table.Checkout(3));
  ExpectRowsEqual(ReadAll(v3), rows);
  LND_EXPECT_ERROR(table.Restore(17), StatusCode::kNotFound, "");
}

TEST(CleanupTest, OldVersionsAreRemovedAndTheLatestStillReads) {
  const auto rows = MaintenanceRows(6);
  Table table = Unwrap(WriteInGroups(MemoryLocation(), rows, 1));
  CompactOptions options;
  options.target_fragment_bytes = 10 * TableBytes(table);
  LND_ASSERT_OK(table.Compact(options).status());
  ASSERT_EQ(Unwrap(table.Versions()).size(), 7u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  LND_ASSERT_OK_AND_ASSIGN(table::CleanupStats stats,
                           table.CleanupOldVersions(std::chrono::seconds(1)));
  EXPECT_EQ(stats.old_versions, 6u);
  EXPECT_GE(stats.data_files_removed, 6u);  // the compacted fragments' files
  LND_ASSERT_OK_AND_ASSIGN(auto versions, table.Versions());
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0].version, 7u);
  ExpectRowsEqual(ReadAll(table), rows);
  LND_EXPECT_ERROR(table.Checkout(1), StatusCode::kNotFound, "");
  // Nothing old enough: nothing removed.
  LND_ASSERT_OK_AND_ASSIGN(auto none, table.CleanupOldVersions(std::chrono::seconds(3600)));
  EXPECT_EQ(none.old_versions, 0u);
}

}  // namespace
}  // namespace lance_nd
