// RowDecoder: schema validation, per-row rules, tolerance rules (zero-field attrs, stats
// columns, encoding keys), errors on corrupt data.
#include <gtest/gtest.h>

#include "lance_nd/array/builder.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using array::ArrayPtr;
using array::FieldPtr;
using array::MakeField;
using testing::Batch;
using testing::Dims;
using testing::F32;
using testing::I32;
using testing::Iota32;
using testing::Nd;
using testing::Str;
using testing::Unwrap;

array::Metadata NdTag() { return WithExtensionTag({}, kNdArrayExtensionName); }

FieldPtr ListField(const std::string& name, array::DataTypePtr item, bool item_nullable) {
  return MakeField(name, array::List(MakeField("item", std::move(item), item_nullable)), false);
}

// ---- schema validation ----

RowDecoder MakeOk(std::vector<FieldPtr> fields, array::Metadata metadata = {}) {
  return Unwrap(RowDecoder::Make(array::MakeSchema(std::move(fields), std::move(metadata))));
}

Status MakeStatus(std::vector<FieldPtr> fields) {
  return RowDecoder::Make(array::MakeSchema(std::move(fields))).status();
}

TEST(RowDecoderSchema, AcceptsEncodedFields) {
  const RowDecoder d = MakeOk({EncodedField(*MakeField("v", array::Float32())),
                               GlobalAttributesField({MakeField("id", array::Utf8())})});
  EXPECT_TRUE(d.has_global_attributes());
  ASSERT_EQ(d.Variables().size(), 1u);
  EXPECT_EQ(d.Variables()[0]->name(), "v");
  EXPECT_TRUE(d.Variables()[0]->type()->Equals(*array::Float32()));
  EXPECT_FALSE(d.Variables()[0]->metadata().Contains(kExtensionNameKey));
}

TEST(RowDecoderSchema, RejectsPlainColumns) {
  LND_EXPECT_ERROR(MakeStatus({MakeField("foo", array::Int32())}), StatusCode::kCorrupt,
                   "invalid nd encoding: column 'foo' is neither an nd_arrow.array column");
  LND_EXPECT_ERROR(RowDecoder::Make(nullptr), StatusCode::kInvalidArgument, "needs a schema");
}

TEST(RowDecoderSchema, RejectsWrongStorage) {
  auto tagged = [](array::DataTypePtr storage) {
    return MakeField("v", std::move(storage), true, NdTag());
  };
  const FieldPtr values = ListField("values", array::Float32(), true);
  const FieldPtr names = ListField("dim_names", array::Utf8(), false);
  const FieldPtr sizes = ListField("dim_sizes", array::UInt32(), false);
  LND_EXPECT_ERROR(MakeStatus({tagged(array::Int32())}), StatusCode::kCorrupt,
                   "invalid nd encoding: column 'v': the storage type is int32");
  LND_EXPECT_ERROR(MakeStatus({tagged(array::Struct({names, values, sizes}))}),
                   StatusCode::kCorrupt,
                   "storage child 0 is named 'dim_names' but 'values' was expected");
  LND_EXPECT_ERROR(MakeStatus({tagged(array::Struct({values, names}))}), StatusCode::kCorrupt,
                   "the storage struct has 2 children but 3");
  LND_EXPECT_ERROR(
      MakeStatus({tagged(array::Struct({MakeField("values", array::Float32()), names, sizes}))}),
      StatusCode::kCorrupt, "storage child 'values' has type float but a list was expected");
  LND_EXPECT_ERROR(
      MakeStatus(
          {tagged(array::Struct({values, names, ListField("dim_sizes", array::Int32(), false)}))}),
      StatusCode::kCorrupt, "storage child 'dim_sizes' has type list<");
  LND_EXPECT_ERROR(
      MakeStatus(
          {tagged(array::Struct({values, ListField("dim_names", array::Binary(), false), sizes}))}),
      StatusCode::kCorrupt, "storage child 'dim_names' has type list<");
  LND_EXPECT_ERROR(
      MakeStatus(
          {tagged(array::Struct({values, names, sizes, MakeField("attrs", array::Utf8())}))}),
      StatusCode::kCorrupt, "storage child 'attrs' has type string but a struct was expected");
  LND_EXPECT_ERROR(
      MakeStatus(
          {tagged(array::Struct({values, names, sizes, MakeField("extra", array::Struct({}))}))}),
      StatusCode::kCorrupt, "storage child 3 is named 'extra' but 'attrs' was expected");
  LND_EXPECT_ERROR(MakeStatus({tagged(array::Struct(
                       {values, names, sizes,
                        MakeField("attrs", array::Struct({MakeField("", array::Utf8())}))}))}),
                   StatusCode::kCorrupt, "a child with an empty name");
}

TEST(RowDecoderSchema, ChecksExtensionVersion) {
  const auto storage = NdStorageType(array::Float32());
  auto with_meta = [&](std::optional<std::string> json) {
    array::Metadata m({{"ARROW:extension:name", "nd_arrow.array"}});
    if (json) m.Set("ARROW:extension:metadata", *json);
    return MakeField("v", storage, true, m);
  };
  LND_EXPECT_OK(MakeStatus({with_meta(std::nullopt)}));
  LND_EXPECT_OK(MakeStatus({with_meta("{\"version\": 1}")}));
  LND_EXPECT_ERROR(MakeStatus({with_meta("{\"version\":2}")}), StatusCode::kCorrupt,
                   "this reader supports only encoding version 1");
  LND_EXPECT_ERROR(MakeStatus({with_meta("{}")}), StatusCode::kCorrupt,
                   "supports only encoding version 1");
  LND_EXPECT_ERROR(MakeStatus({with_meta("version 1")}), StatusCode::kCorrupt,
                   "which is not a JSON object");
}

TEST(RowDecoderSchema, GlobalAttributesColumnRules) {
  const FieldPtr v = EncodedField(*MakeField("v", array::Float32()));
  LND_EXPECT_ERROR(MakeStatus({v, MakeField("__global_attrs__", array::Utf8())}),
                   StatusCode::kCorrupt,
                   "the global-attributes column '__global_attrs__' has type string");
  const FieldPtr g = GlobalAttributesField({});
  LND_EXPECT_ERROR(MakeStatus({g, g->WithName("other")}), StatusCode::kCorrupt,
                   "are both global-attributes columns");
  LND_EXPECT_ERROR(MakeStatus({v, v}), StatusCode::kCorrupt,
                   "column name 'v' appears more than once");
  // An untagged struct named __global_attrs__ is accepted as the global attributes.
  LND_EXPECT_OK(MakeStatus({v, MakeField("__global_attrs__", array::Struct({}))}));
}

TEST(RowDecoderSchema, StatsColumnsAreIgnored) {
  const RowDecoder d =
      MakeOk({EncodedField(*MakeField("v", array::Float32())),
              MakeField("__stats__:v", array::Struct({MakeField("min", array::Float32()),
                                                      MakeField("max", array::Float32())}))});
  EXPECT_EQ(d.Variables().size(), 1u);
}

// ---- decoding ----

RowDecoder DecoderFor(const array::RecordBatch& batch) {
  return Unwrap(RowDecoder::Make(batch.schema()));
}

array::RecordBatchPtr Encode(const std::vector<NdRecordBatch>& rows) {
  return Unwrap(EncodeRows(rows));
}

/// `batch` with column `i` replaced (schema field too).
array::RecordBatchPtr Replace(const array::RecordBatch& batch, int i, FieldPtr field,
                              ArrayPtr column) {
  std::vector<FieldPtr> fields = batch.schema()->fields();
  std::vector<ArrayPtr> columns = batch.columns();
  fields[static_cast<std::size_t>(i)] = std::move(field);
  columns[static_cast<std::size_t>(i)] = std::move(column);
  return Unwrap(array::RecordBatch::Make(array::MakeSchema(fields, batch.schema()->metadata()),
                                         batch.num_rows(), columns));
}

/// `batch` with extra columns appended.
array::RecordBatchPtr Append(const array::RecordBatch& batch, FieldPtr field, ArrayPtr column) {
  std::vector<FieldPtr> fields = batch.schema()->fields();
  std::vector<ArrayPtr> columns = batch.columns();
  fields.push_back(std::move(field));
  columns.push_back(std::move(column));
  return Unwrap(array::RecordBatch::Make(array::MakeSchema(fields, batch.schema()->metadata()),
                                         batch.num_rows(), columns));
}

TEST(RowDecoder, NullRowsAreAbsentNotNullScalars) {
  const auto batch = Encode({Batch({{"a", Nd(Iota32(1), {})}}), Batch({{"b", Nd(I32({1}), {})}})});
  const RowDecoder d = DecoderFor(*batch);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*batch, 0));
  ASSERT_EQ(r0.num_columns(), 1);
  EXPECT_EQ(r0.column_name(0), "a");
  EXPECT_EQ(r0.GetColumn("b"), nullptr);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r1, d.DecodeRow(*batch, 1));
  ASSERT_EQ(r1.num_columns(), 1);
  EXPECT_EQ(r1.column_name(0), "b");
}

TEST(RowDecoder, RowOutOfRangeAndWrongBatch) {
  const auto batch = Encode({Batch({{"a", Nd(Iota32(1), {})}})});
  const RowDecoder d = DecoderFor(*batch);
  LND_EXPECT_ERROR(d.DecodeRow(*batch, 1), StatusCode::kInvalidArgument,
                   "row 1 is out of range; the batch has 1 rows");
  LND_EXPECT_ERROR(d.DecodeRow(*batch, -1), StatusCode::kInvalidArgument, "out of range");
  const auto other = Encode({Batch({{"a", Nd(I32({1}), {})}})});
  LND_EXPECT_ERROR(d.DecodeRow(*other, 0), StatusCode::kSchemaMismatch,
                   "schema mismatch: column 0 'a' has type");
  const auto wider = Encode({Batch({{"a", Nd(Iota32(1), {})}, {"b", Nd(Iota32(1), {})}})});
  LND_EXPECT_ERROR(d.DecodeRow(*wider, 0), StatusCode::kSchemaMismatch,
                   "the batch has 2 columns but the decoder's schema has 1");
}

TEST(RowDecoder, DecodesSlicedBatches) {
  std::vector<NdRecordBatch> rows;
  for (int i = 0; i < 5; ++i) {
    Attributes g;
    g.Set("i", i);
    rows.push_back(Batch({{"v", Nd(Iota32(i), {{"x", static_cast<uint64_t>(i)}})}}, g));
  }
  const auto batch = Encode(rows);
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr slice, batch->Slice(2, 2));
  const RowDecoder d = DecoderFor(*slice);
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, d.DecodeAll(*slice));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0], rows[2]);
  EXPECT_EQ(back[1], rows[3]);
}

TEST(RowDecoder, ZeroFieldAttrsMeansNoAttributes) {
  const auto batch =
      Encode({Batch({{"v", Nd(Iota32(2), {{"x", 2}})}}), Batch({{"w", Nd(Iota32(1), {})}})});
  const array::Field& f = *batch->schema()->field(0);
  std::vector<FieldPtr> children = f.type()->children();
  children.push_back(MakeField("attrs", array::Struct({}), false));
  const FieldPtr field = MakeField("v", array::Struct(children), true, f.metadata());
  auto column = std::make_shared<array::ArrayData>(*batch->column(0));
  column->type = field->type();
  column->children.push_back(array::MakeArrayData(array::Struct({}), 2, {nullptr}, {}, 0));
  const auto patched = Replace(*batch, 0, field, column);
  const RowDecoder d = DecoderFor(*patched);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*patched, 0));
  ASSERT_EQ(r0.num_columns(), 1);
  EXPECT_TRUE(r0.column(0).attributes().empty());
  EXPECT_EQ(r0.column(0), Nd(Iota32(2), {{"x", 2}}));
}

TEST(RowDecoder, NullAttrsSlotMeansNoAttributes) {
  Attributes a;
  a.Set("units", "K");
  const auto batch =
      Encode({Batch({{"v", Nd(Iota32(1), {}, a)}}), Batch({{"v", Nd(Iota32(1), {}, a)}})});
  auto column = std::make_shared<array::ArrayData>(*batch->column(0));
  auto attrs = std::make_shared<array::ArrayData>(*column->children[3]);
  std::uint8_t* bits = nullptr;
  attrs->buffers = {array::Buffer::AllocateZeroed(1, &bits)};
  array::SetBit(bits, 1);  // row 0 null, row 1 valid
  attrs->null_count_hint = 1;
  column->children[3] = attrs;
  const auto patched = Replace(*batch, 0, batch->schema()->field(0), column);
  const RowDecoder d = DecoderFor(*patched);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*patched, 0));
  EXPECT_TRUE(r0.column(0).attributes().empty());
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r1, d.DecodeRow(*patched, 1));
  EXPECT_EQ(r1.column(0).attributes(), a);
}

TEST(RowDecoder, IgnoresStatsColumns) {
  const auto batch = Encode({Batch({{"v", Nd(F32({1, 5}), {{"x", 2}})}})});
  auto stats_type =
      array::Struct({MakeField("min", array::Float32()), MakeField("max", array::Float32())});
  auto stats = array::MakeArrayData(stats_type, 1, {nullptr}, {F32({1}), F32({5})}, 0);
  const auto with_stats = Append(*batch, MakeField("__stats__:v", stats_type), stats);
  const RowDecoder d = DecoderFor(*with_stats);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*with_stats, 0));
  EXPECT_EQ(r0.num_columns(), 1);
  EXPECT_EQ(r0, Batch({{"v", Nd(F32({1, 5}), {{"x", 2}})}}));
}

TEST(RowDecoder, StripsEncodingKeysAndTableMetadata) {
  const auto batch = Encode({Batch({{"v", Nd(Iota32(2), {{"x", 2}})}})});
  const array::Field& f = *batch->schema()->field(0);
  // lance-encoding keys on the top-level field and on the values item field.
  array::Metadata top = f.metadata();
  top.Set("lance-encoding:structural-encoding", "miniblock");
  std::vector<FieldPtr> children = f.type()->children();
  children[0] =
      MakeField("values",
                array::List(MakeField("item", array::Float32(), true,
                                      array::Metadata({{"lance-encoding:compression", "zstd"}}))),
                false);
  const FieldPtr field = MakeField("v", array::Struct(children), true, top);
  auto column = std::make_shared<array::ArrayData>(*batch->column(0));
  column->type = field->type();
  auto values = std::make_shared<array::ArrayData>(*column->children[0]);
  values->type = children[0]->type();
  column->children[0] = values;
  std::vector<FieldPtr> fields = {field};
  array::Metadata schema_meta({{"lance_nd:format", "1"},
                               {"lance_nd:stats", "1"},
                               {"lance_nd.column_defaults.lance-encoding:compression", "zstd"},
                               {"title", "t"}});
  const auto patched = Unwrap(array::RecordBatch::Make(array::MakeSchema(fields, schema_meta), 1,
                                                       std::vector<ArrayPtr>{column}));
  const RowDecoder d = DecoderFor(*patched);
  EXPECT_TRUE(d.Variables()[0]->metadata().empty());
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*patched, 0));
  EXPECT_TRUE(r0.schema()->field(0)->metadata().empty());
  EXPECT_EQ(r0.schema()->metadata(), array::Metadata({{"title", "t"}}));
  EXPECT_TRUE(r0.column(0).values()->type->Equals(*array::Float32()));
}

// ---- corrupt rows, built by hand ----

struct RawRow {
  bool valid = true;
  std::optional<std::vector<float>> values = std::vector<float>{};
  std::optional<std::vector<std::optional<std::string>>> names =
      std::vector<std::optional<std::string>>{};
  std::optional<std::vector<std::optional<uint32_t>>> sizes =
      std::vector<std::optional<uint32_t>>{};
};

/// One nd column "v" (float32 values) with the given rows, as a record batch.
array::RecordBatchPtr RawBatch(const std::vector<RawRow>& rows, const std::string& name = "v") {
  const FieldPtr field = EncodedField(*MakeField(name, array::Float32()));
  const auto& c = field->type()->children();
  array::ListBuilder values(c[0]->type(),
                            std::make_unique<array::PrimitiveBuilder<float>>(array::Float32()));
  array::ListBuilder names(c[1]->type(), std::make_unique<array::BinaryBuilder>(array::Utf8()));
  array::ListBuilder sizes(c[2]->type(),
                           std::make_unique<array::PrimitiveBuilder<uint32_t>>(array::UInt32()));
  auto* vb = static_cast<array::PrimitiveBuilder<float>*>(values.value_builder());
  auto* nb = static_cast<array::BinaryBuilder*>(names.value_builder());
  auto* sb = static_cast<array::PrimitiveBuilder<uint32_t>*>(sizes.value_builder());
  std::uint8_t* bits = nullptr;
  auto validity = array::Buffer::AllocateZeroed(8, &bits);
  int64_t nulls = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const RawRow& row = rows[r];
    if (row.valid) {
      array::SetBit(bits, static_cast<int64_t>(r));
    } else {
      ++nulls;
    }
    values.Append(row.values.has_value());
    if (row.values) {
      for (float v : *row.values) vb->Append(v);
    }
    names.Append(row.names.has_value());
    if (row.names) {
      for (const auto& n : *row.names) {
        if (n) {
          nb->Append(*n);
        } else {
          nb->AppendNull();
        }
      }
    }
    sizes.Append(row.sizes.has_value());
    if (row.sizes) {
      for (const auto& s : *row.sizes) {
        if (s) {
          sb->Append(*s);
        } else {
          sb->AppendNull();
        }
      }
    }
  }
  const auto n = static_cast<int64_t>(rows.size());
  ArrayPtr column = array::MakeArrayData(
      field->type(), n, {validity},
      {Unwrap(values.Finish()), Unwrap(names.Finish()), Unwrap(sizes.Finish())}, nulls);
  return Unwrap(array::RecordBatch::Make(array::MakeSchema({field}), n, {column}));
}

Status DecodeRaw(const std::vector<RawRow>& rows, int64_t row) {
  const auto batch = RawBatch(rows);
  return DecoderFor(*batch).DecodeRow(*batch, row).status();
}

TEST(RowDecoderCorrupt, HandBuiltRowDecodes) {
  const auto batch =
      RawBatch({RawRow{true, std::vector<float>{1, 2}, std::vector<std::optional<std::string>>{"x"},
                       std::vector<std::optional<uint32_t>>{2}},
                RawRow{false}});
  const RowDecoder d = DecoderFor(*batch);
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r0, d.DecodeRow(*batch, 0));
  EXPECT_EQ(r0, Batch({{"v", Nd(F32({1, 2}), {{"x", 2}})}}));
  LND_ASSERT_OK_AND_ASSIGN(NdRecordBatch r1, d.DecodeRow(*batch, 1));
  EXPECT_EQ(r1.num_columns(), 0);
}

TEST(RowDecoderCorrupt, RankMismatch) {
  LND_EXPECT_ERROR(DecodeRaw({RawRow{true, std::vector<float>{1, 2},
                                     std::vector<std::optional<std::string>>{"x", "y"},
                                     std::vector<std::optional<uint32_t>>{2}}},
                             0),
                   StatusCode::kCorrupt,
                   "invalid nd encoding: column 'v' row 0: dim_names has 2 entries but "
                   "dim_sizes has 1");
}

TEST(RowDecoderCorrupt, ValuesLengthMismatch) {
  LND_EXPECT_ERROR(DecodeRaw({RawRow{}, RawRow{true, std::vector<float>{1, 2, 3},
                                               std::vector<std::optional<std::string>>{"x"},
                                               std::vector<std::optional<uint32_t>>{2}}},
                             1),
                   StatusCode::kCorrupt,
                   "invalid nd encoding: column 'v' row 1: values length 3 does not match "
                   "dimensions [x=2] (2 elements)");
  // Rank 0 needs exactly one value.
  LND_EXPECT_ERROR(DecodeRaw({RawRow{}}, 0), StatusCode::kCorrupt,
                   "values length 0 does not match dimensions [] (1 elements)");
}

TEST(RowDecoderCorrupt, BadDimensionNames) {
  LND_EXPECT_ERROR(DecodeRaw({RawRow{true, std::vector<float>{1},
                                     std::vector<std::optional<std::string>>{"x", "x"},
                                     std::vector<std::optional<uint32_t>>{1, 1}}},
                             0),
                   StatusCode::kCorrupt,
                   "invalid nd encoding: column 'v' row 0: invalid dimensions: dimension name "
                   "'x' appears more than once");
  LND_EXPECT_ERROR(
      DecodeRaw({RawRow{true, std::vector<float>{1}, std::vector<std::optional<std::string>>{""},
                        std::vector<std::optional<uint32_t>>{1}}},
                0),
      StatusCode::kCorrupt, "invalid dimensions: axis 0 has an empty name");
}

TEST(RowDecoderCorrupt, NullsWhereValuesAreRequired) {
  LND_EXPECT_ERROR(DecodeRaw({RawRow{true, std::vector<float>{1}, std::nullopt,
                                     std::vector<std::optional<uint32_t>>{}}},
                             0),
                   StatusCode::kCorrupt, "column 'v' row 0: dim_names is null in a non-null row");
  LND_EXPECT_ERROR(DecodeRaw({RawRow{true, std::nullopt, std::vector<std::optional<std::string>>{},
                                     std::vector<std::optional<uint32_t>>{}}},
                             0),
                   StatusCode::kCorrupt, "values is null in a non-null row");
  LND_EXPECT_ERROR(DecodeRaw({RawRow{true, std::vector<float>{1, 2},
                                     std::vector<std::optional<std::string>>{"x"},
                                     std::vector<std::optional<uint32_t>>{std::nullopt}}},
                             0),
                   StatusCode::kCorrupt, "axis 0 has a null dimension name or size");
  // A null row may have anything in its children.
  LND_EXPECT_OK(DecodeRaw({RawRow{false, std::nullopt, std::nullopt, std::nullopt}}, 0));
}

TEST(RowDecoderCorrupt, ColumnsOfOneRowMustAgree) {
  const auto a = RawBatch(
      {RawRow{true, std::vector<float>{1, 2, 3}, std::vector<std::optional<std::string>>{"x"},
              std::vector<std::optional<uint32_t>>{3}}},
      "a");
  const auto b =
      RawBatch({RawRow{true, std::vector<float>{1, 2}, std::vector<std::optional<std::string>>{"x"},
                       std::vector<std::optional<uint32_t>>{2}}},
               "b");
  const auto both = Append(*a, b->schema()->field(0), b->column(0));
  LND_EXPECT_ERROR(DecoderFor(*both).DecodeRow(*both, 0), StatusCode::kCorrupt,
                   "invalid nd encoding: row 0: shape mismatch: dimension 'x' has size 2 in "
                   "column 'b' but size 3 in column 'a'");
}

TEST(RowDecoderCorrupt, OffsetsOutsideTheItems) {
  const auto batch =
      RawBatch({RawRow{true, std::vector<float>{1, 2}, std::vector<std::optional<std::string>>{"x"},
                       std::vector<std::optional<uint32_t>>{2}}});
  auto column = std::make_shared<array::ArrayData>(*batch->column(0));
  auto values = std::make_shared<array::ArrayData>(*column->children[0]);
  const int32_t offsets[2] = {0, 9};
  values->buffers[1] = array::Buffer::Copy(offsets, sizeof(offsets));
  column->children[0] = values;
  const auto bad = Replace(*batch, 0, batch->schema()->field(0), column);
  const RowDecoder d = DecoderFor(*bad);
  LND_EXPECT_ERROR(d.DecodeRow(*bad, 0), StatusCode::kCorrupt,
                   "column 'v' row 0: values offsets [0, 9) are outside its 2 items");
  LND_EXPECT_ERROR(d.DecodeAll(*bad), StatusCode::kCorrupt,
                   "invalid nd encoding: the batch is not valid Arrow data");
}

// A row count read from input must be backed by the columns' buffers before it sizes an
// allocation: a batch of no-field global attributes claiming 2^40 rows once made DecodeAll
// reserve that many rows and die of std::bad_alloc (fuzz/regressions/nd_row_decoder/).
TEST(RowDecoderCorrupt, RowCountNotBackedByBuffers) {
  const int64_t rows = int64_t{1} << 40;
  const FieldPtr global = GlobalAttributesField({});
  const auto column = array::MakeArrayData(global->type(), rows, {nullptr}, {}, 0);
  const array::RecordBatch batch(array::MakeSchema({global}), rows, {column});
  const RowDecoder d = MakeOk({global});
  LND_EXPECT_ERROR(
      d.DecodeAll(batch), StatusCode::kCorrupt,
      "invalid nd encoding: the batch declares 1099511627776 rows but its columns "
      "hold only 0 bytes of buffers; a row needs at least one bit (a validity bit or a "
      "list offset), so at most 65536 rows are possible: the row count is corrupt");
  const array::RecordBatch none(array::MakeSchema({}), rows, {});
  LND_EXPECT_ERROR(MakeOk({}).DecodeAll(none), StatusCode::kCorrupt,
                   "the batch declares 1099511627776 rows but its columns hold only 0 bytes");
  // Up to 65536 rows need no bytes (rows with no variable and no attribute), and eight rows
  // per byte are accepted beyond that (here: eight null rows and one validity byte).
  LND_EXPECT_OK(MakeOk({}).DecodeAll(array::RecordBatch(array::MakeSchema({}), 65536, {})));
  const std::uint8_t none_valid = 0;
  const auto nulls =
      array::MakeArrayData(global->type(), 8, {array::Buffer::Copy(&none_valid, 1)}, {}, 8);
  const array::RecordBatch eight(array::MakeSchema({global}), 8, {nulls});
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, d.DecodeAll(eight));
  EXPECT_EQ(back.size(), 8u);
}

}  // namespace
}  // namespace lance_nd::nd
