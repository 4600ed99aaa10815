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
  EXPECT_EQ(parsed.transaction->operation, OperationType::kAppend);
  EXPECT_EQ(parsed.transaction->fragments, t.fragments);
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
  over.operation = OperationType::kOverwrite;
  over.uuid = "u";
  over.schema = testing::NestedFields();
  over.schema_metadata = array::Metadata({{"k", "v"}});
  over.fragments = SampleManifest(1).fragments;
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, SerializeTransaction(over));
  LND_ASSERT_OK_AND_ASSIGN(Transaction back, ParseTransaction(bytes, "t.txn"));
  EXPECT_EQ(back.operation, OperationType::kOverwrite);
  EXPECT_EQ(back.schema, over.schema);
  EXPECT_EQ(back.schema_metadata, over.schema_metadata);
  EXPECT_EQ(back.fragments, over.fragments);

  Transaction del;
  del.operation = OperationType::kDelete;
  del.deleted_fragment_ids = {3, 5};
  del.predicate = "id = 'b'";
  LND_ASSERT_OK_AND_ASSIGN(bytes, SerializeTransaction(del));
  LND_ASSERT_OK_AND_ASSIGN(back, ParseTransaction(bytes, "t.txn"));
  EXPECT_EQ(back.operation, OperationType::kDelete);
  EXPECT_EQ(back.deleted_fragment_ids, del.deleted_fragment_ids);
  EXPECT_EQ(back.predicate, del.predicate);

  Transaction unknown;
  LND_EXPECT_ERROR(SerializeTransaction(unknown), StatusCode::kInvalidArgument,
                   "cannot write a transaction of operation 'Unknown'");
}

TEST(TableManifestFile, UnknownOperationParsesAsUnknown) {
  // Field 116 (append_fri_transitions), an empty message: tag (116 << 3 | 2) = 930 -> a2 07, 0.
  const std::vector<std::uint8_t> bytes = {0x08, 0x05, 0xa2, 0x07, 0x00};
  LND_ASSERT_OK_AND_ASSIGN(Transaction t, ParseTransaction(bytes, "x.txn"));
  EXPECT_EQ(t.read_version, 5u);
  EXPECT_EQ(t.operation, OperationType::kUnknown);
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
