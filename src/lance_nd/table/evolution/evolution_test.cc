#include "lance_nd/table/evolution.h"

#include <gtest/gtest.h>

#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using array::MakeField;
using array::MakeSchema;
using testing::NestedFields;
using testing::SampleManifest;

struct IdRow {
  std::string name;
  std::int32_t id;
  std::int32_t parent_id;
  std::string logical_type;
  bool operator==(const IdRow&) const = default;
};

std::vector<IdRow> Rows(const std::vector<LanceField>& fields) {
  std::vector<IdRow> out;
  for (const auto& f : fields) out.push_back({f.name, f.id, f.parent_id, f.logical_type});
  return out;
}

std::ostream& operator<<(std::ostream& os, const IdRow& r) {
  return os << r.name << "(" << r.id << "<-" << r.parent_id << " " << r.logical_type << ")";
}

array::SchemaPtr TableSchema(const std::vector<LanceField>& fields) {
  auto s = SchemaFromFields(fields, {});
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return *s;
}

// id int64 (0), s struct (1) { x float (2), inner struct (3) { a int32 (4) } }, z utf8 (5):
// the table the Lance 12 probe evolved.
std::vector<LanceField> ProbeFields() {
  return {{"id", 0, -1, "int64", false, {}}, {"s", 1, -1, "struct", true, {}},
          {"x", 2, 1, "float", true, {}},    {"inner", 3, 1, "struct", true, {}},
          {"a", 4, 3, "int32", true, {}},    {"z", 5, -1, "string", true, {}}};
}

TEST(EvolutionMergeFields, AssignsIdsInMergedPreOrderLikeLance12) {
  // Lance 12: addColumns([extra: struct<k>, s: struct<inner: struct<b>, y: struct<q>>]) on the
  // probe table gave b=6 (under inner), y=7, q=8 (under s), extra=9, k=10; list order
  // id s x inner a b y q z extra k.
  const auto fields = ProbeFields();
  auto table_schema = TableSchema(fields);
  using array::Struct;
  auto wanted = MakeSchema({
      MakeField("extra", Struct({MakeField("k", array::Utf8())})),
      MakeField("s", Struct({MakeField("inner", Struct({MakeField("b", array::Utf8())})),
                             MakeField("y", Struct({MakeField("q", array::Int32())}))})),
  });
  std::vector<std::string> added;
  LND_ASSERT_OK_AND_ASSIGN(auto merged, MergeFields(fields, *table_schema, *wanted, 6, &added));
  EXPECT_EQ(Rows(merged), (std::vector<IdRow>{{"id", 0, -1, "int64"},
                                              {"s", 1, -1, "struct"},
                                              {"x", 2, 1, "float"},
                                              {"inner", 3, 1, "struct"},
                                              {"a", 4, 3, "int32"},
                                              {"b", 6, 3, "string"},
                                              {"y", 7, 1, "struct"},
                                              {"q", 8, 7, "int32"},
                                              {"z", 5, -1, "string"},
                                              {"extra", 9, -1, "struct"},
                                              {"k", 10, 9, "string"}}));
  EXPECT_EQ(added, (std::vector<std::string>{"s.inner.b", "s.y", "extra"}));
}

TEST(EvolutionMergeFields, NothingNewKeepsFieldsAndMetadata) {
  const auto fields = NestedFields();
  auto table_schema = TableSchema(fields);
  std::vector<std::string> added;
  // Offering a subset (and the whole schema) adds nothing.
  auto subset = MakeSchema({MakeField("s", array::Struct({MakeField("x", array::Float32())}))});
  LND_ASSERT_OK_AND_ASSIGN(auto a, MergeFields(fields, *table_schema, *subset, 5, &added));
  EXPECT_EQ(a, fields);
  LND_ASSERT_OK_AND_ASSIGN(auto b, MergeFields(fields, *table_schema, *table_schema, 5, &added));
  EXPECT_EQ(b, fields);
  EXPECT_TRUE(added.empty());
}

TEST(EvolutionMergeFields, NewFieldsKeepMetadataListsAndNullableRoot) {
  const auto fields = NestedFields();
  auto table_schema = TableSchema(fields);
  array::Metadata ext({{"ARROW:extension:name", "my.ext"}, {"lance-encoding:packed", "true"}});
  auto wanted = MakeSchema({
      MakeField("blob", array::Binary(), /*nullable=*/false, ext),
      MakeField("s", array::Struct({MakeField(
                         "more", array::List(MakeField("element", array::Int64(), false)))})),
  });
  LND_ASSERT_OK_AND_ASSIGN(auto merged, MergeFields(fields, *table_schema, *wanted, 7));
  ASSERT_EQ(merged.size(), 8u);
  EXPECT_EQ(Rows(merged)[5], (IdRow{"more", 7, 1, "list"}));
  EXPECT_EQ(Rows(merged)[6], (IdRow{"element", 8, 7, "int64"}));
  EXPECT_FALSE(merged[6].nullable);  // only the added root is relaxed
  EXPECT_EQ(Rows(merged)[7], (IdRow{"blob", 9, -1, "binary"}));
  EXPECT_TRUE(merged[7].nullable);
  EXPECT_EQ(merged[7].metadata, ext);
  // The existing field's metadata is untouched.
  EXPECT_EQ(merged[2].metadata, fields[2].metadata);
}

TEST(EvolutionMergeFields, TypeConflictsNameThePathAndBothTypes) {
  const auto fields = NestedFields();
  auto table_schema = TableSchema(fields);
  auto leaf = MakeSchema({MakeField("s", array::Struct({MakeField("x", array::Float64())}))});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *leaf, 5), StatusCode::kSchemaMismatch,
                   "field 's.x' has type float in the table but double was offered");
  auto not_struct = MakeSchema({MakeField("s", array::Utf8())});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *not_struct, 5), StatusCode::kSchemaMismatch,
                   "field 's' has type struct<");
  auto list_item =
      MakeSchema({MakeField("s", array::Struct({MakeField("tags", array::List(array::Int32()))}))});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *list_item, 5), StatusCode::kSchemaMismatch,
                   "field 's.tags' has type list<");
  auto top = MakeSchema({MakeField("id", array::Int32())});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *top, 5), StatusCode::kSchemaMismatch,
                   "field 'id' has type int64 in the table but int32 was offered");
  // List item names and nullability do not matter.
  auto renamed = MakeSchema({MakeField(
      "s", array::Struct({MakeField("tags", array::List(MakeField("el", array::Utf8(), false)))}),
      false)});
  LND_EXPECT_OK(MergeFields(fields, *table_schema, *renamed, 5).status());
}

TEST(EvolutionMergeFields, RejectsDottedAndDuplicateNames) {
  const auto fields = NestedFields();
  auto table_schema = TableSchema(fields);
  auto dotted = MakeSchema({MakeField("a.b", array::Int32())});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *dotted, 5), StatusCode::kInvalidArgument,
                   "top-level field name 'a.b' contains '.'");
  auto dup = MakeSchema({MakeField(
      "s", array::Struct({MakeField("n", array::Int32()), MakeField("n", array::Int64())}))});
  LND_EXPECT_ERROR(MergeFields(fields, *table_schema, *dup, 5), StatusCode::kInvalidArgument,
                   "two fields named 's.n'");
}

TEST(EvolutionNextFieldId, CountsDataFileIdsToo) {
  Manifest m = SampleManifest(1);
  EXPECT_EQ(NextFieldId(m), 5);
  m.fragments[1].files[0].fields.push_back(11);  // a dropped column's id still in a file
  m.fragments[1].files[0].column_indices.push_back(3);
  EXPECT_EQ(NextFieldId(m), 12);
}

class EvolutionCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Manifest m = SampleManifest(1);
    auto bytes = SerializeManifestFile(m, nullptr);
    ASSERT_TRUE(bytes.ok());
    ASSERT_TRUE(testing::WriteBytes(
                    *fs_, table_ + "/_versions/" + ManifestFileName(1, ManifestNaming::kV2), *bytes)
                    .ok());
  }
  std::shared_ptr<io::FileSystem> fs_ = io::MakeMemoryFileSystem();
  const std::string table_ = "db/t.lance";
};

TEST_F(EvolutionCommitTest, CommitsOneMetadataOnlyMerge) {
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Dataset::Open(TableLocation(fs_, table_)));
  auto wanted = MakeSchema({MakeField("s", array::Struct({MakeField("note", array::Utf8())})),
                            MakeField("extra", array::Int32())});
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, EvolveSchema(v1, *wanted));
  EXPECT_EQ(v2.version(), 2u);
  EXPECT_EQ(v2.fragments(), v1.fragments());
  EXPECT_EQ(Rows(v2.manifest().fields), (std::vector<IdRow>{{"id", 0, -1, "int64"},
                                                            {"s", 1, -1, "struct"},
                                                            {"x", 2, 1, "float"},
                                                            {"tags", 3, 1, "list"},
                                                            {"item", 4, 3, "string"},
                                                            {"note", 5, 1, "string"},
                                                            {"extra", 6, -1, "int32"}}));
  EXPECT_EQ(v2.manifest().schema_metadata, v1.manifest().schema_metadata);
  ASSERT_TRUE(v2.transaction().has_value());
  EXPECT_EQ(v2.transaction()->type(), OperationType::kMerge);
  EXPECT_EQ(v2.transaction()->read_version, 1u);
  ASSERT_NE(v2.transaction()->get<op::Merge>(), nullptr);
  EXPECT_EQ(v2.transaction()->get<op::Merge>()->schema, v2.manifest().fields);
  // Reopened from disk: same.
  LND_ASSERT_OK_AND_ASSIGN(Dataset again, Dataset::Open(TableLocation(fs_, table_)));
  EXPECT_EQ(again.version(), 2u);
  EXPECT_EQ(again.schema()->GetField("extra")->type()->id(), array::TypeId::kInt32);

  // Offering the same again commits nothing; evolving from the stale v1 uses the latest.
  LND_ASSERT_OK_AND_ASSIGN(Dataset same, EvolveSchema(v1, *wanted));
  EXPECT_EQ(same.version(), 2u);
  LND_ASSERT_OK_AND_ASSIGN(auto versions, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(versions.versions.size(), 2u);
}

TEST_F(EvolutionCommitTest, ConflictCommitsNothing) {
  LND_ASSERT_OK_AND_ASSIGN(Dataset v1, Dataset::Open(TableLocation(fs_, table_)));
  auto wanted = MakeSchema({MakeField("id", array::Utf8()), MakeField("extra", array::Int32())});
  LND_EXPECT_ERROR(EvolveSchema(v1, *wanted), StatusCode::kSchemaMismatch,
                   "field 'id' has type int64 in the table but string was offered");
  LND_ASSERT_OK_AND_ASSIGN(auto versions, ListVersions(TableLocation(fs_, table_)));
  EXPECT_EQ(versions.versions.size(), 1u);
}

TEST_F(EvolutionCommitTest, NestedAddNeedsFormat22) {
  Manifest m = SampleManifest(2);
  m.data_format_version = "2.1";
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  LND_ASSERT_OK(testing::WriteBytes(
      *fs_, table_ + "/_versions/" + ManifestFileName(2, ManifestNaming::kV2), bytes));
  LND_ASSERT_OK_AND_ASSIGN(Dataset v2, Dataset::Open(TableLocation(fs_, table_)));
  auto nested = MakeSchema({MakeField("s", array::Struct({MakeField("note", array::Utf8())}))});
  LND_EXPECT_ERROR(EvolveSchema(v2, *nested), StatusCode::kNotImplemented,
                   "new struct children need data format 2.2 or newer, the table has 2.1");
  // A new top-level field is fine on 2.1.
  auto top = MakeSchema({MakeField("extra", array::Int32())});
  LND_ASSERT_OK_AND_ASSIGN(Dataset v3, EvolveSchema(v2, *top));
  EXPECT_EQ(v3.version(), 3u);
}

}  // namespace
}  // namespace lance_nd::table
