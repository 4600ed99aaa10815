// Table::Open / Write / Append: round trips, modes, errors, schema evolution across appends.
#include <gtest/gtest.h>

#include "lance_nd/api/api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;
using nd::testing::Rng;

WriteOptions Mode(WriteMode mode) {
  WriteOptions o;
  o.mode = mode;
  return o;
}

std::vector<nd::NdRecordBatch> Concat(std::vector<nd::NdRecordBatch> a,
                                      const std::vector<nd::NdRecordBatch>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(TableWrite, RandomRowsRoundTrip) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng);
    auto rows = RandomRows(rng, u, static_cast<int>(nd::testing::Uniform(rng, 1, 25)));
    WriteOptions o;
    o.stats = nd::testing::Chance(rng, 0.5);
    o.max_rows_per_group = static_cast<std::size_t>(nd::testing::Uniform(rng, 1, 8));
    auto loc = MemoryTable();
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, rows, o));
    EXPECT_EQ(t.version(), 1u);
    EXPECT_EQ(t.has_stats(), o.stats);
    LND_ASSERT_OK_AND_ASSIGN(Table opened, Table::Open(loc));
    EXPECT_EQ(opened.version(), 1u);
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(opened.dataset()));
    api_testing::ExpectSameRows(rows, got);
  }
}

TEST(TableWrite, AppendsExtendTheSchemaThenAddRows) {
  for (std::uint64_t seed = 100; seed < 120; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    auto u = RandomUniverse(rng);
    auto first_u = u;
    first_u.vars.resize(2);  // the first write knows two variables only
    auto loc = MemoryTable();
    WriteOptions o;
    o.stats = nd::testing::Chance(rng, 0.5);
    auto all = RandomRows(rng, first_u, 3, 0.9);
    LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, all, o));
    for (int append = 0; append < 4; ++append) {
      auto more = RandomRows(rng, u, static_cast<int>(nd::testing::Uniform(rng, 1, 6)));
      const std::uint64_t before = t.version();
      const bool grows = [&] {
        for (const auto& r : more) {
          for (int i = 0; i < r.num_columns(); ++i) {
            if (t.schema()->FieldIndex(r.column_name(i)) < 0) return true;
          }
        }
        return false;
      }();
      LND_ASSERT_OK(t.Append(more));
      all = Concat(std::move(all), more);
      // A new variable costs a schema commit of its own before the rows.
      if (grows) {
        EXPECT_GE(t.version(), before + 2);
      }
      LND_ASSERT_OK_AND_ASSIGN(Table opened, Table::Open(loc));
      EXPECT_EQ(opened.version(), t.version());
      LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(opened.dataset()));
      api_testing::ExpectSameRows(all, got);
    }
  }
}

TEST(TableWrite, SchemaCommitIsAMergeAndRowsAnAppend) {
  Rng rng(7);
  auto u = RandomUniverse(rng, 3);
  auto loc = MemoryTable();
  std::vector<nd::NdRecordBatch> one = {nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"a", nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}})}}))};
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, one));
  std::vector<nd::NdRecordBatch> two = {nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"b", nd::testing::Nd(nd::testing::I32({7}), {{"y", 1}})}}))};
  LND_ASSERT_OK(t.Append(two));
  ASSERT_EQ(t.version(), 3u);
  LND_ASSERT_OK_AND_ASSIGN(Table v2, Table::Open(loc, 2));
  LND_ASSERT_OK_AND_ASSIGN(auto txn2, v2.dataset().ReadTransaction());
  ASSERT_TRUE(txn2.has_value());
  EXPECT_EQ(txn2->type(), table::OperationType::kMerge);
  EXPECT_EQ(v2.dataset().CountRows(), 1u);  // new column, no new rows yet
  EXPECT_GE(v2.schema()->FieldIndex("b"), 0);
  LND_ASSERT_OK_AND_ASSIGN(auto txn3, t.dataset().ReadTransaction());
  EXPECT_EQ(txn3->type(), table::OperationType::kAppend);
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  api_testing::ExpectSameRows(Concat(one, two), got);
}

TEST(TableWrite, ModesCreateAppendOverwrite) {
  Rng rng(3);
  auto u = RandomUniverse(rng);
  auto loc = MemoryTable();
  auto a = RandomRows(rng, u, 4);
  auto b = RandomRows(rng, u, 3);
  // Append on a missing table creates it.
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, a, Mode(WriteMode::kAppend)));
  // Create on an existing table: TableExists.
  auto exists = Table::Write(loc, b, Mode(WriteMode::kCreate));
  LND_EXPECT_ERROR(exists, StatusCode::kAlreadyExists, "a table exists at");
  EXPECT_EQ(exists.status().kind(), ErrorKind::kTableExists);
  // Append mode adds.
  LND_ASSERT_OK_AND_ASSIGN(t, Table::Write(loc, b, Mode(WriteMode::kAppend)));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(t.dataset()));
  api_testing::ExpectSameRows(Concat(a, b), got);
  // Overwrite replaces.
  LND_ASSERT_OK_AND_ASSIGN(t, Table::Write(loc, b, Mode(WriteMode::kOverwrite)));
  LND_ASSERT_OK_AND_ASSIGN(got, ReadRows(t.dataset()));
  api_testing::ExpectSameRows(b, got);
  // Overwrite on a missing table creates it.
  auto loc2 = MemoryTable();
  LND_ASSERT_OK_AND_ASSIGN(Table t2, Table::Write(loc2, a, Mode(WriteMode::kOverwrite)));
  EXPECT_EQ(t2.version(), 1u);
}

TEST(TableWrite, EmptyWrites) {
  auto loc = MemoryTable();
  for (WriteMode m : {WriteMode::kCreate, WriteMode::kAppend, WriteMode::kOverwrite}) {
    auto r = Table::Write(loc, {}, Mode(m));
    LND_EXPECT_ERROR(r, StatusCode::kInvalidArgument, "write at least one row");
    LND_EXPECT_ERROR(Table::Open(loc), StatusCode::kNotFound, "no table at");
  }
  Rng rng(5);
  auto u = RandomUniverse(rng);
  auto rows = RandomRows(rng, u, 2);
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, rows));
  LND_ASSERT_OK(t.Append({}));
  EXPECT_EQ(t.version(), 1u);  // nothing to commit
}

TEST(TableWrite, OpenErrors) {
  auto loc = MemoryTable("nothing/here");
  auto missing = Table::Open(loc);
  LND_EXPECT_ERROR(missing, StatusCode::kNotFound, "no table at nothing/here");
  EXPECT_EQ(missing.status().kind(), ErrorKind::kTableNotFound);
  LND_EXPECT_ERROR(NdWriter::Append(loc), StatusCode::kNotFound, "no table at");
  EXPECT_EQ(Table::Open(loc, 3).status().kind(), ErrorKind::kTableNotFound);

  // A plain Lance table (no format marker), then one with another format version.
  for (const char* version : {"", "2"}) {
    auto plain = MemoryTable();
    array::Metadata md;
    if (*version != '\0') md.Set(std::string(nd::kFormatMetadataKey), version);
    auto schema = array::MakeSchema({array::MakeField("x", array::Int32())}, md);
    auto batch =
        nd::testing::Unwrap(array::RecordBatch::Make(schema, 2, {nd::testing::I32({1, 2})}));
    LND_ASSERT_OK(table::WriteTable(plain, std::vector<array::RecordBatchPtr>{batch}).status());
    auto r = Table::Open(plain);
    LND_EXPECT_ERROR(r, StatusCode::kInvalidTable, "lance_nd:format");
    if (*version != '\0') {
      LND_EXPECT_ERROR(r, StatusCode::kInvalidTable, "\"2\"");
    }
    LND_EXPECT_ERROR(Table::Write(plain, {}, Mode(WriteMode::kAppend)), StatusCode::kInvalidTable,
                     "lance_nd:format");
    auto row = nd::testing::Unwrap(
        nd::NdRecordBatch::FromArrays({{"a", nd::testing::Nd(nd::testing::F32({1}), {{"x", 1}})}}));
    LND_EXPECT_ERROR(Table::Write(plain, std::vector{row}, Mode(WriteMode::kOverwrite)),
                     StatusCode::kInvalidTable, "lance_nd:format");
  }
}

TEST(TableWrite, AFailedWriteCommitsNothing) {
  auto loc = MemoryTable();
  auto f32 = nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"a", nd::testing::Nd(nd::testing::F32({1}), {{"x", 1}})}}));
  auto i32 = nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"a", nd::testing::Nd(nd::testing::I32({1}), {{"x", 1}})}}));
  WriteOptions small;
  small.max_rows_per_group = 1;
  small.target_fragment_bytes = 1;  // every row goes to disk at once
  // A new table whose second row breaks it: no table afterwards, no data file left.
  std::vector<nd::NdRecordBatch> rows = {f32, f32, i32};
  LND_EXPECT_ERROR(Table::Write(loc, rows, small), StatusCode::kSchemaMismatch, "");
  LND_EXPECT_ERROR(Table::Open(loc), StatusCode::kNotFound, "no table");
  auto listed = loc.fs().List(loc.DataDir());
  EXPECT_TRUE(!listed.ok() || listed->empty());
  // An append that fails: the table stays at its version.
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, std::vector{f32}));
  LND_EXPECT_ERROR(t.Append(rows, small), StatusCode::kSchemaMismatch, "");
  LND_ASSERT_OK_AND_ASSIGN(Table again, Table::Open(loc));
  EXPECT_EQ(again.version(), 1u);
  EXPECT_EQ(again.dataset().CountRows(), 1u);
  LND_ASSERT_OK_AND_ASSIGN(auto files, loc.fs().List(loc.DataDir()));
  EXPECT_EQ(files.size(), 1u);
}

TEST(TableWrite, AppendStartsFromTheLatestVersion) {
  Rng rng(11);
  auto u = RandomUniverse(rng);
  auto loc = MemoryTable();
  auto a = RandomRows(rng, u, 2);
  auto b = RandomRows(rng, u, 2);
  auto c = RandomRows(rng, u, 2);
  LND_ASSERT_OK_AND_ASSIGN(Table first, Table::Write(loc, a));
  LND_ASSERT_OK_AND_ASSIGN(Table second, Table::Open(loc));
  LND_ASSERT_OK(second.Append(b));
  LND_ASSERT_OK(first.Append(c));  // the stale handle appends after b
  EXPECT_GT(first.version(), second.version());
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadRows(first.dataset()));
  api_testing::ExpectSameRows(Concat(Concat(a, b), c), got);
}

TEST(TableWrite, VariablesAreTheLogicalFields) {
  auto loc = MemoryTable();
  auto row = nd::testing::Unwrap(nd::NdRecordBatch::FromArrays(
      {{"temp", nd::testing::Nd(nd::testing::F32({1, 2}), {{"x", 2}})},
       {"name", nd::testing::Nd(nd::testing::Str({"a"}), {})}},
      nd::Attributes().Set("id", "r0")));
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table t, Table::Write(loc, std::vector{row}, o));
  auto vars = t.Variables();
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[0]->name(), "temp");
  EXPECT_TRUE(vars[0]->type()->Equals(*array::Float32()));
  EXPECT_EQ(vars[1]->name(), "name");
  EXPECT_TRUE(vars[1]->type()->Equals(*array::Utf8()));
}

TEST(TableWrite, DottedVariableNamesAreRefused) {
  auto row = nd::testing::Unwrap(
      nd::NdRecordBatch::FromArrays({{"a.b", nd::testing::Nd(nd::testing::F32({1}), {{"x", 1}})}}));
  LND_EXPECT_ERROR(Table::Write(MemoryTable(), std::vector{row}), StatusCode::kInvalidArgument,
                   "'a.b' contains '.'");
}

}  // namespace
}  // namespace lance_nd
