// MergeEncodedSchema (schema evolution) and EncodeRowsAs (encoding into a table's schema).
#include <gtest/gtest.h>

#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/testing/nd_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::nd {
namespace {

using array::FieldPtr;
using array::MakeField;
using testing::Batch;
using testing::F64;
using testing::I32;
using testing::Iota32;
using testing::Nd;
using testing::Unwrap;

array::SchemaPtr SchemaOf(const std::vector<NdRecordBatch>& rows) {
  return Unwrap(EncodeRows(rows))->schema();
}

std::vector<std::string> Names(const std::vector<FieldPtr>& fields) {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(f->name());
  return out;
}

Attributes Attrs(std::initializer_list<std::pair<const char*, const char*>> kv) {
  Attributes a;
  for (const auto& [k, v] : kv) a.Set(k, v);
  return a;
}

// Table: temp (attrs units), lat (no attrs), globals {id}.
std::vector<NdRecordBatch> TableRows() {
  return {Batch({{"temp", Nd(Iota32(2), {{"x", 2}}, Attrs({{"units", "K"}}))},
                 {"lat", Nd(F64({1, 2}), {{"x", 2}})}},
                Attrs({{"id", "a"}}))};
}

// New rows: temp gains long_name, lat gains attrs, new variable depth, new global key.
std::vector<NdRecordBatch> NewRows() {
  return {Batch({{"depth", Nd(I32({5}), {})},
                 {"temp", Nd(Iota32(1), {}, Attrs({{"long_name", "T"}, {"units", "C"}}))},
                 {"lat", Nd(F64({3}), {{"x", 1}}, Attrs({{"axis", "Y"}}))}},
                Attrs({{"source", "s"}, {"id", "b"}}))};
}

TEST(MergeEncodedSchema, AppendsNewFieldsAndKeys) {
  const auto table = SchemaOf(TableRows());
  const auto incoming = SchemaOf(NewRows());
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged, MergeEncodedSchema(*table, *incoming));
  EXPECT_EQ(Names(merged->fields()),
            (std::vector<std::string>{"temp", "lat", "__global_attrs__", "depth"}));
  const auto& temp = merged->field(0)->type()->children();
  ASSERT_EQ(temp.size(), 4u);
  EXPECT_EQ(Names(temp[3]->type()->children()), (std::vector<std::string>{"units", "long_name"}));
  const auto& lat = merged->field(1)->type()->children();
  ASSERT_EQ(lat.size(), 4u);
  EXPECT_EQ(lat[3]->name(), "attrs");
  EXPECT_EQ(Names(lat[3]->type()->children()), (std::vector<std::string>{"axis"}));
  EXPECT_EQ(Names(merged->field(2)->type()->children()),
            (std::vector<std::string>{"id", "source"}));
  EXPECT_TRUE(IsGlobalAttributesField(*merged->field(2)));
  LND_EXPECT_OK(ValidateEncodedSchema(*merged));
}

TEST(MergeEncodedSchema, NothingNewGivesTheTableSchema) {
  const auto table = SchemaOf(TableRows());
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged, MergeEncodedSchema(*table, *table));
  EXPECT_TRUE(merged->Equals(*table));
  // Rows with a subset of the table's fields change nothing either.
  const auto subset = SchemaOf({Batch({{"lat", Nd(F64({1}), {})}})});
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged2, MergeEncodedSchema(*table, *subset));
  EXPECT_TRUE(merged2->Equals(*table));
}

TEST(MergeEncodedSchema, KeepsTableMetadataAndAddsNewKeys) {
  const auto base = SchemaOf(TableRows());
  array::Metadata field_meta = base->field(0)->metadata();
  field_meta.Set("lance-encoding:compression", "zstd");
  std::vector<FieldPtr> fields = base->fields();
  fields[0] = fields[0]->WithMetadata(field_meta);
  const auto table =
      array::MakeSchema(fields, array::Metadata({{"lance_nd:format", "1"}, {"title", "old"}}));
  auto incoming =
      SchemaOf(NewRows())->WithMetadata(array::Metadata({{"title", "new"}, {"history", "h"}}));
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged, MergeEncodedSchema(*table, *incoming));
  EXPECT_EQ(merged->field(0)->metadata().Get("lance-encoding:compression"),
            std::optional<std::string_view>("zstd"));
  EXPECT_EQ(merged->metadata(),
            array::Metadata({{"lance_nd:format", "1"}, {"title", "old"}, {"history", "h"}}));
}

TEST(MergeEncodedSchema, RejectsTypeChanges) {
  const auto table = SchemaOf(TableRows());
  LND_EXPECT_ERROR(MergeEncodedSchema(*table, *SchemaOf({Batch({{"lat", Nd(Iota32(1), {})}})})),
                   StatusCode::kSchemaMismatch,
                   "schema mismatch: array 'lat' has value type float in the new rows but "
                   "double in the table");
  Attributes units;
  units.Set("units", 1);
  LND_EXPECT_ERROR(
      MergeEncodedSchema(*table, *SchemaOf({Batch({{"temp", Nd(Iota32(1), {}, units)}})})),
      StatusCode::kSchemaMismatch,
      "attribute 'units' of array 'temp' has type int32 in the new rows but string");
  Attributes id;
  id.Set("id", int64_t{1});
  LND_EXPECT_ERROR(MergeEncodedSchema(*table, *SchemaOf({Batch({}, id)})),
                   StatusCode::kSchemaMismatch,
                   "attribute 'id' of the global attributes has type int64");
  auto stats = [](array::DataTypePtr t) {
    return array::MakeSchema(
        {MakeField("__stats__:lat", array::Struct({MakeField("min", t), MakeField("max", t)}))});
  };
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr with_stats,
                           MergeEncodedSchema(*table, *stats(array::Float64())));
  LND_EXPECT_ERROR(MergeEncodedSchema(*with_stats, *stats(array::Float32())),
                   StatusCode::kSchemaMismatch, "stats column '__stats__:lat' has type");
}

TEST(MergeEncodedSchema, RejectsInvalidSchemas) {
  const auto table = SchemaOf(TableRows());
  const auto plain = array::MakeSchema({MakeField("foo", array::Int32())});
  LND_EXPECT_ERROR(MergeEncodedSchema(*table, *plain), StatusCode::kCorrupt,
                   "invalid nd encoding: column 'foo' is neither");
  LND_EXPECT_ERROR(MergeEncodedSchema(*plain, *table), StatusCode::kCorrupt, "column 'foo'");
  LND_EXPECT_ERROR(ValidateEncodedSchema(*array::MakeSchema({table->field(0), table->field(0)})),
                   StatusCode::kCorrupt, "appears more than once");
  LND_EXPECT_ERROR(ValidateEncodedSchema(*array::MakeSchema(
                       {GlobalAttributesField({}), GlobalAttributesField({})->WithName("g2")})),
                   StatusCode::kCorrupt, "second global-attributes column");
}

TEST(EncodeRowsAs, EncodesIntoTheMergedSchema) {
  const auto table = SchemaOf(TableRows());
  const std::vector<NdRecordBatch> rows = NewRows();
  LND_ASSERT_OK_AND_ASSIGN(array::SchemaPtr merged, MergeEncodedSchema(*table, *SchemaOf(rows)));
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRowsAs(rows, *merged));
  LND_ASSERT_OK(batch->Validate());
  EXPECT_TRUE(batch->schema()->Equals(*merged));
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0], rows[0]);
  // The old rows fit the merged schema too (new keys null, new column absent).
  const std::vector<NdRecordBatch> old_rows = TableRows();
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr old_batch, EncodeRowsAs(old_rows, *merged));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> old_back, decoder.DecodeAll(*old_batch));
  EXPECT_EQ(old_back[0], old_rows[0]);
  EXPECT_TRUE(old_batch->column(3)->IsNull(0));  // depth absent
}

TEST(EncodeRowsAs, KeepsTargetMetadataAndSkipsStats) {
  const auto base = SchemaOf(TableRows());
  std::vector<FieldPtr> fields = base->fields();
  // Encoding keys on a leaf (the values item field) and on the top-level field.
  const auto& lat_children = fields[1]->type()->children();
  std::vector<FieldPtr> children = lat_children;
  children[0] = children[0]->WithType(array::List(
      MakeField("item", array::Float64(), true, array::Metadata({{"lance-encoding:bss", "on"}}))));
  array::Metadata top = fields[1]->metadata();
  top.Set("lance-encoding:structural-encoding", "miniblock");
  fields[1] = fields[1]->WithType(array::Struct(children))->WithMetadata(top);
  fields.push_back(MakeField(
      StatsColumn("lat"),
      array::Struct({MakeField("min", array::Float64()), MakeField("max", array::Float64())})));
  const auto target = array::MakeSchema(fields, array::Metadata({{"lance_nd:format", "1"}}));
  const std::vector<NdRecordBatch> rows = TableRows();
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRowsAs(rows, *target));
  LND_ASSERT_OK(batch->Validate());
  ASSERT_EQ(batch->num_columns(), 3);  // the stats column is left to the caller
  EXPECT_TRUE(batch->schema()->field(1)->Equals(*fields[1]));
  EXPECT_EQ(batch->schema()->metadata().Get("lance_nd:format"),
            std::optional<std::string_view>("1"));
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
  EXPECT_EQ(back[0], rows[0]);
}

TEST(EncodeRowsAs, RejectsWhatTheTargetLacks) {
  const auto table = SchemaOf(TableRows());
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({{"depth", Nd(I32({1}), {})}})}, *table),
      StatusCode::kSchemaMismatch,
      "array 'depth' in row 0 is not in the target schema; extend the schema");
  LND_EXPECT_ERROR(EncodeRowsAs(std::vector<NdRecordBatch>{Batch(
                                    {{"temp", Nd(Iota32(1), {}, Attrs({{"long_name", "T"}}))}})},
                                *table),
                   StatusCode::kSchemaMismatch,
                   "attribute 'long_name' of array 'temp' in row 0 is not in the target schema");
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({}, Attrs({{"source", "s"}}))}, *table),
      StatusCode::kSchemaMismatch, "attribute 'source' of the global attributes in row 0");
  const auto no_globals = SchemaOf({Batch({{"lat", Nd(F64({1}), {})}})});
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({}, Attrs({{"id", "a"}}))}, *no_globals),
      StatusCode::kSchemaMismatch, "the target schema has no __global_attrs__ column");
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({{"lat", Nd(Iota32(1), {})}})}, *table),
      StatusCode::kSchemaMismatch, "array 'lat' has value type float in row 0 but double");
  Attributes units;
  units.Set("units", 2.0);
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({{"temp", Nd(Iota32(1), {}, units)}})}, *table),
      StatusCode::kSchemaMismatch,
      "attribute 'units' of array 'temp' has type double in row 0 but string in the target");
  LND_EXPECT_ERROR(
      EncodeRowsAs(std::vector<NdRecordBatch>{Batch({{"__stats__:x", Nd(Iota32(1), {})}})}, *table),
      StatusCode::kSchemaMismatch, "is reserved");
  LND_EXPECT_ERROR(EncodeRowsAs(std::vector<NdRecordBatch>{},
                                *array::MakeSchema({MakeField("foo", array::Int32())})),
                   StatusCode::kCorrupt, "invalid nd encoding: column 'foo'");
}

TEST(EncodeRowsAs, ZeroFieldAttrsInTarget) {
  const FieldPtr v = EncodedField(*MakeField("v", array::Float32()));
  std::vector<FieldPtr> children = v->type()->children();
  children.push_back(MakeField("attrs", array::Struct({}), false));
  const auto target = array::MakeSchema({v->WithType(array::Struct(children))});
  const std::vector<NdRecordBatch> rows = {Batch({{"v", Nd(Iota32(1), {})}}), Batch({})};
  LND_ASSERT_OK_AND_ASSIGN(array::RecordBatchPtr batch, EncodeRowsAs(rows, *target));
  LND_ASSERT_OK(batch->Validate());
  LND_ASSERT_OK_AND_ASSIGN(RowDecoder decoder, RowDecoder::Make(batch->schema()));
  LND_ASSERT_OK_AND_ASSIGN(std::vector<NdRecordBatch> back, decoder.DecodeAll(*batch));
  EXPECT_EQ(back[0], rows[0]);
  EXPECT_EQ(back[1], rows[1]);
}

TEST(StatsSchema, TypesNamesAndDetection) {
  EXPECT_TRUE(HasStatsType(*array::Float32()));
  EXPECT_TRUE(HasStatsType(*array::Int16()));
  EXPECT_TRUE(HasStatsType(*array::UInt64()));
  EXPECT_TRUE(HasStatsType(*array::Utf8()));
  EXPECT_TRUE(HasStatsType(*array::Timestamp(array::TimeUnit::kNano)));
  EXPECT_TRUE(HasStatsType(*array::Date32()));
  EXPECT_TRUE(HasStatsType(*array::Duration(array::TimeUnit::kSecond)));
  EXPECT_FALSE(HasStatsType(*array::Bool()));
  EXPECT_FALSE(HasStatsType(*array::Binary()));
  EXPECT_FALSE(HasStatsType(*array::List(array::Float32())));
  const FieldPtr f = StatsField("sst", array::Float64());
  EXPECT_EQ(f->name(), "__stats__:sst");
  EXPECT_TRUE(f->nullable());
  ASSERT_EQ(f->type()->children().size(), 2u);
  EXPECT_EQ(f->type()->children()[0]->name(), "min");
  EXPECT_EQ(f->type()->children()[1]->name(), "max");
  EXPECT_TRUE(f->type()->children()[0]->nullable());
  EXPECT_TRUE(f->type()->children()[1]->type()->Equals(*array::Float64()));
  const auto table = SchemaOf(TableRows());
  EXPECT_FALSE(HasStats(*table));
  std::vector<FieldPtr> fields = table->fields();
  fields.push_back(f);
  EXPECT_TRUE(HasStats(*array::MakeSchema(fields)));
  LND_EXPECT_OK(ValidateEncodedSchema(*array::MakeSchema(fields)));
}

}  // namespace
}  // namespace lance_nd::nd
