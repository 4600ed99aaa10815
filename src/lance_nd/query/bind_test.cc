// Bind: name resolution (longest top-level name, case of top-level names, struct children) and
// the errors it gives, with their positions; evaluation over projected and sliced batches; speed.
#include <gtest/gtest.h>

#include <chrono>

#include "lance_nd/array/builder.h"
#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/query/test_util.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::query {
namespace {

using array::MakeField;

array::SchemaPtr NdSchema() {
  auto attrs = array::Struct({MakeField("units", array::Utf8())});
  auto var = array::Struct({MakeField("values", array::List(array::Float32())),
                            MakeField("dim_names", array::List(array::Utf8())),
                            MakeField("dim_sizes", array::List(array::UInt64())),
                            MakeField("attrs", attrs)});
  return array::MakeSchema(
      {MakeField("sst", var), MakeField("a", array::Struct({MakeField("b", array::Int32())})),
       MakeField("a.b", var), MakeField("Depth", array::Int64()),
       MakeField("__global_attrs__", array::Struct({MakeField("id", array::Utf8())})),
       MakeField("__stats__:sst", array::Struct({MakeField("min", array::Float32()),
                                                 MakeField("max", array::Float32())}))});
}

Result<BoundFilter> BindSql(const std::string& sql) {
  LND_ASSIGN_OR_RETURN(Filter f, Filter::Parse(sql));
  return f.Bind(*NdSchema());
}

TEST(FilterBind, ResolvesPaths) {
  // `a.b` is the top-level name a.b (the longest that matches), not the field b of struct a.
  auto b = BindSql(
      "a.b.values IS NULL AND a.b IS NOT NULL AND `a.b`.attrs.units = 'K' AND depth > 2 AND "
      "`__stats__:sst`.max > 1 AND array_has(sst.values, 1)");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  const std::vector<ColumnPath> expected = {{"a.b", "values"},         {"a.b"},
                                            {"a.b", "attrs", "units"}, {"Depth"},
                                            {"__stats__:sst", "max"},  {"sst", "values"}};
  EXPECT_EQ(b->column_paths(), expected);
}

void ExpectBindError(const std::string& sql, const std::vector<std::string>& pieces) {
  auto b = BindSql(sql);
  ASSERT_FALSE(b.ok()) << sql;
  EXPECT_EQ(b.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(b.status().kind(), ErrorKind::kParseError);
  const std::string message(b.status().message());
  for (const auto& p : pieces) {
    EXPECT_NE(message.find(p), std::string::npos) << "missing " << p << " in\n" << message;
  }
}

TEST(FilterBind, Errors) {
  ExpectBindError("sst.valeus > 1", {"at position 0", "unknown column sst.valeus", "sst.values",
                                     "a.b.attrs.units", "__global_attrs__.id"});
  ExpectBindError("Depth = 1 AND sst.attrs.unit = 'K'",
                  {"at position 14", "unknown column sst.attrs.unit"});
  ExpectBindError("Depth = true", {"at position 6", "operator =", "int64", "bool"});
  ExpectBindError("Depth + 'x' > 1", {"operator +", "expects numbers", "int64 + string"});
  ExpectBindError("sst.values > 1", {"operator >", "list<item: float>", "int64"});
  ExpectBindError("Depth AND true", {"operator AND", "expects booleans"});
  ExpectBindError("Depth + 1", {"must be a condition", "int64"});
  ExpectBindError("Depth.x = 1", {"not a struct"});
  ExpectBindError("nope(Depth)", {"unknown function nope", "array_has"});
  ExpectBindError("array_has(Depth, 1)", {"expects a list"});
  ExpectBindError("array_has(sst.values)", {"takes 2 argument(s), found 1"});
  ExpectBindError("array_has(sst.values, true)", {"cannot compare float with bool"});
  ExpectBindError("sst.attrs.units LIKE 3", {"LIKE expects strings"});
  ExpectBindError("NOT Depth", {"NOT expects a boolean"});
  ExpectBindError("CAST(sst AS INT) = 1", {"CAST cannot convert"});
}

// Random struct columns, sliced, evaluated whole and through a projection holding the filter's
// columns only: the same rows, and a null struct hides its children.
TEST(FilterBind, ProjectionsAndSlices) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    auto schema = NdSchema();
    std::vector<array::ArrayPtr> columns;
    columns.reserve(static_cast<std::size_t>(schema->num_fields()));
    lance_nd::testing::RandomArrayOptions options;
    options.sliced = true;
    options.max_binary_length = 1;
    for (int i = 0; i < schema->num_fields(); ++i) {
      columns.push_back(lance_nd::testing::RandomArray(
          schema->field(i)->type(), 30, 0.3, seed * 31 + static_cast<std::uint64_t>(i), options));
    }
    const array::RecordBatch full(schema, 30, columns);
    const std::string sql = "a.b.attrs.units IS NOT NULL OR __global_attrs__.id >= 'm'";
    auto all = testutil::SelectRows(full, sql);
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    const array::RecordBatch projected(array::MakeSchema({schema->field(4), schema->field(2)}), 30,
                                       {columns[4], columns[2]});
    auto bound = Filter::Parse(sql)->Bind(*schema);
    ASSERT_TRUE(bound.ok());
    auto some = bound->Select(projected);
    ASSERT_TRUE(some.ok()) << some.status().ToString();
    EXPECT_EQ(*all, *some);
    for (std::int64_t row : *all) {
      const auto& var = *columns[2];
      const auto& globals = *columns[4];
      const bool var_present =
          var.IsValid(row) && var.children[3]->IsValid(var.offset + row) &&
          var.children[3]->children[0]->IsValid(var.children[3]->offset + var.offset + row);
      const bool id_present =
          globals.IsValid(row) && globals.children[0]->IsValid(globals.offset + row);
      EXPECT_TRUE(var_present || id_present) << "seed " << seed << " row " << row;
    }
  }
  auto bound = Filter::Parse("Depth > 1")->Bind(*NdSchema());
  const array::RecordBatch empty(array::MakeSchema({}), 3, {});
  LND_EXPECT_ERROR(bound->Select(empty), StatusCode::kInvalidArgument, "has no column Depth");
}

TEST(FilterBind, EmptyBatch) {
  auto schema = NdSchema();
  std::vector<array::ArrayPtr> columns;
  columns.reserve(schema->fields().size());
  for (const auto& f : schema->fields()) columns.push_back(array::MakeEmptyArray(f->type()));
  const array::RecordBatch batch(schema, 0, columns);
  auto bound = Filter::Parse("array_has(sst.values, 1) OR a.b.attrs.units LIKE 'K%' OR Depth > 1")
                   ->Bind(*schema);
  ASSERT_TRUE(bound.ok());
  auto values = bound->Evaluate(batch);
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ((*values)->length, 0);
  auto rows = bound->Select(batch);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
}

// Printing and comparing trees still recurse; sanitizer builds have frames several times larger,
// so they check a shorter chain.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kChainTerms = 600;
#else
constexpr int kChainTerms = 3000;
#endif

TEST(FilterBind, LongOrChainEvaluates) {
  std::string sql = "Depth = 0";
  for (int i = 1; i < kChainTerms; ++i) sql += " OR Depth = " + std::to_string(i);
  auto schema = array::MakeSchema({MakeField("Depth", array::Int64())});
  const array::RecordBatch batch(
      schema, 3,
      {array::MakePrimitiveArray<std::int64_t>(array::Int64(), {5, 4000, std::nullopt})});
  auto rows = testutil::SelectRows(batch, sql);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, (std::vector<std::int64_t>{0}));
  auto f = Filter::Parse(sql);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(ExprEquals(*Filter::Parse(f->ToSql())->root(), *f->root()));
}

TEST(FilterBind, HundredThousandRowsQuickly) {
  const std::int64_t n = 100000;
  auto schema =
      array::MakeSchema({MakeField("x", array::Float64()), MakeField("s", array::Utf8()),
                         MakeField("st", array::Struct({MakeField("y", array::Int32())}))});
  std::vector<array::ArrayPtr> columns;
  columns.reserve(3);
  for (int i = 0; i < 3; ++i) {
    columns.push_back(lance_nd::testing::RandomArray(schema->field(i)->type(), n, 0.1,
                                                     7u + static_cast<std::uint64_t>(i)));
  }
  const array::RecordBatch batch(schema, n, columns);
  auto bound =
      Filter::Parse("(x > 0.5 AND s LIKE 'a%') OR st.y IN (1, 2, 3) OR st IS NULL")->Bind(*schema);
  ASSERT_TRUE(bound.ok());
  const auto start = std::chrono::steady_clock::now();
  auto rows = bound->Select(batch);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  ASSERT_TRUE(rows.ok());
  EXPECT_GT(rows->size(), 0u);
  // Generous for a loaded machine and a debug build; a per-row interpreter on boxed values
  // would take seconds.
  EXPECT_LT(ms, 2000) << ms << " ms";
}

}  // namespace
}  // namespace lance_nd::query
