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
  EXPECT_EQ(name(Decimal128(10, 2)), "decimal:128:10:2");
  EXPECT_EQ(name(Decimal256(60, -3)), "decimal:256:60:-3");
}

lance::file::Field* AddField(lance::file::Schema* proto, const char* name, int id, int parent,
                             const char* lt) {
  auto* f = proto->add_fields();
  f->set_name(name);
  f->set_id(id);
  f->set_parent_id(parent);
  f->set_logical_type(lt);
  f->set_nullable(true);
  return f;
}

// Dictionary columns read decoded (the value type); decimals as decimal128/256.
TEST(LanceSchemaTest, DictionaryAndDecimalTypes) {
  lance::file::Schema proto;
  AddField(&proto, "d8", 0, -1, "dict:string:int8:false");
  AddField(&proto, "d32", 1, -1, "dict:large_binary:uint32:true");
  AddField(&proto, "dn", 2, -1, "dict:double:int16:false");
  AddField(&proto, "dec", 3, -1, "decimal:128:10:2");
  AddField(&proto, "dec_neg", 4, -1, "decimal:128:38:-5");
  AddField(&proto, "dec256", 5, -1, "decimal:256:76:20");
  LND_ASSERT_OK_AND_ASSIGN(auto tree, SchemaFromProto(proto));
  const auto& s = *tree.schema;
  EXPECT_EQ(*s.field(0)->type(), *Utf8());
  EXPECT_EQ(*s.field(1)->type(), *LargeBinary());
  EXPECT_EQ(*s.field(2)->type(), *Float64());
  EXPECT_EQ(*s.field(3)->type(), *Decimal128(10, 2));
  EXPECT_EQ(*s.field(4)->type(), *Decimal128(38, -5));
  EXPECT_EQ(*s.field(5)->type(), *Decimal256(76, 20));
  EXPECT_EQ(tree.num_columns, 6);
  EXPECT_EQ(tree.fields[0].logical_type, "dict:string:int8:false");
  for (const auto& f : tree.fields) EXPECT_TRUE(f.unsupported.ok()) << f.field->name();
}

// A field of a type lance-nd does not read is a null leaf marked with the reason; the fields
// around it keep their columns.
TEST(LanceSchemaTest, UnreadableTypesBecomeMarkedNullLeaves) {
  for (const char* lt :
       {"time32:ms", "decimal:64:10:2", "decimal:128:39:2", "dict:string:float:false",
        "dict:string:int8", "fixed_size_list:lance.bfloat16:4", "quaternion"}) {
    lance::file::Schema proto;
    AddField(&proto, "a", 0, -1, "int32");
    AddField(&proto, "odd", 1, -1, lt);
    AddField(&proto, "b", 2, -1, "string");
    LND_ASSERT_OK_AND_ASSIGN(auto tree, SchemaFromProto(proto));
    ASSERT_EQ(tree.fields.size(), 3u);
    const FieldNode& odd = tree.fields[1];
    EXPECT_EQ(odd.column, 1) << lt;
    EXPECT_EQ(tree.fields[2].column, 2) << lt;
    EXPECT_EQ(odd.field->type()->id(), TypeId::kNull) << lt;
    EXPECT_EQ(odd.logical_type, lt);
    LND_EXPECT_ERROR(
        odd.unsupported, StatusCode::kNotImplemented,
        "field 'odd' (id 1): logical type '" + std::string(lt) + "' is not supported by lance-nd");
    LND_EXPECT_ERROR(odd.unsupported, StatusCode::kNotImplemented,
                     "; read the other columns with a projection that leaves it out");
    const auto why = UnsupportedFieldReason(*odd.field);
    ASSERT_TRUE(why.has_value()) << lt;
    EXPECT_EQ(*why, odd.unsupported.message());
  }
}

// A packed struct is one column in Lance 2.1+; lance-nd does not read it but keeps the columns
// after it in place.
TEST(LanceSchemaTest, PackedStructIsOneUnreadableColumn) {
  lance::file::Schema proto;
  auto* p = AddField(&proto, "p", 0, -1, "struct");
  (*p->mutable_metadata())["lance-encoding:packed"] = "TRUE";
  AddField(&proto, "x", 1, 0, "int32");
  AddField(&proto, "y", 2, 0, "float");
  AddField(&proto, "after", 3, -1, "int64");
  LND_ASSERT_OK_AND_ASSIGN(auto tree, SchemaFromProto(proto));
  ASSERT_EQ(tree.fields.size(), 2u);
  EXPECT_EQ(tree.fields[0].column, 0);
  EXPECT_TRUE(tree.fields[0].children.empty());
  LND_EXPECT_ERROR(tree.fields[0].unsupported, StatusCode::kNotImplemented,
                   "field 'p' (id 0) is a packed struct, which lance-nd does not read");
  EXPECT_EQ(tree.fields[1].column, 1);
  EXPECT_EQ(tree.num_columns, 2);
  // "packed": "false" is an ordinary struct.
  (*p->mutable_metadata())["lance-encoding:packed"] = "false";
  LND_ASSERT_OK_AND_ASSIGN(auto plain, SchemaFromProto(proto));
  EXPECT_EQ(plain.num_columns, 3);
  EXPECT_TRUE(plain.fields[0].unsupported.ok());
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

// The public form of the writer's fields carries what SchemaToProto sets beyond the modelled
// members, and nothing of the modelled ones (a table manifest merges them back).
TEST(LanceSchemaPublicTest, WrittenFieldsKeepTheWritersUnmodelledMembers) {
  auto schema = array::MakeSchema(
      {array::MakeField("id", array::Int64(), false),
       array::MakeField("name", array::Utf8(), true,
                        array::Metadata({{"ARROW:extension:name", "demo.label"}})),
       array::MakeField("s", array::Struct({array::MakeField("x", array::Float32())}))});
  LND_ASSERT_OK_AND_ASSIGN(auto written, WrittenLanceFieldsFromSchema(*schema, 3));
  LND_ASSERT_OK_AND_ASSIGN(auto modelled, LanceFieldsFromSchema(*schema, 3));
  lance::file::Schema proto;
  LND_ASSERT_OK(internal::SchemaToProto(*schema, &proto, 3));
  ASSERT_EQ(written.size(), modelled.size());
  ASSERT_EQ(written.size(), static_cast<std::size_t>(proto.fields_size()));
  for (std::size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(written[i].field, modelled[i]) << i;
    lance::file::Field rest;
    ASSERT_TRUE(rest.ParseFromString(written[i].unmodelled_proto)) << i;
    EXPECT_TRUE(rest.name().empty()) << i;
    EXPECT_EQ(rest.id(), 0) << i;
    EXPECT_TRUE(rest.metadata().empty()) << i;
    // Merging the modelled members back gives the writer's field exactly.
    lance::file::Field merged = rest;
    merged.set_name(written[i].field.name);
    merged.set_id(written[i].field.id);
    merged.set_parent_id(written[i].field.parent_id);
    merged.set_logical_type(written[i].field.logical_type);
    merged.set_nullable(written[i].field.nullable);
    for (const auto& [k, v] : written[i].field.metadata.entries()) {
      (*merged.mutable_metadata())[k] = v;
    }
    EXPECT_EQ(merged.SerializeAsString(), proto.fields(static_cast<int>(i)).SerializeAsString())
        << i;
  }
  lance::file::Field rest;
  ASSERT_TRUE(rest.ParseFromString(written[0].unmodelled_proto));
  EXPECT_EQ(rest.encoding(), lance::file::PLAIN);
  ASSERT_TRUE(rest.ParseFromString(written[1].unmodelled_proto));
  EXPECT_EQ(rest.encoding(), lance::file::VAR_BINARY);
  EXPECT_EQ(rest.extension_name(), "demo.label");
  ASSERT_TRUE(rest.ParseFromString(written[2].unmodelled_proto));
  EXPECT_EQ(rest.encoding(), lance::file::NONE);
  EXPECT_TRUE(written[2].unmodelled_proto.empty());

  auto unstorable = array::MakeSchema(
      {array::MakeField("u", array::FixedSizeList(array::List(array::Int32()), 2))});
  LND_EXPECT_ERROR(WrittenLanceFieldsFromSchema(*unstorable), StatusCode::kNotImplemented,
                   "fixed-size lists of nested types");
}

TEST(LanceSchemaPublicTest, MalformedTreeIsCorrupt) {
  const LanceSchemaField orphan[] = {{"a", 0, -1, "int32", true, {}},
                                     {"b", 1, 7, "int32", true, {}}};
  LND_EXPECT_ERROR(SchemaFromLanceFields(orphan), StatusCode::kCorrupt,
                   "names parent id 7, which does not precede it");
  const LanceSchemaField unknown[] = {{"a", 0, -1, "quaternion", true, {}}};
  LND_ASSERT_OK_AND_ASSIGN(auto schema, SchemaFromLanceFields(unknown));
  const auto why = UnsupportedFieldReason(*schema->field(0));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("logical type 'quaternion' is not supported"), std::string::npos) << *why;
}

}  // namespace
}  // namespace lance_nd::file
