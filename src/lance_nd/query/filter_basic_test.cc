// Hand-written cases on a small nd-shaped table: nested paths, struct nulls, dotted names.
#include <gtest/gtest.h>

#include "lance_nd/array/builder.h"
#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::ArrayPtr;
using array::MakeField;

// Rows: 0 {id a, units K, x 1}, 1 {id b, units null, x 5}, 2 {globals null, sst null, x null},
// 3 {id a, units C, x 3}
array::RecordBatchPtr SmallBatch() {
  auto id = array::MakeStringArray({"a", "b", "zz", "a"});
  auto globals_type = array::Struct({MakeField("id", array::Utf8())});
  auto globals = array::MakeArrayData(globals_type, 4, {nullptr}, {id}, 0);
  auto units = array::MakeStringArray({"K", std::nullopt, "K", "C"});
  auto attrs_type = array::Struct({MakeField("units", array::Utf8())});
  auto attrs = array::MakeArrayData(attrs_type, 4, {nullptr}, {units}, 0);
  array::ListBuilder values(array::List(array::Float64()));
  auto* items = static_cast<array::PrimitiveBuilder<double>*>(values.value_builder());
  values.Append();
  items->Append(1.0);
  items->Append(2.0);
  values.Append();
  items->Append(7.5);
  values.AppendNull();
  values.Append();
  auto values_array = *values.Finish();
  auto sst_type =
      array::Struct({MakeField("values", values_array->type), MakeField("attrs", attrs_type)});
  // sst is null at row 2 (its children hold values there that must not show through).
  std::uint8_t* bits = nullptr;
  auto validity = array::Buffer::AllocateZeroed(1, &bits);
  bits[0] = 0b1011;
  auto globals_validity = array::Buffer::AllocateZeroed(1, &bits);
  bits[0] = 0b1011;
  globals = array::MakeArrayData(globals_type, 4, {globals_validity}, {id});
  auto sst = array::MakeArrayData(sst_type, 4, {validity}, {values_array, attrs});
  auto x = array::MakePrimitiveArray<std::int32_t>(array::Int32(), {1, 5, std::nullopt, 3});
  auto schema =
      array::MakeSchema({MakeField("sst", sst_type), MakeField("__global_attrs__", globals_type),
                         MakeField("x.y", array::Int32())});
  return std::make_shared<array::RecordBatch>(schema, 4, std::vector<ArrayPtr>{sst, globals, x});
}

std::vector<std::int64_t> Rows(const std::string& sql) {
  auto batch = SmallBatch();
  auto filter = Filter::Parse(sql);
  EXPECT_TRUE(filter.ok()) << filter.status().ToString();
  if (!filter.ok()) return {-1};
  auto bound = filter->Bind(*batch->schema());
  EXPECT_TRUE(bound.ok()) << bound.status().ToString();
  if (!bound.ok()) return {-1};
  auto rows = bound->Select(*batch);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : std::vector<std::int64_t>{-1};
}

using V = std::vector<std::int64_t>;

TEST(FilterBasic, NestedComparisons) {
  EXPECT_EQ(Rows("__global_attrs__.id = 'a'"), (V{0, 3}));
  EXPECT_EQ(Rows("sst.attrs.units = 'K'"), (V{0}));  // row 2's K is under a null sst
  EXPECT_EQ(Rows("sst.attrs.units <> 'K'"), (V{3}));
  EXPECT_EQ(Rows("`x.y` > 2"), (V{1, 3}));
  EXPECT_EQ(Rows("x.y >= 3 AND __global_attrs__.id = 'a'"), (V{3}));
  EXPECT_EQ(Rows("x.y < 2 OR sst.attrs.units = 'C'"), (V{0, 3}));
}

TEST(FilterBasic, NullTests) {
  EXPECT_EQ(Rows("sst IS NULL"), (V{2}));
  EXPECT_EQ(Rows("sst IS NOT NULL"), (V{0, 1, 3}));
  EXPECT_EQ(Rows("sst.attrs.units IS NULL"), (V{1, 2}));
  EXPECT_EQ(Rows("NOT (sst.attrs.units IS NULL)"), (V{0, 3}));
  EXPECT_EQ(Rows("sst.attrs.units = 'K' OR true"), (V{0, 1, 2, 3}));
  EXPECT_EQ(Rows("NOT (sst.attrs.units = 'K')"), (V{3}));
}

TEST(FilterBasic, Lists) {
  EXPECT_EQ(Rows("array_has(sst.values, 7.5)"), (V{1}));
  EXPECT_EQ(Rows("array_has(sst.values, 2)"), (V{0}));
  EXPECT_EQ(Rows("array_length(sst.values) = 0"), (V{3}));
  EXPECT_EQ(Rows("array_length(sst.values) >= 1"), (V{0, 1}));
}

TEST(FilterBasic, Misc) {
  EXPECT_EQ(Rows("x.y IN (1, 3)"), (V{0, 3}));
  EXPECT_EQ(Rows("x.y NOT IN (1, NULL)"), (V{}));
  EXPECT_EQ(Rows("x.y BETWEEN 2 AND 5"), (V{1, 3}));
  EXPECT_EQ(Rows("x.y * 2 - 1 = 9"), (V{1}));
  EXPECT_EQ(Rows("__global_attrs__.id LIKE 'a%'"), (V{0, 3}));
  EXPECT_EQ(Rows("CAST(x.y AS STRING) = '5'"), (V{1}));
  EXPECT_EQ(Rows("x.y / 2 = 2"), (V{1}));
  EXPECT_EQ(Rows("x.y / 2.0 = 2.5"), (V{1}));
}

TEST(FilterBasic, Errors) {
  auto batch = SmallBatch();
  auto f = Filter::Parse("x.y = ");
  LND_EXPECT_ERROR(f, StatusCode::kInvalidArgument, "at position 6");
  EXPECT_EQ(f.status().kind(), ErrorKind::kParseError);
  auto g = Filter::Parse("sst.nope = 1");
  ASSERT_TRUE(g.ok());
  auto bound = g->Bind(*batch->schema());
  LND_EXPECT_ERROR(bound, StatusCode::kInvalidArgument, "sst.attrs.units");
  auto h = Filter::Parse("x.y = true");
  ASSERT_TRUE(h.ok());
  LND_EXPECT_ERROR(h->Bind(*batch->schema()), StatusCode::kInvalidArgument,
                   "cannot compare int32 with bool");
  auto batch_rows = Filter::Parse("x.y / 0 = 1");
  ASSERT_TRUE(batch_rows.ok());
  auto b = batch_rows->Bind(*batch->schema());
  ASSERT_TRUE(b.ok());
  LND_EXPECT_ERROR(b->Select(*batch), StatusCode::kInvalidArgument, "divide by zero");
}

// Issue 33: a value that does not cast at run time (LanceDB casts the string column to the
// literal's type, and so do we) points at the operator in the text and names both types.
TEST(FilterBasic, RunTimeCastErrorsPointIntoTheText) {
  auto batch = SmallBatch();
  const std::pair<std::string, std::string> cases[] = {
      {"__global_attrs__.id > 5",
       "at position 20 (line 1, column 21): cannot cast 'a' to int64: not an integer (operands: "
       "string, int64; compare values of one type, or CAST one side explicitly)"},
      {"x.y = 1 OR\n  sst.attrs.units <= 2",
       "at position 29 (line 2, column 19): cannot cast 'K' to int64"},
      {"CAST(__global_attrs__.id AS INT) = 1",
       "at position 0 (line 1, column 1): cannot cast 'a' to int32: not an integer (casting "
       "string to int32)"},
  };
  for (const auto& [sql, message] : cases) {
    LND_ASSERT_OK_AND_ASSIGN(Filter f, Filter::Parse(sql));
    LND_ASSERT_OK_AND_ASSIGN(BoundFilter bound, f.Bind(*batch->schema()));
    auto selected = bound.Select(*batch);
    LND_EXPECT_ERROR(selected, StatusCode::kInvalidArgument, message);
    EXPECT_EQ(selected.status().kind(), ErrorKind::kParseError) << sql;
  }
}

}  // namespace
}  // namespace lance_nd::query
