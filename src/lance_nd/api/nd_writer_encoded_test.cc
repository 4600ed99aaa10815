// NdWriter::WriteEncoded: rows given in the nd encoding make the same table as the same rows
// given to Write (rows, stats columns, schema), in order with rows written either way; bad
// batches are refused as input errors and nothing is committed.
#include <gtest/gtest.h>

#include "api_test_util.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/table.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd {
namespace {

using api_testing::MemoryTable;
using api_testing::RandomRows;
using api_testing::RandomUniverse;
using api_testing::ReadRows;
using nd::testing::Chance;
using nd::testing::Rng;
using nd::testing::Uniform;

WriteOptions RandomOptions(Rng& rng) {
  WriteOptions o;
  o.stats = Chance(rng, 0.7);
  o.max_rows_per_group = static_cast<std::size_t>(Uniform(rng, 1, 12));
  o.max_values_per_group = static_cast<std::size_t>(Uniform(rng, 1, 200));
  o.target_fragment_bytes = static_cast<std::size_t>(Uniform(rng, 500, 20000));
  return o;
}

// The variables of a schema, in order.
std::vector<std::string> VariableOrder(const array::Schema& schema) {
  std::vector<std::string> out;
  for (const auto& f : schema.fields()) {
    if (nd::IsNdField(*f)) out.push_back(f->name());
  }
  return out;
}

// Both tables store the same columns (fields with their metadata, and data, the stats columns
// included), with the variables in the same order. Where the global-attributes and stats
// columns sit among them may differ: the row path extends the schema row by row.
void ExpectSameStoredColumns(const Table& want, const Table& got) {
  ASSERT_EQ(want.schema()->num_fields(), got.schema()->num_fields());
  EXPECT_EQ(VariableOrder(*want.schema()), VariableOrder(*got.schema()));
  EXPECT_EQ(want.schema()->metadata(), got.schema()->metadata());
  LND_ASSERT_OK_AND_ASSIGN(auto a, table::ReadTable(want.dataset()));
  LND_ASSERT_OK_AND_ASSIGN(auto b, table::ReadTable(got.dataset()));
  ASSERT_EQ(a->num_rows(), b->num_rows());
  for (int i = 0; i < a->num_columns(); ++i) {
    const array::FieldPtr& field = a->schema()->field(i);
    const int j = b->schema()->FieldIndex(field->name());
    ASSERT_GE(j, 0) << field->name();
    EXPECT_TRUE(field->Equals(*b->schema()->field(j))) << field->ToString();
    EXPECT_TRUE(array::ArrayEquals(*a->column(i), *b->column(j))) << "column " << field->name();
  }
}

// Batches of random rows (each batch encoded on its own, so later batches bring new variables
// and keys), written both ways; some writes mix in rows given to Write.
TEST(NdWriterEncoded, MakesTheSameTableAsTheRowPath) {
  int stats_tables = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    SCOPED_TRACE(seed);
    Rng rng(seed);
    const auto u = RandomUniverse(rng, static_cast<int>(Uniform(rng, 1, 6)));
    const WriteOptions o = RandomOptions(rng);
    LND_ASSERT_OK_AND_ASSIGN(NdWriter by_rows, NdWriter::Create(MemoryTable("rows"), o));
    LND_ASSERT_OK_AND_ASSIGN(NdWriter by_batches, NdWriter::Create(MemoryTable("enc"), o));
    std::vector<nd::NdRecordBatch> all;
    const int writes = static_cast<int>(Uniform(rng, 1, 8));
    for (int i = 0; i < writes; ++i) {
      auto rows = RandomRows(rng, u, static_cast<int>(Uniform(rng, 1, 30)), 0.7);
      LND_ASSERT_OK(by_rows.Write(rows));
      if (i > 0 && Chance(rng, 0.2)) {
        LND_ASSERT_OK(by_batches.Write(rows));
      } else {
        LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, nd::EncodeRows(rows));
        LND_ASSERT_OK(by_batches.WriteEncoded(batch));
      }
      all.insert(all.end(), rows.begin(), rows.end());
    }
    EXPECT_EQ(by_batches.rows_written(), all.size());
    LND_ASSERT_OK_AND_ASSIGN(Table want, by_rows.Finish());
    LND_ASSERT_OK_AND_ASSIGN(Table got, by_batches.Finish());
    LND_ASSERT_OK_AND_ASSIGN(auto read, ReadRows(got.dataset()));
    api_testing::ExpectSameRows(all, read);
    ExpectSameStoredColumns(want, got);
    stats_tables += got.has_stats() ? 1 : 0;
  }
  EXPECT_GT(stats_tables, 10);
}

// Stats columns in the given batch are ignored: the writer's own are computed.
TEST(NdWriterEncoded, GivenStatsColumnsAreRecomputed) {
  Rng rng(3);
  const auto u = RandomUniverse(rng, 3);
  auto rows = RandomRows(rng, u, 20, 0.9);
  WriteOptions o;
  o.stats = true;
  LND_ASSERT_OK_AND_ASSIGN(Table reference, Table::Write(MemoryTable("ref"), rows, o));
  // The reference table's own stored batch, with its stats columns zeroed out.
  LND_ASSERT_OK_AND_ASSIGN(auto stored, table::ReadTable(reference.dataset()));
  std::vector<array::ArrayPtr> columns;
  for (int i = 0; i < stored->num_columns(); ++i) {
    const bool stats = stored->schema()->field(i)->name().starts_with(nd::kStatsPrefix);
    columns.push_back(stats ? array::MakeArrayOfNulls(stored->column(i)->type, stored->num_rows())
                            : stored->column(i));
  }
  LND_ASSERT_OK_AND_ASSIGN(auto given,
                           array::RecordBatch::Make(stored->schema(), stored->num_rows(), columns));
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(MemoryTable("enc"), o));
  LND_ASSERT_OK(w.WriteEncoded(given));
  LND_ASSERT_OK_AND_ASSIGN(Table got, w.Finish());
  ExpectSameStoredColumns(reference, got);
}

TEST(NdWriterEncoded, TypesOtherThanTheTablesGoThroughCasting) {
  const auto f32 = [](float v) {
    return nd::testing::Unwrap(
        nd::NdRecordBatch::FromArrays({{"t", nd::testing::Nd(nd::testing::F32({v}), {{"x", 1}})}}));
  };
  const auto f64 = [](double v) {
    return nd::testing::Unwrap(
        nd::NdRecordBatch::FromArrays({{"t", nd::testing::Nd(nd::testing::F64({v}), {{"x", 1}})}}));
  };
  auto loc = MemoryTable();
  LND_ASSERT_OK(Table::Write(loc, std::vector{f64(1.0)}).status());
  const std::vector<nd::NdRecordBatch> narrower{f32(2.5f)};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, nd::EncodeRows(narrower));
  {
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc));  // casting "no"
    LND_EXPECT_ERROR(w.WriteEncoded(batch), StatusCode::kSchemaMismatch, "float");
  }
  WriteOptions safe;
  safe.casting = Casting::kSafe;
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Append(loc, safe));
  LND_ASSERT_OK(w.WriteEncoded(batch));
  LND_ASSERT_OK_AND_ASSIGN(Table t, w.Finish());
  LND_ASSERT_OK_AND_ASSIGN(auto read, ReadRows(t.dataset()));
  api_testing::ExpectSameRows({f64(1.0), f64(2.5)}, read);
}

TEST(NdWriterEncoded, BadBatchesAreInputErrorsAndCommitNothing) {
  Rng rng(5);
  const auto u = RandomUniverse(rng, 2);
  auto rows = RandomRows(rng, u, 4, 1.0);
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr good, nd::EncodeRows(rows));
  auto loc = MemoryTable();
  {
    LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(loc));
    LND_EXPECT_ERROR(w.WriteEncoded(nullptr), StatusCode::kInvalidArgument, "no batch");
  }
  // A column that is not an nd column.
  auto plain =
      array::RecordBatch::Make(array::MakeSchema({array::MakeField("plain", array::Float64())}), 1,
                               {nd::testing::F64({1.0})});
  ASSERT_TRUE(plain.ok());
  LND_ASSERT_OK_AND_ASSIGN(NdWriter w, NdWriter::Create(loc));
  LND_EXPECT_ERROR(w.WriteEncoded(*plain), StatusCode::kInvalidArgument,
                   "encoded rows: invalid nd encoding: column 'plain' is neither");
  LND_EXPECT_ERROR(w.WriteEncoded(good), StatusCode::kWriterFailed, "an earlier write failed");
  LND_EXPECT_ERROR(w.Finish().status(), StatusCode::kWriterFailed, "an earlier write failed");
  LND_EXPECT_ERROR(Table::Open(loc).status(), StatusCode::kNotFound, "no table");
}

}  // namespace
}  // namespace lance_nd
