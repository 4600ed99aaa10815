// Scans of lance-nd tables: rows read back as written, projection, limit, batch sizes and
// parallel decoding, zero-copy decoding.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "lance_nd/api/read_test_util.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/testing/nd_random_rows.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryLocation;
using api_testing::WriteInGroups;
using api_testing::WriteSpec;
using nd::NdRecordBatch;
using nd::testing::Rng;
using nd::testing::Uniform;

/// `row` with only the variables in `keep` (global attributes kept).
NdRecordBatch Restrict(const NdRecordBatch& row, const std::set<std::string>& keep) {
  std::vector<array::FieldPtr> fields;
  std::vector<nd::NdArrowArray> columns;
  for (int i = 0; i < row.num_columns(); ++i) {
    if (keep.count(row.column_name(i)) == 0) continue;
    fields.push_back(row.schema()->field(i));
    columns.push_back(row.column(i));
  }
  return nd::testing::Unwrap(
      NdRecordBatch::MakeInferred(array::MakeSchema(std::move(fields), row.schema()->metadata()),
                                  std::move(columns), row.attributes()));
}

/// Random rows (at least one) and a table holding them, written in groups of 1-3 rows (several
/// fragments, schema extended between writes), with stats or not.
struct RandomTable {
  std::vector<NdRecordBatch> rows;
  std::optional<Table> table;
};

RandomTable MakeRandomTable(Rng& rng) {
  RandomTable out;
  // A table needs a column: the first write must bring a variable or a global attribute.
  while (out.rows.empty() || (out.rows[0].num_columns() == 0 && out.rows[0].attributes().empty())) {
    out.rows = api_testing::TableRows(nd::testing::RandomRows(rng));
  }
  WriteSpec spec;
  spec.stats = nd::testing::Chance(rng, 0.5);
  const auto per_write = static_cast<std::size_t>(Uniform(rng, 1, 3));
  out.table = nd::testing::Unwrap(WriteInGroups(MemoryLocation(), out.rows, per_write, spec));
  return out;
}

std::vector<std::string> VariableNames(const Table& table) {
  std::vector<std::string> names;
  for (const auto& f : table.schema()->fields()) {
    if (nd::IsNdField(*f)) names.push_back(f->name());
  }
  return names;
}

void ExpectRowsEqual(const std::vector<NdRecordBatch>& got,
                     const std::vector<NdRecordBatch>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i].Equals(want[i]))
        << "row " << i << "\n got: " << got[i].ToString() << "\nwant: " << want[i].ToString();
  }
}

TEST(ScanTest, RandomTablesReadBackAsWritten) {
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    RandomTable t = MakeRandomTable(rng);
    Scanner scan = t.table->Scan();
    scan.BatchRows(Uniform(rng, 1, 5)).DecodeParallelism(static_cast<int>(Uniform(rng, 0, 3)));
    LND_ASSERT_OK_AND_ASSIGN(auto rows, scan.ReadAll());
    ExpectRowsEqual(rows, t.rows);
    LND_ASSERT_OK_AND_ASSIGN(std::uint64_t count, scan.CountRows());
    EXPECT_EQ(count, t.rows.size());
  }
}

TEST(ScanTest, TablesOnTheLocalDiskReadBackAsWritten) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("lance_nd_api_scan_" + std::to_string(::getpid()));
  for (std::uint64_t seed = 500; seed < 515; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::filesystem::remove_all(dir);
    Rng rng(seed);
    std::vector<NdRecordBatch> rows;
    while (rows.empty() || (rows[0].num_columns() == 0 && rows[0].attributes().empty())) {
      rows = api_testing::TableRows(nd::testing::RandomRows(rng));
    }
    WriteSpec spec;
    spec.stats = nd::testing::Chance(rng, 0.5);
    const Table table = nd::testing::Unwrap(
        WriteInGroups(table::TableLocation::Local(dir.string() + "/t.lance"), rows, 2, spec));
    LND_ASSERT_OK_AND_ASSIGN(auto got, table.Scan().BatchRows(Uniform(rng, 1, 4)).ReadAll());
    ExpectRowsEqual(got, rows);
  }
  std::filesystem::remove_all(dir);
}

TEST(ScanTest, ProjectionKeepsTheChosenVariablesAndEveryGlobalAttribute) {
  for (std::uint64_t seed = 100; seed < 160; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    RandomTable t = MakeRandomTable(rng);
    std::vector<std::string> names = VariableNames(*t.table);
    std::shuffle(names.begin(), names.end(), rng);
    names.resize(static_cast<std::size_t>(Uniform(rng, 0, static_cast<int64_t>(names.size()))));
    const std::set<std::string> keep(names.begin(), names.end());
    LND_ASSERT_OK_AND_ASSIGN(auto rows, t.table->Scan().Project(names).BatchRows(2).ReadAll());
    std::vector<NdRecordBatch> want;
    for (const NdRecordBatch& row : t.rows) want.push_back(Restrict(row, keep));
    ExpectRowsEqual(rows, want);
  }
}

TEST(ScanTest, EmptyProjectionReadsOnlyGlobalAttributes) {
  for (std::uint64_t seed = 200; seed < 230; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    RandomTable t = MakeRandomTable(rng);
    LND_ASSERT_OK_AND_ASSIGN(auto rows, t.table->Scan().Project({}).ReadAll());
    ASSERT_EQ(rows.size(), t.rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].num_columns(), 0);
      EXPECT_TRUE(rows[i].attributes().Equals(t.rows[i].attributes())) << i;
    }
  }
}

Table SmallTable(bool stats = true) {
  std::vector<NdRecordBatch> rows;
  for (int r = 0; r < 3; ++r) {
    nd::Attributes attrs;
    attrs.Set("units", r == 1 ? "degF" : "degC");
    nd::Attributes globals;
    globals.Set("id", "r" + std::to_string(r));
    rows.push_back(nd::testing::Unwrap(NdRecordBatch::FromArrays(
        {{"sst", nd::testing::Nd(nd::testing::Iota32(4), {{"x", 4}}, attrs)},
         {"lat", nd::testing::Nd(nd::testing::Iota32(2), {{"y", 2}})}},
        globals)));
  }
  WriteSpec spec;
  spec.stats = stats;
  return nd::testing::Unwrap(WriteInGroups(MemoryLocation(), rows, 1, spec));
}

TEST(ScanTest, NestedNameInProjectionIsInvalidArgument) {
  const Table table = SmallTable();
  LND_EXPECT_ERROR(table.Scan().Project({"sst.attrs"}).Open(), StatusCode::kInvalidArgument,
                   "part of variable 'sst'");
  LND_EXPECT_ERROR(table.Scan().Project({"sst.attrs.units"}).ReadAll(),
                   StatusCode::kInvalidArgument, "whole variables");
  LND_ASSERT_OK_AND_ASSIGN(auto rows, table.Scan().Project({"lat"}).ReadAll());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].num_columns(), 1);
  EXPECT_EQ(rows[0].column_name(0), "lat");
}

TEST(ScanTest, UnknownVariableIsInvalidArgumentListingTheVariables) {
  const Table table = SmallTable();
  for (const char* name : {"nope", "__global_attrs__", "__stats__:sst", "_rowaddr", ""}) {
    SCOPED_TRACE(name);
    LND_EXPECT_ERROR(table.Scan().Project({"sst", name}).Open(), StatusCode::kInvalidArgument,
                     "its variables are 'sst', 'lat'");
    LND_EXPECT_ERROR(table.Scan().Project({name}).CountRows(), StatusCode::kInvalidArgument,
                     "is not a variable");
  }
}

TEST(ScanTest, StatsColumnsAreNeverReturned) {
  const Table table = SmallTable(/*stats=*/true);
  ASSERT_TRUE(nd::HasStats(*table.schema()));
  LND_ASSERT_OK_AND_ASSIGN(auto rows, table.Scan().ReadAll());
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) {
    for (int i = 0; i < row.num_columns(); ++i) {
      EXPECT_FALSE(row.column_name(i).starts_with(nd::kStatsPrefix));
    }
    EXPECT_EQ(row.num_columns(), 2);
  }
}

TEST(ScanTest, LimitGivesTheFirstRows) {
  for (std::uint64_t seed = 300; seed < 340; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    RandomTable t = MakeRandomTable(rng);
    const auto limit = static_cast<std::uint64_t>(Uniform(rng, 0, 8));
    Scanner scan = t.table->Scan();
    scan.Limit(limit).BatchRows(Uniform(rng, 1, 4));
    LND_ASSERT_OK_AND_ASSIGN(auto rows, scan.ReadAll());
    const std::size_t n = std::min<std::size_t>(limit, t.rows.size());
    ExpectRowsEqual(rows, std::vector<NdRecordBatch>(t.rows.begin(), t.rows.begin() + n));
    LND_ASSERT_OK_AND_ASSIGN(std::uint64_t count, scan.CountRows());
    EXPECT_EQ(count, n);
  }
}

// Decoding ahead gives the same rows, limits included, and a reader dropped halfway (its next
// batch still being decoded) goes away cleanly.
TEST(ScanTest, DecodingAheadGivesTheSameRows) {
  for (std::uint64_t seed = 400; seed < 440; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Rng rng(seed);
    RandomTable t = MakeRandomTable(rng);
    Scanner scan = t.table->Scan();
    scan.DecodeAhead().BatchRows(Uniform(rng, 1, 4));
    std::size_t n = t.rows.size();
    if (nd::testing::Chance(rng, 0.5)) {
      const auto limit = static_cast<std::uint64_t>(Uniform(rng, 0, 8));
      scan.Limit(limit);
      n = std::min<std::size_t>(limit, n);
    }
    LND_ASSERT_OK_AND_ASSIGN(auto rows, scan.ReadAll());
    ExpectRowsEqual(rows, std::vector<NdRecordBatch>(
                              t.rows.begin(), t.rows.begin() + static_cast<std::ptrdiff_t>(n)));
    LND_ASSERT_OK_AND_ASSIGN(NdBatchReader reader, scan.Open());
    for (auto half = n / 2; half > 0; --half) {
      LND_ASSERT_OK_AND_ASSIGN(auto row, reader.Next());
      ASSERT_TRUE(row.has_value());
    }
  }
}

TEST(ScanTest, ReaderGivesRowsOneAtATimeThenNothing) {
  const Table table = SmallTable();
  LND_ASSERT_OK_AND_ASSIGN(NdBatchReader reader, table.Scan().BatchRows(2).Open());
  for (int r = 0; r < 3; ++r) {
    LND_ASSERT_OK_AND_ASSIGN(auto row, reader.Next());
    ASSERT_TRUE(row.has_value());
    EXPECT_EQ(row->attributes().GetString("id"), "r" + std::to_string(r));
  }
  for (int i = 0; i < 2; ++i) {
    LND_ASSERT_OK_AND_ASSIGN(auto end, reader.Next());
    EXPECT_FALSE(end.has_value());
  }
}

TEST(ScanTest, DecodedArraysAreSlicesOfTheScanBuffers) {
  std::vector<NdRecordBatch> rows;
  for (int r = 0; r < 8; ++r) {
    rows.push_back(nd::testing::Unwrap(NdRecordBatch::FromArrays(
        {{"v", nd::testing::Nd(nd::testing::Iota32(1000), {{"x", 1000}})}})));
  }
  const Table table = nd::testing::Unwrap(api_testing::WriteRows(MemoryLocation(), rows));
  LND_ASSERT_OK_AND_ASSIGN(auto read, table.Scan().BatchRows(8).DecodeParallelism(2).ReadAll());
  ASSERT_EQ(read.size(), 8u);
  // Rows of one table batch share one values buffer: each is a window into it, not a copy.
  const auto& first = *read[0].column(0).values();
  for (const auto& row : read) {
    const auto& values = *row.column(0).values();
    ASSERT_EQ(values.buffers.size(), first.buffers.size());
    EXPECT_EQ(values.buffers[1].get(), first.buffers[1].get());
  }
  EXPECT_NE(read[1].column(0).values()->offset, read[0].column(0).values()->offset);
}

TEST(ScanTest, BadBatchRowsOrParallelismIsInvalidArgument) {
  const Table table = SmallTable();
  LND_EXPECT_ERROR(table.Scan().BatchRows(0).Open(), StatusCode::kInvalidArgument, "BatchRows");
  LND_EXPECT_ERROR(table.Scan().BatchRows(0).ReadAll(), StatusCode::kInvalidArgument,
                   "BatchRows must be at least 1 (got 0)");
  LND_EXPECT_ERROR(table.Scan().DecodeParallelism(-1).Open(), StatusCode::kInvalidArgument,
                   "DecodeParallelism");
}

}  // namespace
}  // namespace lance_nd
