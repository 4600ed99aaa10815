// ReplaceColumns on plain tables: a column (and a struct column) replaced in place under new
// ids in one Merge, the other columns' files untouched, deleted rows kept deleted; errors.
#include "lance_nd/table/column_rewrite.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/cast.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using array::MakeField;

TableLocation Memory() { return {io::MakeMemoryFileSystem(), "t"}; }

// n rows: a int16 (random, nulls), s struct{x int16, y utf8}, keep float64.
array::RecordBatchPtr RandomBatch(std::mt19937_64& rng, int64_t n) {
  std::vector<std::optional<int16_t>> a, x;
  std::vector<std::optional<std::string>> y;
  std::vector<std::optional<double>> keep;
  for (int64_t i = 0; i < n; ++i) {
    const auto r = static_cast<int16_t>(std::uniform_int_distribution<int>(-30000, 30000)(rng));
    a.push_back(r % 5 == 0 ? std::nullopt : std::optional(r));
    x.push_back(static_cast<int16_t>(r / 3));
    y.push_back("y" + std::to_string(r));
    keep.push_back(static_cast<double>(i) / 2);
  }
  const auto s_type =
      array::Struct({MakeField("x", array::Int16()), MakeField("y", array::Utf8())});
  auto s = array::MakeArrayData(
      s_type, n, {nullptr},
      {array::MakePrimitiveArray<int16_t>(array::Int16(), x), array::MakeStringArray(y)});
  auto schema = array::MakeSchema({MakeField("a", array::Int16()), MakeField("s", s_type),
                                   MakeField("keep", array::Float64())});
  return *array::RecordBatch::Make(schema, n,
                                   {array::MakePrimitiveArray<int16_t>(array::Int16(), a), s,
                                    array::MakePrimitiveArray<double>(array::Float64(), keep)});
}

ColumnTransform CastAll(std::vector<array::FieldPtr> to) {
  return [to](const array::RecordBatchPtr& old) -> Result<array::RecordBatchPtr> {
    std::vector<array::ArrayPtr> columns;
    for (std::size_t i = 0; i < to.size(); ++i) {
      LND_ASSIGN_OR_RETURN(auto c, array::Cast(old->column(static_cast<int>(i)), to[i]->type()));
      columns.push_back(std::move(c));
    }
    return array::RecordBatch::Make(array::MakeSchema(to), old->num_rows(), std::move(columns));
  };
}

TEST(ReplaceColumns, ReplacesColumnsInPlaceUnderNewIdsInOneMerge) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 5; ++trial) {
    const auto location = Memory();
    const auto batch = RandomBatch(rng, std::uniform_int_distribution<int64_t>(1, 60)(rng));
    WriteOptions w;
    w.max_rows_per_file = std::uniform_int_distribution<int64_t>(1, 20)(rng);
    const array::RecordBatchPtr batches[] = {batch};
    LND_ASSERT_OK_AND_ASSIGN(auto ds, WriteTable(location, batches, w));
    const std::uint64_t first = ds.fragments().front().id << 32 | 0;
    LND_ASSERT_OK_AND_ASSIGN(auto deleted, DeleteRows(ds, std::span(&first, 1)));
    ds = deleted.dataset;
    const std::vector<array::FieldPtr> to = {
        MakeField("s", array::Struct(
                           {MakeField("x", array::Int32()), MakeField("y", array::LargeUtf8())})),
        MakeField("a", array::Int64())};
    const auto next_id = NextFieldId(ds.manifest());
    LND_ASSERT_OK_AND_ASSIGN(auto replaced, ReplaceColumns(ds, to, CastAll(to)));
    EXPECT_EQ(replaced.version(), ds.version() + 1);
    LND_ASSERT_OK_AND_ASSIGN(auto txn, replaced.ReadTransaction());
    ASSERT_TRUE(txn.has_value());
    EXPECT_EQ(txn->type(), OperationType::kMerge);
    // Schema order kept; replaced fields under ids >= next_id; keep's id unchanged.
    const auto& f = replaced.manifest().fields;
    ASSERT_EQ(replaced.schema()->num_fields(), 3);
    EXPECT_EQ(replaced.schema()->field(0)->name(), "a");
    EXPECT_TRUE(replaced.schema()->field(0)->type()->Equals(*array::Int64()));
    EXPECT_TRUE(replaced.schema()->field(1)->type()->Equals(*to[0]->type()));
    for (const auto& field : f) {
      if (field.name == "keep") {
        EXPECT_LT(field.id, next_id);
      } else {
        EXPECT_GE(field.id, next_id) << field.name;
      }
    }
    // Every live row reads back with the new types and the old values.
    LND_ASSERT_OK_AND_ASSIGN(auto back, ReadTable(replaced));
    LND_ASSERT_OK_AND_ASSIGN(auto old_rows, ReadTable(ds));
    ASSERT_EQ(back->num_rows(), old_rows->num_rows());
    LND_ASSERT_OK_AND_ASSIGN(auto want_a, array::Cast(old_rows->column(0), array::Int64()));
    EXPECT_TRUE(array::ArrayEquals(*back->column(0), *want_a));
    LND_ASSERT_OK_AND_ASSIGN(auto want_s, array::Cast(old_rows->column(1), to[0]->type()));
    EXPECT_TRUE(array::ArrayEquals(*back->column(1), *want_s));
    EXPECT_TRUE(array::ArrayEquals(*back->column(2), *old_rows->column(2)));
    // Old files keep `keep`; each fragment gained exactly one file.
    for (std::size_t i = 0; i < ds.fragments().size(); ++i) {
      EXPECT_EQ(replaced.fragments()[i].files.size(), ds.fragments()[i].files.size() + 1);
      EXPECT_EQ(replaced.fragments()[i].files.front(), ds.fragments()[i].files.front());
      EXPECT_EQ(replaced.fragments()[i].deletion_file, ds.fragments()[i].deletion_file);
    }
  }
}

TEST(ReplaceColumns, AFileLeftWithoutSchemaFieldsIsDropped) {
  std::mt19937_64 rng(32);
  const auto location = Memory();
  const array::RecordBatchPtr batches[] = {RandomBatch(rng, 10)};
  LND_ASSERT_OK_AND_ASSIGN(auto ds, WriteTable(location, batches));
  // Replacing every column leaves the original file with no field of the schema.
  std::vector<array::FieldPtr> all = ds.schema()->fields();
  LND_ASSERT_OK_AND_ASSIGN(auto replaced, ReplaceColumns(ds, all, CastAll(all)));
  ASSERT_EQ(replaced.fragments().size(), 1u);
  ASSERT_EQ(replaced.fragments()[0].files.size(), 1u);
  EXPECT_NE(replaced.fragments()[0].files[0].path, ds.fragments()[0].files[0].path);
  LND_ASSERT_OK_AND_ASSIGN(auto back, ReadTable(replaced));
  EXPECT_TRUE(back->Equals(*batches[0], /*check_metadata=*/false));
}

TEST(ReplaceColumns, ErrorsCommitNothing) {
  std::mt19937_64 rng(33);
  const auto location = Memory();
  const array::RecordBatchPtr batches[] = {RandomBatch(rng, 5)};
  LND_ASSERT_OK_AND_ASSIGN(auto ds, WriteTable(location, batches));
  const auto a64 = MakeField("a", array::Int64());
  LND_EXPECT_ERROR(ReplaceColumns(ds, {}, CastAll({})), StatusCode::kInvalidArgument,
                   "at least one");
  LND_EXPECT_ERROR(ReplaceColumns(ds, {MakeField("zz", array::Int8())}, CastAll({})),
                   StatusCode::kInvalidArgument, "a, s, keep");
  LND_EXPECT_ERROR(ReplaceColumns(ds, {a64, a64}, CastAll({a64, a64})),
                   StatusCode::kInvalidArgument, "twice");
  const ColumnTransform short_rows =
      [&](const array::RecordBatchPtr& old) -> Result<array::RecordBatchPtr> {
    LND_ASSIGN_OR_RETURN(auto full, CastAll({a64})(old));
    return full->Slice(0, 1);
  };
  LND_EXPECT_ERROR(ReplaceColumns(ds, {a64}, short_rows), StatusCode::kSchemaMismatch, "rows");
  LND_EXPECT_ERROR(ReplaceColumns(ds, {a64}, CastAll({MakeField("a", array::Int32())})),
                   StatusCode::kSchemaMismatch, "schema");
  LND_ASSERT_OK_AND_ASSIGN(auto latest, Dataset::Open(location));
  EXPECT_EQ(latest.version(), ds.version());
}

}  // namespace
}  // namespace lance_nd::table
