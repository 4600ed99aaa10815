#include "lance_nd/file/lance_schema_internal.h"

#include <gtest/gtest.h>

#include "file.pb.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal {
namespace {

using namespace lance_nd::array;  // NOLINT

TEST(LanceSchemaTest, LogicalTypeNames) {
  auto name = [](const DataTypePtr& t) { return LogicalTypeName(*t).ValueOr("<error>"); };
  EXPECT_EQ(name(Int32()), "int32");
  EXPECT_EQ(name(Float32()), "float");
  EXPECT_EQ(name(Float64()), "double");
  EXPECT_EQ(name(Float16()), "halffloat");
  EXPECT_EQ(name(Utf8()), "string");
  EXPECT_EQ(name(LargeBinary()), "large_binary");
  EXPECT_EQ(name(Date32()), "date32:day");
  EXPECT_EQ(name(Timestamp(TimeUnit::kNano, "UTC")), "timestamp:ns:UTC");
  EXPECT_EQ(name(Timestamp(TimeUnit::kMicro)), "timestamp:us:-");
  EXPECT_EQ(name(Duration(TimeUnit::kMilli)), "duration:ms");
  EXPECT_EQ(name(FixedSizeList(Float32(), 128)), "fixed_size_list:float:128");
  EXPECT_EQ(name(FixedSizeBinary(16)), "fixed_size_binary:16");
  EXPECT_EQ(name(List(Int32())), "list");
  EXPECT_EQ(name(List(Struct({MakeField("a", Int32())}))), "list.struct");
  EXPECT_EQ(name(LargeList(Int32())), "large_list");
  EXPECT_EQ(name(Struct({MakeField("a", Int32())})), "struct");
}

TEST(LanceSchemaTest, RoundTripKeepsTypesIdsAndMetadata) {
  Metadata meta({{"ARROW:extension:name", "nd.array"}, {"k", "v"}});
  auto nd = Struct(
      {MakeField("values", List(Float32())),
       MakeField("dim_names", List(MakeField("item", Utf8(), false))),
       MakeField("attrs", Struct({MakeField("units", Utf8())}), true, Metadata({{"x", "y"}}))});
  auto schema = MakeSchema({MakeField("t", nd, true, meta), MakeField("id", Int64(), false),
                            MakeField("ts", Timestamp(TimeUnit::kSecond, "+01:00")),
                            MakeField("vec", FixedSizeList(Float32(), 4))},
                           Metadata({{"lance_nd:format", "1"}}));
  lance::file::Schema proto;
  LND_ASSERT_OK(SchemaToProto(*schema, &proto));
  ASSERT_EQ(proto.fields_size(), 10);
  EXPECT_EQ(proto.fields(0).parent_id(), -1);
  EXPECT_EQ(proto.fields(0).extension_name(), "nd.array");
  EXPECT_EQ(proto.fields(2).name(), "item");
  EXPECT_EQ(proto.fields(2).parent_id(), 1);
  EXPECT_EQ(proto.fields(8).logical_type(), "timestamp:s:+01:00");
  EXPECT_EQ(proto.fields(9).logical_type(), "fixed_size_list:float:4");
  LND_ASSERT_OK_AND_ASSIGN(auto tree, SchemaFromProto(proto));
  EXPECT_TRUE(tree.schema->Equals(*schema)) << tree.schema->ToString() << "\nvs\n"
                                            << schema->ToString();
  EXPECT_EQ(tree.num_columns, 6);  // values.item, dim_names.item, attrs.units, id, ts, vec
  EXPECT_EQ(tree.fields[0].children[2].children[0].column, 2);
  EXPECT_EQ(tree.fields[3].column, 5);
  EXPECT_EQ(tree.fields[3].id, 9);
}

TEST(LanceSchemaTest, RebuildsTreeFromIdsNotPositions) {
  lance::file::Schema proto;
  auto add = [&](const char* name, int id, int parent, const char* lt) {
    auto* f = proto.add_fields();
    f->set_name(name);
    f->set_id(id);
    f->set_parent_id(parent);
    f->set_logical_type(lt);
    f->set_nullable(true);
  };
  add("s", 7, -1, "struct");
  add("a", 3, 7, "int32");
  add("late", 12, -1, "string");
  add("b", 20, 7, "double");  // a child added to `s` after schema evolution
  LND_ASSERT_OK_AND_ASSIGN(auto tree, SchemaFromProto(proto));
  ASSERT_EQ(tree.schema->num_fields(), 2);
  EXPECT_EQ(tree.schema->field(0)->type()->children().size(), 2u);
  EXPECT_EQ(tree.fields[0].children[1].column, 1);
  EXPECT_EQ(tree.fields[1].column, 2);
}

TEST(LanceSchemaTest, Errors) {
  lance::file::Schema proto;
  auto* f = proto.add_fields();
  f->set_name("d");
  f->set_parent_id(-1);
  f->set_logical_type("decimal:128:10:2");
  LND_EXPECT_ERROR(SchemaFromProto(proto), StatusCode::kNotImplemented, "decimal:128:10:2");
  f->set_logical_type("list");
  LND_EXPECT_ERROR(SchemaFromProto(proto), StatusCode::kCorrupt, "0 child fields");
  f->set_logical_type("int32");
  auto* g = proto.add_fields();
  g->set_name("dup");
  g->set_parent_id(-1);
  LND_EXPECT_ERROR(SchemaFromProto(proto), StatusCode::kCorrupt, "two fields with id 0");
}

}  // namespace
}  // namespace lance_nd::file::internal

namespace lance_nd::file {
namespace {

TEST(LanceSchemaPublicTest, FieldsRoundTripThroughArrowSchema) {
  auto schema = array::MakeSchema(
      {array::MakeField("id", array::Int64(), false),
       array::MakeField("s",
                        array::Struct({array::MakeField("x", array::Float32()),
                                       array::MakeField("tags", array::List(array::Utf8()))}),
                        true, array::Metadata({{"k", "v"}}))});
  LND_ASSERT_OK_AND_ASSIGN(auto fields, LanceFieldsFromSchema(*schema, 5));
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0], (LanceSchemaField{"id", 5, -1, "int64", false, {}}));
  EXPECT_EQ(fields[1],
            (LanceSchemaField{"s", 6, -1, "struct", true, array::Metadata({{"k", "v"}})}));
  EXPECT_EQ(fields[3], (LanceSchemaField{"tags", 8, 6, "list", true, {}}));
  EXPECT_EQ(fields[4], (LanceSchemaField{"item", 9, 8, "string", true, {}}));
  LND_ASSERT_OK_AND_ASSIGN(auto back, SchemaFromLanceFields(fields));
  EXPECT_EQ(back->ToString(), schema->ToString());
  LND_ASSERT_OK_AND_ASSIGN(std::string lt,
                           LanceLogicalType(*array::FixedSizeList(array::Float32(), 4)));
  EXPECT_EQ(lt, "fixed_size_list:float:4");
}

TEST(LanceSchemaPublicTest, MalformedTreeIsCorrupt) {
  const LanceSchemaField orphan[] = {{"a", 0, -1, "int32", true, {}},
                                     {"b", 1, 7, "int32", true, {}}};
  LND_EXPECT_ERROR(SchemaFromLanceFields(orphan), StatusCode::kCorrupt,
                   "names parent id 7, which does not precede it");
  const LanceSchemaField unknown[] = {{"a", 0, -1, "quaternion", true, {}}};
  LND_EXPECT_ERROR(SchemaFromLanceFields(unknown), StatusCode::kNotImplemented,
                   "logical type 'quaternion'");
}

}  // namespace
}  // namespace lance_nd::file
