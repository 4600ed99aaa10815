// Tests of ArrowSchema export/import (types, fields, schemas, metadata, ownership, errors).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/c_data.h"
#include "lance_nd/array/c_data_internal.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array {
namespace {

std::vector<std::pair<DataTypePtr, std::string>> TypesAndFormats() {
  return {
      {Null(), "n"},
      {Bool(), "b"},
      {Int8(), "c"},
      {UInt8(), "C"},
      {Int16(), "s"},
      {UInt16(), "S"},
      {Int32(), "i"},
      {UInt32(), "I"},
      {Int64(), "l"},
      {UInt64(), "L"},
      {Float16(), "e"},
      {Float32(), "f"},
      {Float64(), "g"},
      {Utf8(), "u"},
      {LargeUtf8(), "U"},
      {Binary(), "z"},
      {LargeBinary(), "Z"},
      {FixedSizeBinary(16), "w:16"},
      {FixedSizeBinary(0), "w:0"},
      {Decimal128(10, 2), "d:10,2"},
      {Decimal128(38, -3), "d:38,-3"},
      {Decimal256(76, 20), "d:76,20,256"},
      {Date32(), "tdD"},
      {Date64(), "tdm"},
      {Timestamp(TimeUnit::kSecond), "tss:"},
      {Timestamp(TimeUnit::kMilli, "UTC"), "tsm:UTC"},
      {Timestamp(TimeUnit::kMicro, "Europe/Paris"), "tsu:Europe/Paris"},
      {Timestamp(TimeUnit::kNano, "+07:30"), "tsn:+07:30"},
      {Duration(TimeUnit::kSecond), "tDs"},
      {Duration(TimeUnit::kMilli), "tDm"},
      {Duration(TimeUnit::kMicro), "tDu"},
      {Duration(TimeUnit::kNano), "tDn"},
      {List(Int32()), "+l"},
      {LargeList(Utf8()), "+L"},
      {FixedSizeList(Float32(), 3), "+w:3"},
      {Struct({MakeField("a", Int64()), MakeField("b", Utf8(), false)}), "+s"},
      {Struct({}), "+s"},
  };
}

/// A hand-written foreign ArrowSchema node (static strings) counting its releases.
struct ForeignSchema {
  ArrowSchema schema{};
  std::vector<ArrowSchema*> children;
  int* release_count = nullptr;
};

void ReleaseForeign(ArrowSchema* s) {
  auto* f = static_cast<ForeignSchema*>(s->private_data);
  for (ArrowSchema* c : f->children) {
    if (c->release != nullptr) c->release(c);
  }
  if (f->release_count != nullptr) ++*f->release_count;
  s->release = nullptr;
}

/// Fills `node->schema` pointing at `node`; the caller keeps `node` (and strings) alive.
void InitForeign(ForeignSchema* node, const char* format, const char* name, int64_t flags,
                 int* counter, std::vector<ForeignSchema*> kids = {},
                 const char* metadata = nullptr) {
  node->release_count = counter;
  for (ForeignSchema* k : kids) node->children.push_back(&k->schema);
  node->schema.format = format;
  node->schema.name = name;
  node->schema.metadata = metadata;
  node->schema.flags = flags;
  node->schema.n_children = static_cast<int64_t>(node->children.size());
  node->schema.children = node->children.empty() ? nullptr : node->children.data();
  node->schema.dictionary = nullptr;
  node->schema.release = &ReleaseForeign;
  node->schema.private_data = node;
}

TEST(CDataSchema, ExportedFormatStrings) {
  for (const auto& [type, format] : TypesAndFormats()) {
    ArrowSchema c{};
    LND_ASSERT_OK(ExportType(*type, &c));
    EXPECT_STREQ(c.format, format.c_str()) << type->ToString();
    EXPECT_STREQ(c.name, "");
    EXPECT_EQ(c.flags, 0);
    EXPECT_EQ(c.metadata, nullptr);
    EXPECT_EQ(c.dictionary, nullptr);
    EXPECT_EQ(c.n_children, static_cast<int64_t>(type->children().size()));
    ASSERT_NE(c.release, nullptr);
    c.release(&c);
    EXPECT_EQ(c.release, nullptr);
  }
}

TEST(CDataSchema, EveryTypeRoundTrips) {
  for (const auto& [type, format] : TypesAndFormats()) {
    ArrowSchema c{};
    LND_ASSERT_OK(ExportType(*type, &c));
    LND_ASSERT_OK_AND_ASSIGN(DataTypePtr back, ImportType(&c));
    EXPECT_EQ(c.release, nullptr) << "import must release the struct";
    EXPECT_TRUE(back->Equals(*type)) << type->ToString() << " came back as " << back->ToString();
  }
}

TEST(CDataSchema, NestedTypesKeepChildNamesNullabilityAndMetadata) {
  Metadata md({{"ARROW:extension:name", "nd.tensor"}, {"ARROW:extension:metadata", "{\"x\":1}"}});
  const DataTypePtr inner =
      Struct({MakeField("x", Float64(), false, md), MakeField("tags", List(Utf8()))});
  const DataTypePtr type =
      LargeList(MakeField("element", FixedSizeList(MakeField("v", inner, false), 2)));
  ArrowSchema c{};
  LND_ASSERT_OK(ExportType(*type, &c));
  ASSERT_EQ(c.n_children, 1);
  EXPECT_STREQ(c.children[0]->name, "element");
  EXPECT_EQ(c.children[0]->flags, ARROW_FLAG_NULLABLE);
  EXPECT_STREQ(c.children[0]->format, "+w:2");
  EXPECT_EQ(c.children[0]->children[0]->flags, 0);
  LND_ASSERT_OK_AND_ASSIGN(DataTypePtr back, ImportType(&c));
  EXPECT_TRUE(back->Equals(*type, /*check_metadata=*/true)) << back->ToString();
  const Field& x = *back->value_type()->value_type()->children()[0];
  EXPECT_EQ(x.metadata().Get("ARROW:extension:name"), "nd.tensor");
  EXPECT_FALSE(x.nullable());
}

TEST(CDataSchema, FieldRoundTripsNameNullableAndMetadata) {
  for (bool nullable : {true, false}) {
    Metadata md({{"ARROW:extension:name", "nd_arrow.global_attributes"},
                 {"ARROW:extension:metadata", "{\"version\":1}"},
                 {"empty", ""}});
    Field field("pixels é", Timestamp(TimeUnit::kMicro, "UTC"), nullable, md);
    ArrowSchema c{};
    LND_ASSERT_OK(ExportField(field, &c));
    EXPECT_STREQ(c.name, "pixels é");
    EXPECT_EQ(c.flags, nullable ? ARROW_FLAG_NULLABLE : 0);
    ASSERT_NE(c.metadata, nullptr);
    LND_ASSERT_OK_AND_ASSIGN(FieldPtr back, ImportField(&c));
    EXPECT_EQ(back->name(), "pixels é");
    EXPECT_EQ(back->nullable(), nullable);
    EXPECT_EQ(back->metadata(), md);
    EXPECT_TRUE(back->Equals(field));
  }
}

TEST(CDataSchema, SchemaRoundTripsWithMetadata) {
  const SchemaPtr schema = MakeSchema(
      {MakeField("id", Int64(), false), MakeField("name", Utf8(), true, Metadata({{"k", "v"}})),
       MakeField("values", List(Float32()))},
      Metadata({{"lance_nd:format", "1"}, {"lance_nd:stats", "1"}}));
  ArrowSchema c{};
  LND_ASSERT_OK(ExportSchema(*schema, &c));
  EXPECT_STREQ(c.format, "+s");
  EXPECT_EQ(c.n_children, 3);
  LND_ASSERT_OK_AND_ASSIGN(SchemaPtr back, ImportSchema(&c));
  EXPECT_TRUE(back->Equals(*schema, /*check_metadata=*/true)) << back->ToString();
  EXPECT_EQ(back->metadata().Get("lance_nd:format"), "1");
}

TEST(CDataSchema, MetadataBlobLayout) {
  Metadata md({{"ab", "xyz"}, {"", "1"}});
  const std::string blob = internal::EncodeCMetadata(md);
  std::string expected;
  auto put = [&](int32_t v) { expected.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  put(2);
  put(2);
  expected += "ab";
  put(3);
  expected += "xyz";
  put(0);
  put(1);
  expected += "1";
  EXPECT_EQ(blob, expected);
  LND_ASSERT_OK_AND_ASSIGN(Metadata back, internal::DecodeCMetadata(blob.data(), blob.size()));
  EXPECT_EQ(back, md);
  EXPECT_EQ(internal::EncodeCMetadata(Metadata{}), "");
}

TEST(CDataSchema, MetadataDecodeErrors) {
  std::string blob;
  auto put = [&](int32_t v) { blob.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  put(1);
  put(10);
  blob += "abc";
  LND_EXPECT_ERROR(internal::DecodeCMetadata(blob.data(), blob.size()),
                   StatusCode::kInvalidArgument, "truncated");
  blob.clear();
  put(1);
  put(-5);
  LND_EXPECT_ERROR(internal::DecodeCMetadata(blob.data(), blob.size()),
                   StatusCode::kInvalidArgument, "negative key length");
  blob.clear();
  put(-1);
  LND_EXPECT_ERROR(internal::DecodeCMetadata(blob.data()), StatusCode::kInvalidArgument,
                   "negative entry count");
  // A repeated key keeps the last value.
  blob.clear();
  put(2);
  for (const char* v : {"1", "2"}) {
    put(1);
    blob += "k";
    put(1);
    blob += v;
  }
  LND_ASSERT_OK_AND_ASSIGN(Metadata md, internal::DecodeCMetadata(blob.data(), blob.size()));
  EXPECT_EQ(md.size(), 1u);
  EXPECT_EQ(md.Get("k"), "2");
}

TEST(CDataSchema, ConsumerMayMoveChildrenOut) {
  const DataTypePtr type =
      Struct({MakeField("a", List(Int32())), MakeField("b", Utf8()), MakeField("c", Bool())});
  ArrowSchema parent{};
  LND_ASSERT_OK(ExportType(*type, &parent));
  // Move child 0 out, as the spec allows: copy the struct, mark the original released.
  ArrowSchema moved = *parent.children[0];
  parent.children[0]->release = nullptr;
  parent.release(&parent);
  EXPECT_EQ(parent.release, nullptr);
  // The moved child stays valid after its parent is gone (ASan checks the reads).
  EXPECT_STREQ(moved.format, "+l");
  EXPECT_STREQ(moved.name, "a");
  EXPECT_STREQ(moved.children[0]->format, "i");
  LND_ASSERT_OK_AND_ASSIGN(FieldPtr field, ImportField(&moved));
  EXPECT_TRUE(field->type()->Equals(*List(Int32())));
  EXPECT_EQ(moved.release, nullptr);
}

TEST(CDataSchema, ImportsHandBuiltForeignSchemaAndReleasesOnce) {
  int releases = 0;
  std::string md;
  auto put = [&](int32_t v) { md.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  put(1);
  put(20);
  md += "ARROW:extension:name";
  put(7);
  md += "ext.foo";
  ForeignSchema item, list, ts, root;
  InitForeign(&item, "g", "item", ARROW_FLAG_NULLABLE, nullptr);
  InitForeign(&list, "+L", "vals", 0, nullptr, {&item});
  InitForeign(&ts, "tsn:America/New_York", "t", ARROW_FLAG_NULLABLE, nullptr, {}, md.c_str());
  InitForeign(&root, "+s", "", 0, &releases, {&list, &ts});
  LND_ASSERT_OK_AND_ASSIGN(SchemaPtr schema, ImportSchema(&root.schema));
  EXPECT_EQ(releases, 1);
  EXPECT_EQ(root.schema.release, nullptr);
  EXPECT_EQ(item.schema.release, nullptr) << "children are released through the parent";
  ASSERT_EQ(schema->num_fields(), 2);
  EXPECT_TRUE(schema->field(0)->Equals(
      Field("vals", LargeList(MakeField("item", Float64())), /*nullable=*/false)));
  EXPECT_TRUE(schema->field(1)->type()->Equals(*Timestamp(TimeUnit::kNano, "America/New_York")));
  EXPECT_EQ(schema->field(1)->metadata().Get("ARROW:extension:name"), "ext.foo");
}

TEST(CDataSchema, UnsupportedTypesAreNotImplementedNamingTheFormat) {
  for (const char* format :
       {"tts", "ttn", "tiM", "tin", "+m", "+ud:0,1", "+us:0", "+r", "vu", "vz", "+vl", "+vL"}) {
    int releases = 0;
    ForeignSchema node;
    InitForeign(&node, format, "x", 0, &releases);
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kNotImplemented,
                     "'" + std::string(format) + "'");
    EXPECT_EQ(releases, 1) << format << ": released also on failure";
  }
}

TEST(CDataSchema, DictionaryIsNotImplementedNamingTheFormats) {
  int releases = 0;
  ForeignSchema dict, node;
  InitForeign(&dict, "u", "", 0, nullptr);
  InitForeign(&node, "i", "cat", ARROW_FLAG_NULLABLE, &releases);
  node.schema.dictionary = &dict.schema;
  LND_EXPECT_ERROR(
      ImportField(&node.schema), StatusCode::kNotImplemented,
      "dictionary-encoded ArrowSchema 'cat' (index format 'i', dictionary format 'u')");
  EXPECT_EQ(releases, 1);
}

TEST(CDataSchema, MalformedFormatsAreInvalidArgument) {
  for (const char* format :
       {"",          "q",      "ii",    "w:",      "w:abc",       "w:-1", "w:99999999999", "w:4x",
        "td",        "tdX",    "ts",    "tsu",     "tsx:UTC",     "tD",   "tDx",           "tDss",
        "+w:",       "+w:-2",  "+x",    "d",       "d:",          "d:10", "d:10,",         "d:x,2",
        "d:10,2,64", "d:39,2", "d:0,0", "d:10,11", "d:10,2,256,1"}) {
    int releases = 0;
    ForeignSchema item, node;
    InitForeign(&item, "i", "item", ARROW_FLAG_NULLABLE, nullptr);
    const bool nested = format[0] == '+';
    InitForeign(&node, format, "x", 0, &releases,
                nested ? std::vector{&item} : std::vector<ForeignSchema*>{});
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument,
                     "'" + std::string(format) + "'");
    EXPECT_EQ(releases, 1) << format;
  }
}

TEST(CDataSchema, StructuralErrors) {
  {
    ForeignSchema node;
    InitForeign(&node, "+l", "x", 0, nullptr);  // a list needs one child
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument,
                     "has 0 children, expected 1");
  }
  {
    ForeignSchema child, node;
    InitForeign(&child, "i", "c", 0, nullptr);
    InitForeign(&node, "i", "x", 0, nullptr, {&child});
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument,
                     "has 1 children, expected 0");
  }
  {
    ForeignSchema node;
    InitForeign(&node, "+s", "x", 0, nullptr);
    node.schema.n_children = 2;  // children pointer stays null
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument,
                     "null children pointer");
  }
  {
    ForeignSchema node;
    InitForeign(&node, nullptr, "x", 0, nullptr);
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument, "null format string");
  }
  {
    ForeignSchema node;
    InitForeign(&node, "i", "x", 0, nullptr);
    LND_EXPECT_ERROR(ImportSchema(&node.schema), StatusCode::kInvalidArgument, "found format 'i'");
    EXPECT_EQ(node.schema.release, nullptr);
  }
  {
    ArrowSchema released{};
    LND_EXPECT_ERROR(ImportType(&released), StatusCode::kInvalidArgument, "already released");
    LND_EXPECT_ERROR(ImportType(nullptr), StatusCode::kInvalidArgument, "null");
  }
  {
    // A child that was already released is rejected, not read.
    ForeignSchema child, node;
    InitForeign(&child, "i", "c", 0, nullptr);
    InitForeign(&node, "+s", "x", 0, nullptr, {&child});
    child.schema.release = nullptr;
    LND_EXPECT_ERROR(ImportType(&node.schema), StatusCode::kInvalidArgument,
                     "child 0 of ArrowSchema 'x' is already released");
  }
}

TEST(CDataSchema, DeepNestingIsRejected) {
  std::vector<ForeignSchema> nodes(internal::kMaxCDataDepth + 5);
  InitForeign(&nodes.back(), "i", "item", 0, nullptr);
  for (std::size_t i = nodes.size() - 1; i-- > 0;) {
    InitForeign(&nodes[i], "+l", "item", 0, nullptr, {&nodes[i + 1]});
  }
  LND_EXPECT_ERROR(ImportType(&nodes[0].schema), StatusCode::kInvalidArgument, "deeper than");
}

TEST(CDataSchema, NullNameImportsAsEmpty) {
  ForeignSchema node;
  InitForeign(&node, "b", nullptr, ARROW_FLAG_NULLABLE, nullptr);
  LND_ASSERT_OK_AND_ASSIGN(FieldPtr field, ImportField(&node.schema));
  EXPECT_EQ(field->name(), "");
  EXPECT_TRUE(field->nullable());
  EXPECT_TRUE(field->type()->Equals(*Bool()));
}

}  // namespace
}  // namespace lance_nd::array
