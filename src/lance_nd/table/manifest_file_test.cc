#include <gtest/gtest.h>

#include <cstring>

#include "lance_nd/table/manifest.h"
#include "lance_nd/table/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::table {
namespace {

using testing::SampleAppend;
using testing::SampleManifest;

std::uint64_t LoadLe(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

void StoreLe(std::vector<std::uint8_t>* b, std::size_t at, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    (*b)[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

TEST(TableManifestFile, RoundTripWithoutTransaction) {
  const Manifest m = SampleManifest(4);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  // Footer: manifest_pos 0, 0, 2, "LANC".
  ASSERT_GE(bytes.size(), 16u);
  const std::size_t footer = bytes.size() - 16;
  EXPECT_EQ(LoadLe(bytes, footer, 8), 0u);
  EXPECT_EQ(LoadLe(bytes, footer + 8, 2), 0u);
  EXPECT_EQ(LoadLe(bytes, footer + 10, 2), 2u);
  EXPECT_EQ(std::memcmp(bytes.data() + footer + 12, "LANC", 4), 0);
  EXPECT_EQ(LoadLe(bytes, 0, 4) + 4, footer);

  LND_ASSERT_OK_AND_ASSIGN(ManifestFile parsed, ParseManifestFile(bytes, "v4"));
  EXPECT_FALSE(parsed.transaction.has_value());
  const Manifest& p = parsed.manifest;
  EXPECT_EQ(p.version, 4u);
  EXPECT_EQ(p.fields, m.fields);
  EXPECT_EQ(p.schema_metadata, m.schema_metadata);
  EXPECT_EQ(p.fragments, m.fragments);
  EXPECT_EQ(p.max_fragment_id, std::optional<std::uint32_t>(3));
  EXPECT_EQ(p.reader_feature_flags, 1u);
  EXPECT_EQ(p.writer_feature_flags, 1u);
  EXPECT_EQ(p.timestamp_seconds, m.timestamp_seconds);
  EXPECT_EQ(p.timestamp_nanos, 123);
  EXPECT_EQ(p.transaction_file, "3-uuid.txn");
  EXPECT_EQ(p.writer_library, "lance-nd");
  EXPECT_EQ(p.data_format_version, "2.2");
  EXPECT_FALSE(p.transaction_section.has_value());
  EXPECT_EQ(p.num_rows(), 13u);  // 10 + (5 - 2 deleted)
}

TEST(TableManifestFile, InlineTransactionAtOffsetZero) {
  const Manifest m = SampleManifest(2);
  const Transaction t = SampleAppend(1);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, &t));
  LND_ASSERT_OK_AND_ASSIGN(ManifestFile parsed, ParseManifestFile(bytes, "v2"));
  EXPECT_EQ(parsed.manifest.transaction_section, std::optional<std::uint64_t>(0));
  ASSERT_TRUE(parsed.transaction.has_value());
  EXPECT_EQ(parsed.transaction->read_version, 1u);
  EXPECT_EQ(parsed.transaction->uuid, t.uuid);
  EXPECT_EQ(parsed.transaction->type(), OperationType::kAppend);
  EXPECT_EQ(parsed.transaction->operation, t.operation);
  // The .txn form is the inline blob without its length prefix.
  LND_ASSERT_OK_AND_ASSIGN(auto txn, SerializeTransaction(t));
  ASSERT_GE(bytes.size(), txn.size() + 4);
  EXPECT_EQ(LoadLe(bytes, 0, 4), txn.size());
  EXPECT_TRUE(std::equal(txn.begin(), txn.end(), bytes.begin() + 4));
  const std::size_t footer = bytes.size() - 16;
  EXPECT_EQ(LoadLe(bytes, footer, 8), txn.size() + 4);
}

TEST(TableManifestFile, TransactionKindsRoundTrip) {
  Transaction over;
  over.uuid = "u";
  op::Overwrite overwrite;
  overwrite.schema = testing::NestedFields();
  overwrite.schema_metadata = array::Metadata({{"k", "v"}});
  overwrite.fragments = SampleManifest(1).fragments;
  over.operation = overwrite;
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeTransaction(over));
  LND_ASSERT_OK_AND_ASSIGN(Transaction back, ParseTransaction(bytes, "t.txn"));
  EXPECT_EQ(back.type(), OperationType::kOverwrite);
  ASSERT_NE(back.get<op::Overwrite>(), nullptr);
  EXPECT_EQ(back.get<op::Overwrite>()->schema, overwrite.schema);
  EXPECT_EQ(back.get<op::Overwrite>()->schema_metadata, overwrite.schema_metadata);
  EXPECT_EQ(back.get<op::Overwrite>()->fragments, overwrite.fragments);

  Transaction del;
  del.operation = op::Delete{{}, {3, 5}, "id = 'b'"};
  LND_ASSERT_OK_AND_ASSIGN(bytes, SerializeTransaction(del));
  LND_ASSERT_OK_AND_ASSIGN(back, ParseTransaction(bytes, "t.txn"));
  EXPECT_EQ(back.type(), OperationType::kDelete);
  ASSERT_NE(back.get<op::Delete>(), nullptr);
  EXPECT_EQ(back.get<op::Delete>()->deleted_fragment_ids, (std::vector<std::uint64_t>{3, 5}));
  EXPECT_EQ(back.get<op::Delete>()->predicate, "id = 'b'");

  Transaction unknown;
  LND_EXPECT_ERROR(SerializeTransaction(unknown), StatusCode::kInvalidArgument,
                   "cannot write a transaction of operation 'Unknown'");
}

TEST(TableManifestFile, UnknownOperationParsesAsUnknown) {
  // Field 116 (append_fri_transitions), an empty message: tag (116 << 3 | 2) = 930 -> a2 07, 0.
  const std::vector<std::uint8_t> bytes = {0x08, 0x05, 0xa2, 0x07, 0x00};
  LND_ASSERT_OK_AND_ASSIGN(Transaction t, ParseTransaction(bytes, "x.txn"));
  EXPECT_EQ(t.read_version, 5u);
  EXPECT_EQ(t.type(), OperationType::kUnknown);
  EXPECT_EQ(t.operation, Operation(op::Unknown{116}));
}

TEST(TableManifestFile, CorruptInputsNameFileAndProblem) {
  LND_ASSERT_OK_AND_ASSIGN(auto good, SerializeManifestFile(SampleManifest(2), nullptr));
  const std::size_t footer = good.size() - 16;

  LND_EXPECT_ERROR(ParseManifestFile(std::span(good).first(10), "short.manifest"),
                   StatusCode::kCorrupt, "'short.manifest': file is 10 bytes");
  auto bad_magic = good;
  bad_magic.back() = 'X';
  LND_EXPECT_ERROR(ParseManifestFile(bad_magic, "m"), StatusCode::kCorrupt, "magic \"LANC\"");
  auto bad_pos = good;
  StoreLe(&bad_pos, footer, footer - 2, 8);
  LND_EXPECT_ERROR(ParseManifestFile(bad_pos, "m"), StatusCode::kCorrupt,
                   "leaves no room for its 4-byte length");
  StoreLe(&bad_pos, footer, ~std::uint64_t{0}, 8);
  LND_EXPECT_ERROR(ParseManifestFile(bad_pos, "m"), StatusCode::kCorrupt,
                   "leaves no room for its 4-byte length");
  auto long_len = good;
  StoreLe(&long_len, 0, footer, 4);
  LND_EXPECT_ERROR(ParseManifestFile(long_len, "m"), StatusCode::kCorrupt, "claims");
  auto short_len = good;
  StoreLe(&short_len, 0, footer - 8, 4);
  LND_EXPECT_ERROR(ParseManifestFile(short_len, "m"), StatusCode::kCorrupt,
                   "manifest length does not match");
  auto garbage = good;
  for (std::size_t i = 4; i < footer; ++i) garbage[i] = 0xff;
  LND_EXPECT_ERROR(ParseManifestFile(garbage, "g.manifest"), StatusCode::kCorrupt,
                   "'g.manifest': the manifest protobuf");
}

TEST(TableManifestFile, CorruptTransactionSection) {
  Manifest m = SampleManifest(2);
  const Transaction t = SampleAppend(1);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, &t));
  auto bad = bytes;
  StoreLe(&bad, 0, 1u << 20, 4);  // transaction length runs into the manifest
  LND_EXPECT_ERROR(ParseManifestFile(bad, "t"), StatusCode::kCorrupt, "transaction at 0 claims");
  bad = bytes;
  for (std::size_t i = 4; i < 12; ++i) bad[i] = 0xff;
  LND_EXPECT_ERROR(ParseManifestFile(bad, "t"), StatusCode::kCorrupt, "inline transaction");
}

TEST(TableManifestFile, ReadFromRandomAccessFile) {
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(SampleManifest(9), nullptr));
  auto file = io::MakeBufferFile(bytes, "nine.manifest");
  LND_ASSERT_OK_AND_ASSIGN(ManifestFile parsed, ReadManifestFile(*file));
  EXPECT_EQ(parsed.manifest.version, 9u);
  auto tiny = io::MakeBufferFile(std::vector<std::uint8_t>{1, 2, 3}, "tiny.manifest");
  LND_EXPECT_ERROR(ReadManifestFile(*tiny), StatusCode::kCorrupt, "'tiny.manifest'");
}

TEST(TableFeatureFlags, KnownBitsPassUnknownBitsAreNamed) {
  LND_EXPECT_OK(CheckReaderFeatureFlags(0, "m"));
  LND_EXPECT_OK(CheckReaderFeatureFlags(1 | 4 | 8 | 32, "m"));
  LND_EXPECT_OK(CheckWriterFeatureFlags(1 | 8, "m"));
  LND_EXPECT_ERROR(CheckReaderFeatureFlags(2, "v.manifest"), StatusCode::kNotImplemented,
                   "'v.manifest' sets reader feature flag bits lance-nd does not support: 2 "
                   "(stable row ids)");
  LND_EXPECT_ERROR(CheckReaderFeatureFlags(1 | 512 | 64, "m"), StatusCode::kNotImplemented,
                   "support: 64, 512 (");
  LND_EXPECT_ERROR(CheckWriterFeatureFlags(std::uint64_t{1} << 63, "m"),
                   StatusCode::kNotImplemented, "writer feature flag bits");
  LND_EXPECT_ERROR(CheckReaderFeatureFlags(16, "m"), StatusCode::kNotImplemented,
                   "16 (base paths)");
}

TEST(TableSchema, RebuildsNestedSchemaFromPreOrderFields) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto schema, SchemaFromFields(testing::NestedFields(), array::Metadata({{"k", "v"}})));
  ASSERT_EQ(schema->num_fields(), 2);
  EXPECT_EQ(schema->field(0)->name(), "id");
  EXPECT_EQ(schema->field(0)->type()->ToString(), "int64");
  EXPECT_FALSE(schema->field(0)->nullable());
  EXPECT_EQ(schema->field(1)->type()->ToString(), "struct<x: float, tags: list<item: string>>");
  EXPECT_EQ(schema->metadata().Get("k"), std::optional<std::string_view>("v"));
}

TEST(TableSchema, BadTreesAreCorrupt) {
  auto fields = testing::NestedFields();
  fields[2].parent_id = 17;
  LND_EXPECT_ERROR(SchemaFromFields(fields, {}), StatusCode::kCorrupt, "parent id 17");
  fields = testing::NestedFields();
  fields[4].id = 0;
  LND_EXPECT_ERROR(SchemaFromFields(fields, {}), StatusCode::kCorrupt, "two fields with id 0");
}

}  // namespace
}  // namespace lance_nd::table

namespace lance_nd::table {
namespace {

Transaction RoundTrip(const Transaction& t) {
  auto bytes = SerializeTransaction(t);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  auto back = ParseTransaction(*bytes, "t.txn");
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  return back.ok() ? *back : Transaction{};
}

TEST(TableManifestFile, EveryWritableOperationRoundTrips) {
  const auto fragments = testing::SampleManifest(2).fragments;
  Transaction base;
  base.read_version = 7;
  base.uuid = "u";
  base.tag = "tag";
  base.properties = {{"__lance_commit_message", "hi"}};

  Transaction del = base;
  del.operation = op::Delete{fragments, {9}, ""};
  Transaction back = RoundTrip(del);
  EXPECT_EQ(back, del);
  ASSERT_NE(back.get<op::Delete>(), nullptr);
  EXPECT_EQ(back.get<op::Delete>()->updated_fragments, fragments);
  EXPECT_EQ(back.properties, del.properties);
  EXPECT_EQ(back.tag, "tag");
  EXPECT_EQ(back.TouchedFragmentIds(), (std::vector<std::uint64_t>{0, 3, 9}));

  Transaction update = base;
  op::Update u;
  u.removed_fragment_ids = {1};
  u.updated_fragments = {fragments[0]};
  u.new_fragments = {fragments[1]};
  u.fields_modified = {2};
  u.fields_for_preserving_frag_bitmap = {2, 4};
  u.mode = op::UpdateMode::kRewriteColumns;
  update.operation = u;
  back = RoundTrip(update);
  EXPECT_EQ(back.type(), OperationType::kUpdate);
  ASSERT_NE(back.get<op::Update>(), nullptr);
  const op::Update& ub = *back.get<op::Update>();
  EXPECT_EQ(ub.removed_fragment_ids, u.removed_fragment_ids);
  EXPECT_EQ(ub.updated_fragments, u.updated_fragments);
  EXPECT_EQ(ub.new_fragments, u.new_fragments);
  EXPECT_EQ(ub.fields_modified, u.fields_modified);
  EXPECT_EQ(ub.fields_for_preserving_frag_bitmap, u.fields_for_preserving_frag_bitmap);
  EXPECT_EQ(ub.mode, op::UpdateMode::kRewriteColumns);
  EXPECT_EQ(back, update);

  Transaction rewrite = base;
  rewrite.operation = op::Rewrite{{RewriteGroup{fragments, {fragments[0]}}}};
  back = RoundTrip(rewrite);
  EXPECT_EQ(back, rewrite);
  EXPECT_EQ(back.TouchedFragmentIds(), (std::vector<std::uint64_t>{0, 3}));

  Transaction reserve = base;
  reserve.operation = op::ReserveFragments{4};
  EXPECT_EQ(RoundTrip(reserve).operation, Operation(op::ReserveFragments{4}));

  Transaction config = base;
  op::UpdateConfig c;
  c.config_updates = UpdateMap{{{"a", "1"}, {"b", std::nullopt}}, false};
  c.schema_metadata_updates = UpdateMap{{{"k", "v"}}, true};
  c.field_metadata_updates = {{2, UpdateMap{{{"unit", "m"}}, false}}, {4, UpdateMap{{}, true}}};
  config.operation = c;
  back = RoundTrip(config);
  ASSERT_NE(back.get<op::UpdateConfig>(), nullptr);
  const op::UpdateConfig& cb = *back.get<op::UpdateConfig>();
  EXPECT_EQ(cb.config_updates, c.config_updates);
  EXPECT_FALSE(cb.table_metadata_updates.has_value());
  EXPECT_EQ(cb.schema_metadata_updates, c.schema_metadata_updates);
  EXPECT_EQ(cb.field_metadata_updates, c.field_metadata_updates);
  EXPECT_EQ(back, config);

  Transaction replace = base;
  replace.operation = op::DataReplacement{{op::FileReplacement{3, fragments[0].files[0]}}};
  EXPECT_EQ(RoundTrip(replace), replace);

  Transaction over = base;
  op::Overwrite o;
  o.schema = testing::NestedFields();
  o.config_upserts = {{"lance.x", "1"}};
  over.operation = o;
  back = RoundTrip(over);
  ASSERT_NE(back.get<op::Overwrite>(), nullptr);
  EXPECT_EQ(back.get<op::Overwrite>()->config_upserts, o.config_upserts);

  Transaction restore = base;
  restore.operation = op::Restore{3};
  EXPECT_EQ(RoundTrip(restore).operation, Operation(op::Restore{3}));

  Transaction project = base;
  project.operation = op::Project{testing::NestedFields()};
  EXPECT_EQ(RoundTrip(project), project);
}

TEST(TableManifestFile, ClassifiesOperationsItCannotWrite) {
  // create_index (103) with one opaque IndexMetadata, and clone (113).
  const std::vector<std::uint8_t> create_index = {0x08, 0x02, 0xba, 0x06, 0x04,
                                                  0x0a, 0x02, 0x1a, 0x00};
  LND_ASSERT_OK_AND_ASSIGN(Transaction t, ParseTransaction(create_index, "ci.txn"));
  EXPECT_EQ(t.type(), OperationType::kCreateIndex);
  EXPECT_EQ(t.operation, Operation(op::CreateIndex{1, 0}));
  LND_EXPECT_ERROR(SerializeTransaction(t), StatusCode::kInvalidArgument, "'CreateIndex'");
  const std::vector<std::uint8_t> clone = {0x08, 0x02, 0x8a, 0x07, 0x02, 0x08, 0x01};
  LND_ASSERT_OK_AND_ASSIGN(t, ParseTransaction(clone, "clone.txn"));
  EXPECT_EQ(t.type(), OperationType::kClone);
  EXPECT_EQ(t.name(), "Clone");
  EXPECT_EQ(t.operation, Operation(op::Unknown{113}));
  LND_EXPECT_ERROR(SerializeTransaction(t), StatusCode::kInvalidArgument, "'Clone'");
}

TEST(TableManifestFile, IndexSectionAndUnmodelledFieldsAreKept) {
  Manifest m = testing::SampleManifest(3);
  m.index_section_blob = std::string("\x0a\x03\x1a\x01x", 5);
  // Unmodelled members: base_paths (18) in the manifest, encoding (7) on a field, inline row
  // ids (5) on a fragment.
  m.unmodelled_proto = std::string("\x92\x01\x05\x08\x01\x22\x01p", 8);
  m.fields[0].unmodelled_proto = std::string("\x38\x03", 2);
  m.fragments[0].unmodelled_proto = std::string("\x2a\x01\x00", 3);
  m.fragments[0].has_row_ids = true;
  Transaction t = testing::SampleAppend(2);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, &t));
  LND_ASSERT_OK_AND_ASSIGN(ManifestFile back, ParseManifestFile(bytes, "x.manifest"));
  EXPECT_EQ(back.manifest.index_section, std::optional<std::uint64_t>(0));
  EXPECT_EQ(back.manifest.transaction_section, std::optional<std::uint64_t>(9));
  EXPECT_EQ(back.manifest.index_section_blob, m.index_section_blob);
  EXPECT_EQ(back.manifest.num_base_paths, 1u);
  EXPECT_EQ(back.manifest.unmodelled_proto, m.unmodelled_proto);
  EXPECT_EQ(back.manifest.fields, m.fields);
  EXPECT_EQ(back.manifest.fragments, m.fragments);
  EXPECT_TRUE(back.manifest.fragments[0].has_row_ids);
  ASSERT_TRUE(back.transaction.has_value());
  EXPECT_EQ(back.transaction->operation, t.operation);
}

TEST(TableManifestFile, IndexSectionOutsideTheFileIsCorrupt) {
  Manifest m = testing::SampleManifest(3);
  m.index_section_blob = std::string("\x0a\x03\x1a\x01x", 5);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeManifestFile(m, nullptr));
  bytes[0] = 0x40;  // the index section claims 64 bytes
  LND_EXPECT_ERROR(ParseManifestFile(bytes, "x.manifest"), StatusCode::kCorrupt,
                   "index section at 0 claims 64 bytes");
}

}  // namespace
}  // namespace lance_nd::table
