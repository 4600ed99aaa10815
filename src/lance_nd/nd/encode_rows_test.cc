// EncodeRows: the nd_arrow.array layout, the table rules, the wiki worked example.
#include <gtest/gtest.h>

#include "lance_nd/array/view.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/random_arrays.h"
#include "lance_nd/testing/status_matchers.h"
#include "retype.h"

namespace lance_nd::nd {
namespace {

using array::ArrayData;
using array::TypeId;
using testing::Batch;
using testing::Dims;
using testing::F32;
using testing::F64;
using testing::I32;
using testing::Iota32;
using testing::Nd;
using testing::Str;

std::vector<int64_t> Offsets(const ArrayData& list) {
  const array::ListView v(list);
  std::vector<int64_t> out;
  for (int64_t i = 0; i <= list.length; ++i) out.push_back(v.ValueOffset(i));
  return out;
}

std::vector<std::string> NamesAt(const ArrayData& list, int64_t row) {
  const array::ListView v(list);
  const array::BinaryView items(*list.children[0]);
  std::vector<std::string> out;
  for (int64_t i = v.ValueOffset(row); i < v.ValueOffset(row + 1); ++i) {
    out.emplace_back(items.Value(i));
  }
  return out;
}

std::vector<uint32_t> SizesAt(const ArrayData& list, int64_t row) {
  const array::ListView v(list);
  const array::PrimitiveView<uint32_t> items(*list.children[0]);
  std::vector<uint32_t> out;
  for (int64_t i = v.ValueOffset(row); i < v.ValueOffset(row + 1); ++i) {
    out.push_back(items.Value(i));
  }
  return out;
}

std::vector<bool> Validity(const ArrayData& a) {
  std::vector<bool> out;
  for (int64_t i = 0; i < a.length; ++i) out.push_back(a.IsValid(i));
  return out;
}

void ExpectNdField(const array::Field& f, const std::string& name, const array::DataType& value) {
  SCOPED_TRACE(name);
  EXPECT_EQ(f.name(), name);
  EXPECT_TRUE(f.nullable());
  EXPECT_EQ(f.metadata().Get("ARROW:extension:name"),
            std::optional<std::string_view>("nd_arrow.array"));
  EXPECT_EQ(f.metadata().Get("ARROW:extension:metadata"),
            std::optional<std::string_view>("{\"version\":1}"));
  const auto& c = f.type()->children();
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0]->name(), "values");
  EXPECT_FALSE(c[0]->nullable());
  ASSERT_EQ(c[0]->type()->id(), TypeId::kList);
  EXPECT_EQ(c[0]->type()->value_field()->name(), "item");
  EXPECT_TRUE(c[0]->type()->value_field()->nullable());
  EXPECT_TRUE(c[0]->type()->value_type()->Equals(value));
  EXPECT_EQ(c[1]->name(), "dim_names");
  EXPECT_FALSE(c[1]->nullable());
  EXPECT_TRUE(c[1]->type()->Equals(*array::List(array::MakeField("item", array::Utf8(), false))));
  EXPECT_EQ(c[2]->name(), "dim_sizes");
  EXPECT_FALSE(c[2]->nullable());
  EXPECT_TRUE(c[2]->type()->Equals(*array::List(array::MakeField("item", array::UInt32(), false))));
}

// The wiki "Table Layout" example: three rows, pressure only in row 1.
std::vector<NdRecordBatch> WikiRows() {
  auto globals = [](const char* id) {
    Attributes g;
    g.Set("id", id);
    return g;
  };
  std::vector<NdRecordBatch> rows;
  rows.push_back(Batch({{"x", Nd(F64({0, 1, 2}), {{"x", 3}})},
                        {"y", Nd(F64({0, 10, 20, 30}), {{"y", 4}})},
                        {"temperature", Nd(Iota32(12), {{"x", 3}, {"y", 4}})}},
                       globals("a")));
  rows.push_back(
      Batch({{"pressure", Nd(F32({1000, 1001, 1002}), {{"station", 3}})}}, globals("b")));
  rows.push_back(Batch({{"x", Nd(F64({5, 6}), {{"x", 2}})},
                        {"y", Nd(F64({0, 10, 20, 30}), {{"y", 4}})},
                        {"temperature", Nd(Iota32(8), {{"x", 2}, {"y", 4}})}},
                       globals("c")));
  return rows;
}

TEST(EncodeRows, WikiWorkedExampleFieldByField) {
  const std::vector<NdRecordBatch> rows = WikiRows();
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  LND_ASSERT_OK(batch->Validate());
  ASSERT_EQ(batch->num_rows(), 3);
  const array::Schema& schema = *batch->schema();
  ASSERT_EQ(schema.num_fields(), 5);
  ExpectNdField(*schema.field(0), "x", *array::Float64());
  ExpectNdField(*schema.field(1), "y", *array::Float64());
  ExpectNdField(*schema.field(2), "temperature", *array::Float32());
  ExpectNdField(*schema.field(3), "pressure", *array::Float32());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(schema.field(i)->type()->children().size(), 3u);
  EXPECT_TRUE(schema.metadata().empty());

  // x: present in rows 0 and 2.
  const ArrayData& x = *batch->column(0);
  EXPECT_EQ(Validity(x), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(x.null_count(), 1);
  EXPECT_EQ(Offsets(*x.children[0]), (std::vector<int64_t>{0, 3, 3, 5}));
  EXPECT_TRUE(array::ArrayEquals(*x.children[0]->children[0], *F64({0, 1, 2, 5, 6})));
  EXPECT_EQ(NamesAt(*x.children[1], 0), (std::vector<std::string>{"x"}));
  EXPECT_EQ(NamesAt(*x.children[1], 1), (std::vector<std::string>{}));
  EXPECT_EQ(NamesAt(*x.children[1], 2), (std::vector<std::string>{"x"}));
  EXPECT_EQ(SizesAt(*x.children[2], 0), (std::vector<uint32_t>{3}));
  EXPECT_EQ(SizesAt(*x.children[2], 1), (std::vector<uint32_t>{}));
  EXPECT_EQ(SizesAt(*x.children[2], 2), (std::vector<uint32_t>{2}));
  // Absent = null row whose children are valid empty lists.
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(x.children[static_cast<std::size_t>(k)]->null_count(), 0) << k;
  }

  // temperature: rank 2 in rows 0 and 2.
  const ArrayData& t = *batch->column(2);
  EXPECT_EQ(Validity(t), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Offsets(*t.children[0]), (std::vector<int64_t>{0, 12, 12, 20}));
  EXPECT_EQ(NamesAt(*t.children[1], 0), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(SizesAt(*t.children[2], 0), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(SizesAt(*t.children[2], 2), (std::vector<uint32_t>{2, 4}));

  // pressure: only row 1.
  const ArrayData& p = *batch->column(3);
  EXPECT_EQ(Validity(p), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(Offsets(*p.children[0]), (std::vector<int64_t>{0, 0, 3, 3}));
  EXPECT_EQ(NamesAt(*p.children[1], 1), (std::vector<std::string>{"station"}));
  EXPECT_EQ(SizesAt(*p.children[2], 1), (std::vector<uint32_t>{3}));
  EXPECT_EQ(NamesAt(*p.children[1], 0), (std::vector<std::string>{}));

  // __global_attrs__: last, tagged, one nullable child per key.
  const array::Field& g = *schema.field(4);
  EXPECT_EQ(g.name(), "__global_attrs__");
  EXPECT_TRUE(g.nullable());
  EXPECT_TRUE(IsGlobalAttributesField(g));
  EXPECT_EQ(g.metadata().Get("ARROW:extension:name"),
            std::optional<std::string_view>("nd_arrow.global_attributes"));
  EXPECT_EQ(g.metadata().Get("ARROW:extension:metadata"),
            std::optional<std::string_view>("{\"version\":1}"));
  ASSERT_EQ(g.type()->id(), TypeId::kStruct);
  ASSERT_EQ(g.type()->children().size(), 1u);
  EXPECT_EQ(g.type()->children()[0]->name(), "id");
  EXPECT_TRUE(g.type()->children()[0]->nullable());
  EXPECT_TRUE(g.type()->children()[0]->type()->Equals(*array::Utf8()));
  const ArrayData& ga = *batch->column(4);
  EXPECT_EQ(ga.null_count(), 0);
  EXPECT_TRUE(array::ArrayEquals(*ga.children[0], *Str({"a", "b", "c"})));

  // And back.
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(back[i], rows[i]) << back[i].ToString();
  EXPECT_EQ(back[1].num_columns(), 1);
  EXPECT_EQ(back[1].column_name(0), "pressure");
  EXPECT_EQ(back[1].target(), Dims({{"station", 3}}));
  EXPECT_EQ(back[0].target(), Dims({{"x", 3}, {"y", 4}}));
  EXPECT_EQ(back[2].attributes().GetString("id"), std::optional<std::string>("c"));
}

TEST(EncodeRows, NoRowsGiveAnEmptyBatch) {
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows({}));
  EXPECT_EQ(batch->num_rows(), 0);
  EXPECT_EQ(batch->num_columns(), 0);
}

TEST(EncodeRows, ColumnOrderIsFirstAppearance) {
  const std::vector<NdRecordBatch> rows = {
      Batch({{"a", Nd(Iota32(1), {})}}),
      Batch({{"c", Nd(Iota32(1), {})}, {"b", Nd(Iota32(1), {})}, {"a", Nd(Iota32(1), {})}})};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  ASSERT_EQ(batch->num_columns(), 3);
  EXPECT_EQ(batch->schema()->field(0)->name(), "a");
  EXPECT_EQ(batch->schema()->field(1)->name(), "c");
  EXPECT_EQ(batch->schema()->field(2)->name(), "b");
}

TEST(EncodeRows, NoAttrsChildWithoutAttributesAndNoGlobalsColumnWithoutGlobals) {
  LND_ASSERT_OK_AND_ASSIGN(
      array::RecordBatchPtr batch,
      EncodeRows(std::vector<NdRecordBatch>{Batch({{"v", Nd(Iota32(2), {{"x", 2}})}})}));
  ASSERT_EQ(batch->num_columns(), 1);
  EXPECT_EQ(batch->schema()->field(0)->type()->children().size(), 3u);
  EXPECT_EQ(batch->column(0)->children.size(), 3u);
}

TEST(EncodeRows, AttrsAreTheUnionOfKeysWithNullsForMissingKeys) {
  Attributes a0, a2;
  a0.Set("units", "K").Set("scale", 2.0);
  a2.Set("long_name", "Temperature")
      .Set("units", "degC")
      .Set("valid_range", std::vector<double>{0, 50});
  const std::vector<NdRecordBatch> rows = {
      Batch({{"v", Nd(Iota32(2), {{"x", 2}}, a0)}}), Batch({{"w", Nd(Iota32(1), {})}}),
      Batch({{"v", Nd(Iota32(1), {}, a2)}}), Batch({{"v", Nd(Iota32(1), {})}})};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  LND_ASSERT_OK(batch->Validate());
  const array::Field& v = *batch->schema()->field(0);
  ASSERT_EQ(v.type()->children().size(), 4u);
  const array::Field& attrs = *v.type()->children()[3];
  EXPECT_EQ(attrs.name(), "attrs");
  EXPECT_TRUE(attrs.nullable());  // declared nullable, written without nulls
  const auto& keys = attrs.type()->children();
  ASSERT_EQ(keys.size(), 4u);
  EXPECT_EQ(keys[0]->name(), "units");
  EXPECT_EQ(keys[1]->name(), "scale");
  EXPECT_EQ(keys[2]->name(), "long_name");
  EXPECT_EQ(keys[3]->name(), "valid_range");
  for (const auto& k : keys) EXPECT_TRUE(k->nullable()) << k->name();
  EXPECT_TRUE(keys[1]->type()->Equals(*array::Float64()));
  EXPECT_TRUE(keys[3]->type()->Equals(*array::List(array::Float64())));
  const ArrayData& col = *batch->column(0);
  const ArrayData& attrs_array = *col.children[3];
  EXPECT_EQ(attrs_array.null_count(), 0);  // attrs slots are never null, not even in null rows
  EXPECT_TRUE(array::ArrayEquals(*attrs_array.children[0],
                                 *Str({"K", std::nullopt, "degC", std::nullopt})));
  EXPECT_TRUE(array::ArrayEquals(*attrs_array.children[1],
                                 *F64({2.0, std::nullopt, std::nullopt, std::nullopt})));
  EXPECT_EQ(Validity(*attrs_array.children[3]), (std::vector<bool>{false, false, true, false}));
  // w has no attributes at all: no attrs child.
  EXPECT_EQ(batch->schema()->field(1)->type()->children().size(), 3u);
}

TEST(EncodeRows, GlobalsUnionWithNullRowForRowsWithout) {
  Attributes g0, g2;
  g0.Set("id", "a");
  g2.Set("chunk_offset", int64_t{10}).Set("id", "c");
  const std::vector<NdRecordBatch> rows = {Batch({{"v", Nd(Iota32(1), {})}}, g0),
                                           Batch({{"v", Nd(Iota32(1), {})}}), Batch({}, g2)};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  LND_ASSERT_OK(batch->Validate());
  ASSERT_EQ(batch->num_columns(), 2);
  const array::Field& g = *batch->schema()->field(1);
  EXPECT_EQ(g.name(), "__global_attrs__");
  ASSERT_EQ(g.type()->children().size(), 2u);
  EXPECT_EQ(g.type()->children()[0]->name(), "id");
  EXPECT_EQ(g.type()->children()[1]->name(), "chunk_offset");
  const ArrayData& ga = *batch->column(1);
  EXPECT_EQ(Validity(ga), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Validity(*batch->column(0)), (std::vector<bool>{true, true, false}));
}

TEST(EncodeRows, KeepsLogicalFieldAndSchemaMetadata) {
  auto schema = array::MakeSchema(
      {array::MakeField("v", array::Float32(), true, array::Metadata({{"origin", "model"}}))},
      array::Metadata({{"title", "run 1"}}));
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch row,
                           NdRecordBatch::MakeInferred(schema, {Nd(Iota32(1), {})}));
  const std::vector<NdRecordBatch> rows = {row, row};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  EXPECT_EQ(batch->schema()->metadata().Get("title"), std::optional<std::string_view>("run 1"));
  const array::Metadata& m = batch->schema()->field(0)->metadata();
  EXPECT_EQ(m.Get("origin"), std::optional<std::string_view>("model"));
  EXPECT_TRUE(IsNdField(*batch->schema()->field(0)));
}

TEST(EncodeRows, RejectsConflictingSchemaMetadata) {
  auto make = [](const char* title) {
    auto schema = array::MakeSchema({}, array::Metadata({{"title", title}}));
    return testing::Unwrap(NdRecordBatch::MakeInferred(schema, {}));
  };
  const std::vector<NdRecordBatch> rows = {make("a"), make("a"), make("b")};
  LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kSchemaMismatch,
                   "schema mismatch: schema metadata 'title' is 'b' in row 2 but 'a' in row 0");
}

TEST(EncodeRows, RejectsReservedNames) {
  for (const char* name : {"__global_attrs__", "__stats__", "__stats__:v", "__stats__x"}) {
    const std::vector<NdRecordBatch> rows = {Batch({{name, Nd(Iota32(1), {})}})};
    LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kSchemaMismatch,
                     "schema mismatch: variable name '" + std::string(name) +
                         "' in row 0 is "
                         "reserved");
  }
  const std::vector<NdRecordBatch> ok = {
      Batch({{"__statsx", Nd(Iota32(1), {})}, {"__global_attrs", Nd(Iota32(1), {})}})};
  LND_EXPECT_OK(EncodeRows(ok));
}

TEST(EncodeRows, RejectsTwoValueTypesForOneName) {
  const std::vector<NdRecordBatch> rows = {Batch({{"v", Nd(Iota32(1), {})}}),
                                           Batch({{"v", Nd(F64({1}), {})}})};
  LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kSchemaMismatch,
                   "schema mismatch: array 'v' has value type double in row 1 but float in "
                   "row 0");
}

TEST(EncodeRows, RejectsTwoTypesForOneAttributeKey) {
  Attributes a, b;
  a.Set("units", "K");
  b.Set("units", 1);
  const std::vector<NdRecordBatch> rows = {Batch({{"v", Nd(Iota32(1), {}, a)}}),
                                           Batch({{"v", Nd(Iota32(1), {}, b)}})};
  LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kSchemaMismatch,
                   "schema mismatch: attribute 'units' of array 'v' has type int32 in row 1 but "
                   "string in row 0");
  // The same key in different columns may have different types.
  const std::vector<NdRecordBatch> ok = {Batch({{"v", Nd(Iota32(1), {}, a)}}),
                                         Batch({{"w", Nd(Iota32(1), {}, b)}})};
  LND_EXPECT_OK(EncodeRows(ok));
}

/// A one-value list<item: double> attribute, its item field nullable or not (nulls only then).
array::ArrayPtr DoubleList(lance_nd::testing::Rng& rng, bool nullable_items) {
  std::vector<std::optional<double>> items;
  for (auto n = rng.Range(0, 3); n > 0; --n) {
    if (nullable_items && rng.Chance(0.3)) {
      items.emplace_back();
    } else {
      items.emplace_back(static_cast<double>(rng.Range(-9, 9)) / 2);
    }
  }
  const int32_t offsets[2] = {0, static_cast<int32_t>(items.size())};
  const auto type = array::List(array::MakeField("item", array::Float64(), nullable_items));
  return array::MakeArrayData(type, 1, {nullptr, array::Buffer::Copy(offsets, sizeof(offsets))},
                              {F64(items)}, 0);
}

/// A one-value struct<x: int32, flags: list<double>> attribute, each field nullable or not.
array::ArrayPtr Pair(lance_nd::testing::Rng& rng, bool nullable_x, bool nullable_flags,
                     bool nullable_items) {
  const array::ArrayPtr flags = DoubleList(rng, nullable_items);
  const auto type = array::Struct({array::MakeField("x", array::Int32(), nullable_x),
                                   array::MakeField("flags", flags->type, nullable_flags)});
  return array::MakeArrayData(type, 1, {nullptr},
                              {I32({static_cast<int32_t>(rng.Range(0, 99))}), flags}, 0);
}

// nd_row_decoder fuzz finding (issue 33): attribute types that differ only in the nullability
// of list items or struct children are one type; rows holding both encode, as the nullable type,
// and decode back to the same values.
TEST(EncodeRows, AttributeTypesDifferingInNullabilityAreOneType) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    lance_nd::testing::Rng rng(seed);
    const auto n = rng.Range(2, 5);
    std::vector<NdRecordBatch> rows;
    std::vector<array::ArrayPtr> flags, pairs;
    bool any_items = false, any_x = false, any_flags = false, any_pair_items = false;
    for (int64_t r = 0; r < n; ++r) {
      const bool items = rng.Chance(0.5), x = rng.Chance(0.5), f = rng.Chance(0.5),
                 pair_items = rng.Chance(0.5);
      any_items |= items;
      any_x |= x;
      any_flags |= f;
      any_pair_items |= pair_items;
      flags.push_back(DoubleList(rng, items));
      pairs.push_back(Pair(rng, x, f, pair_items));
      Attributes attrs, globals;
      LND_ASSERT_OK(attrs.SetValue("flags", flags.back()));
      LND_ASSERT_OK(globals.SetValue("pair", pairs.back()));
      rows.push_back(Batch({{"a.b", Nd(Iota32(2), {{"x", 2}}, attrs)}}, globals));
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    LND_ASSERT_OK_AND_ASSIGN(auto batch, EncodeRows(rows));
    LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
    LND_ASSERT_OK_AND_ASSIGN(auto back, decoder.DecodeAll(*batch));
    ASSERT_EQ(back.size(), rows.size());
    const auto flags_type = array::List(array::MakeField("item", array::Float64(), any_items));
    const auto pair_type = array::Struct(
        {array::MakeField("x", array::Int32(), any_x),
         array::MakeField("flags",
                          array::List(array::MakeField("item", array::Float64(), any_pair_items)),
                          any_flags)});
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const array::ArrayPtr got_flags = back[r].column(0).attributes().Get("flags");
      const array::ArrayPtr got_pair = back[r].attributes().Get("pair");
      ASSERT_TRUE(got_flags && got_pair);
      EXPECT_TRUE(got_flags->type->Equals(*flags_type)) << got_flags->type->ToString();
      EXPECT_TRUE(got_pair->type->Equals(*pair_type)) << got_pair->type->ToString();
      LND_ASSERT_OK_AND_ASSIGN(auto want_flags, internal::Retype(flags[r], flags_type));
      LND_ASSERT_OK_AND_ASSIGN(auto want_pair, internal::Retype(pairs[r], pair_type));
      EXPECT_TRUE(array::ArrayEquals(*got_flags, *want_flags)) << "row " << r;
      EXPECT_TRUE(array::ArrayEquals(*got_pair, *want_pair)) << "row " << r;
    }
    // The decoded rows, all of one type now, encode again to the same table rows.
    LND_ASSERT_OK_AND_ASSIGN(auto again, EncodeRows(back));
    EXPECT_TRUE(again->schema()->Equals(*batch->schema()));
  }
  // A target schema takes a value whose type is stricter than its own, not one that is looser.
  Attributes strict, loose;
  lance_nd::testing::Rng rng(7);
  LND_ASSERT_OK(strict.SetValue("flags", DoubleList(rng, false)));
  LND_ASSERT_OK(loose.SetValue("flags", DoubleList(rng, true)));
  const std::vector<NdRecordBatch> loose_rows = {Batch({{"v", Nd(Iota32(1), {}, loose)}})};
  const std::vector<NdRecordBatch> strict_rows = {Batch({{"v", Nd(Iota32(1), {}, strict)}})};
  LND_ASSERT_OK_AND_ASSIGN(auto loose_batch, EncodeRows(loose_rows));
  LND_ASSERT_OK_AND_ASSIGN(auto strict_batch, EncodeRows(strict_rows));
  LND_EXPECT_OK(EncodeRowsAs(strict_rows, *loose_batch->schema()));
  LND_EXPECT_ERROR(EncodeRowsAs(loose_rows, *strict_batch->schema()), StatusCode::kSchemaMismatch,
                   "attribute 'flags' of array 'v' has type list<item: double> in row 0 but "
                   "list<item: double not null> in the target schema");
}

// The same fuzz finding: an attrs struct with two children of one name decoded into rows that
// held the key with either child's type; such a schema is refused.
TEST(EncodeRows, AttributeStructsWithRepeatedKeysAreRefused) {
  const auto flags = array::MakeField("flags", array::List(array::Float64()));
  LND_EXPECT_ERROR(ParseNdStorage(*NdStorageType(array::Float32(), {flags, flags})),
                   StatusCode::kCorrupt,
                   "the attrs struct has two children named 'flags'; an attribute key names one "
                   "child");
  const auto schema = array::MakeSchema({GlobalAttributesField({flags, flags})});
  const auto made = RowDecoder::Make(schema);
  LND_EXPECT_ERROR(made, StatusCode::kCorrupt,
                   "the global-attributes struct has two children named 'flags'");
  EXPECT_EQ(made.status().kind(), ErrorKind::kInvalidEncoding);
}

TEST(EncodeRows, RejectsTwoTypesForOneGlobalKey) {
  Attributes a, b;
  a.Set("id", "a");
  b.Set("id", int64_t{2});
  const std::vector<NdRecordBatch> rows = {Batch({}, a), Batch({}, b)};
  LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kSchemaMismatch,
                   "attribute 'id' of the global attributes has type int64 in row 1");
}

TEST(EncodeRows, RejectsEmptyAttributeKey) {
  Attributes a;
  a.Set("", "x");
  const std::vector<NdRecordBatch> rows = {Batch({{"v", Nd(Iota32(1), {}, a)}})};
  LND_EXPECT_ERROR(EncodeRows(rows), StatusCode::kInvalidArgument,
                   "invalid attribute: row 0: array 'v' has an attribute with an empty key");
  const std::vector<NdRecordBatch> global = {Batch({}, a)};
  LND_EXPECT_ERROR(EncodeRows(global), StatusCode::kInvalidArgument,
                   "the global attributes has an attribute with an empty key");
}

TEST(EncodeRows, ScalarsAndEmptyArrays) {
  const std::vector<NdRecordBatch> rows = {
      Batch({{"s", Nd(I32({7}), {})}, {"e", Nd(I32({}), {{"x", 0}, {"y", 2}})}})};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRows(rows));
  const ArrayData& s = *batch->column(0);
  EXPECT_EQ(Offsets(*s.children[0]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(NamesAt(*s.children[1], 0), (std::vector<std::string>{}));
  const ArrayData& e = *batch->column(1);
  EXPECT_EQ(Offsets(*e.children[0]), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(SizesAt(*e.children[2], 0), (std::vector<uint32_t>{0, 2}));
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch back, decoder.DecodeRow(*batch, 0));
  EXPECT_EQ(back, rows[0]);
  EXPECT_TRUE(back.GetColumn("s")->dimensions().is_scalar());
}

}  // namespace
}  // namespace lance_nd::nd
