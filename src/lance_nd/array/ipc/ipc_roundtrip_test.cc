// Round trips through the IPC stream and file formats: every type, nulls, slices, metadata,
// compression, files on disk.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/ipc_test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array::ipc {
namespace {

using testing::AllTypesSchema;
using testing::RandomBatch;

void ExpectSameContents(const IpcContents& got, const SchemaPtr& schema,
                        const std::vector<RecordBatchPtr>& batches) {
  ASSERT_TRUE(got.schema->Equals(*schema, /*check_metadata=*/true))
      << "got:\n"
      << got.schema->ToString() << "\nexpected:\n"
      << schema->ToString();
  ASSERT_EQ(got.batches.size(), batches.size());
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const RecordBatch& g = *got.batches[b];
    const RecordBatch& e = *batches[b];
    ASSERT_EQ(g.num_rows(), e.num_rows()) << "batch " << b;
    ASSERT_EQ(g.num_columns(), e.num_columns());
    for (int c = 0; c < g.num_columns(); ++c) {
      LND_EXPECT_OK(Validate(*g.column(c)));
      EXPECT_TRUE(ArrayEquals(*g.column(c), *e.column(c)))
          << "batch " << b << " column " << c << " (" << schema->field(c)->name() << ")\ngot:\n"
          << PrettyPrint(*g.column(c)) << "\nexpected:\n"
          << PrettyPrint(*e.column(c));
    }
  }
}

std::vector<RecordBatchPtr> SomeBatches(const SchemaPtr& schema, uint64_t seed, double null_prob) {
  return {RandomBatch(schema, 37, seed, null_prob), RandomBatch(schema, 0, seed + 1, null_prob),
          RandomBatch(schema, 100, seed + 2, null_prob)};
}

class RoundTrip : public ::testing::TestWithParam<Compression> {};

TEST_P(RoundTrip, StreamAllTypes) {
  const SchemaPtr schema = AllTypesSchema();
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    for (double null_prob : {0.0, 0.3, 1.0}) {
      const auto batches = SomeBatches(schema, seed * 10, null_prob);
      for (const auto& b : batches) LND_ASSERT_OK(b->Validate());
      LND_ASSERT_OK_AND_ASSIGN(auto bytes,
                               WriteIpcStream(schema, batches, {.compression = GetParam()}));
      LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(bytes));
      ExpectSameContents(got, schema, batches);
    }
  }
}

TEST_P(RoundTrip, FileAllTypesRandomAccess) {
  const SchemaPtr schema = AllTypesSchema();
  const auto batches = SomeBatches(schema, 77, 0.25);
  LND_ASSERT_OK_AND_ASSIGN(auto bytes,
                           WriteIpcFileBytes(schema, batches, {.compression = GetParam()}));
  LND_ASSERT_OK_AND_ASSIGN(auto reader, IpcFileReader::Open(Buffer::FromVector(bytes)));
  ASSERT_EQ(reader.num_record_batches(), 3);
  EXPECT_TRUE(reader.schema()->Equals(*schema));
  // Out of order.
  for (int i : {2, 0, 1, 2}) {
    LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadRecordBatch(i));
    EXPECT_TRUE(batch->Equals(*batches[static_cast<std::size_t>(i)])) << "batch " << i;
  }
  LND_EXPECT_ERROR(reader.ReadRecordBatch(3), StatusCode::kInvalidArgument, "out of range");
  LND_EXPECT_ERROR(reader.ReadRecordBatch(-1), StatusCode::kInvalidArgument, "out of range");
  LND_ASSERT_OK_AND_ASSIGN(auto all, ReadIpcFileBytes(bytes));
  ExpectSameContents(all, schema, batches);
}

TEST_P(RoundTrip, SlicedColumnsAreRebased) {
  const SchemaPtr schema = AllTypesSchema();
  const RecordBatchPtr full = RandomBatch(schema, 200, 5, 0.3);
  for (int64_t offset : {0, 1, 3, 7, 8, 9, 63, 150}) {
    for (int64_t length : {0, 1, 13, 50}) {
      LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr slice, full->Slice(offset, length));
      const std::vector<RecordBatchPtr> batches{slice};
      LND_ASSERT_OK_AND_ASSIGN(auto bytes,
                               WriteIpcStream(schema, batches, {.compression = GetParam()}));
      LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(bytes));
      SCOPED_TRACE("offset " + std::to_string(offset) + " length " + std::to_string(length));
      ExpectSameContents(got, schema, batches);
      for (const ArrayPtr& col : got.batches[0]->columns()) EXPECT_EQ(col->offset, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ipc, RoundTrip,
                         ::testing::Values(Compression::kNone, Compression::kLz4Frame,
                                           Compression::kZstd),
                         [](const auto& p) {
                           switch (p.param) {
                             case Compression::kNone:
                               return std::string("Uncompressed");
                             case Compression::kLz4Frame:
                               return std::string("Lz4");
                             case Compression::kZstd:
                               return std::string("Zstd");
                           }
                           return std::string("Unknown");
                         });

TEST(IpcRoundTrip, RandomSchemasSlicesAndCodecs) {
  // Property: any batch of any schema, sliced anywhere, written with any codec, reads back
  // equal through both formats.
  for (uint64_t seed = 0; seed < 150; ++seed) {
    testing::RandomArrayMaker maker(seed, seed % 3 == 0 ? 0.0 : 0.4);
    std::vector<FieldPtr> fields;
    const int64_t n_fields = maker.Uniform(1, 4);
    for (int64_t i = 0; i < n_fields; ++i) {
      Metadata md;
      if (maker.Uniform(0, 3) == 0) md.Set("ARROW:extension:name", "ext" + std::to_string(i));
      fields.push_back(
          MakeField("c" + std::to_string(i), maker.RandomType(3), maker.Uniform(0, 1) == 0, md));
    }
    const SchemaPtr schema = MakeSchema(fields);
    const int64_t rows = maker.Uniform(0, 40);
    std::vector<ArrayPtr> cols;
    for (const FieldPtr& f : fields) cols.push_back(maker.Make(f->type(), rows));
    auto full = std::make_shared<const RecordBatch>(schema, rows, cols);
    const int64_t off = maker.Uniform(0, rows);
    LND_ASSERT_OK_AND_ASSIGN(RecordBatchPtr sliced, full->Slice(off, maker.Uniform(0, rows - off)));
    const std::vector<RecordBatchPtr> batches{full, sliced};
    const IpcWriteOptions options{.compression = static_cast<Compression>(seed % 3)};
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + schema->ToString());
    LND_ASSERT_OK_AND_ASSIGN(auto stream, WriteIpcStream(schema, batches, options));
    LND_ASSERT_OK_AND_ASSIGN(auto from_stream, ReadIpcStream(stream));
    ExpectSameContents(from_stream, schema, batches);
    LND_ASSERT_OK_AND_ASSIGN(auto file, WriteIpcFileBytes(schema, batches, options));
    LND_ASSERT_OK_AND_ASSIGN(auto from_file, ReadIpcFileBytes(file));
    ExpectSameContents(from_file, schema, batches);
  }
}

TEST(IpcRoundTrip, SlicedNestedChildren) {
  // A list whose child is itself a slice, and a struct whose children carry offsets.
  auto values = MakePrimitiveArray<int32_t>(Int32(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  LND_ASSERT_OK_AND_ASSIGN(auto child, Slice(values, 2, 8));  // 2..9
  const int32_t offs[] = {1, 3, 3, 7};
  auto list =
      MakeArrayData(List(Int32()), 3, {nullptr, Buffer::Copy(offs, sizeof(offs))}, {child}, 0);
  LND_ASSERT_OK(Validate(*list));
  auto names = MakeStringArray({"a", std::nullopt, "ccc", "dd", "e"});
  LND_ASSERT_OK_AND_ASSIGN(auto names_tail, Slice(names, 1, 4));
  auto ids = MakePrimitiveArray<int64_t>(Int64(), {10, 11, 12, 13, 14, 15});
  LND_ASSERT_OK_AND_ASSIGN(auto ids_tail, Slice(ids, 2, 3));
  // Struct row i = children slot (offset + i); struct offset 1 over children of length 4 / 3.
  auto type = Struct({MakeField("name", Utf8()), MakeField("id", Int64())});
  auto st = MakeArrayData(type, 3, {nullptr}, {names_tail, ids_tail}, 0);
  LND_ASSERT_OK_AND_ASSIGN(auto st_slice, Slice(st, 1, 2));
  auto schema = MakeSchema({MakeField("l", list->type), MakeField("s", type)});
  LND_ASSERT_OK_AND_ASSIGN(auto list_slice, Slice(list, 1, 2));
  auto batch =
      std::make_shared<const RecordBatch>(schema, 2, std::vector<ArrayPtr>{list_slice, st_slice});
  LND_ASSERT_OK(batch->Validate());
  const std::vector<RecordBatchPtr> batches{batch};
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteIpcStream(schema, batches));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(bytes));
  ExpectSameContents(got, schema, batches);
  EXPECT_EQ(PrettyPrint(*got.batches[0]->column(0)), PrettyPrint(*list_slice));
}

// Decimals are kept out of AllTypesSchema, whose batches are the committed fuzz seeds.
TEST(IpcRoundTrip, Decimals) {
  const SchemaPtr schema = MakeSchema({MakeField("dec128", Decimal128(20, 4)),
                                       MakeField("dec256", Decimal256(50, -2), false),
                                       MakeField("list_dec", List(Decimal128(38, 0)))});
  for (double null_prob : {0.0, 0.3}) {
    const auto batches = SomeBatches(schema, 77, null_prob);
    LND_ASSERT_OK_AND_ASSIGN(auto stream, WriteIpcStream(schema, batches));
    LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(stream));
    ExpectSameContents(got, schema, batches);
    LND_ASSERT_OK_AND_ASSIGN(auto file, WriteIpcFileBytes(schema, batches));
    LND_ASSERT_OK_AND_ASSIGN(auto got_file, ReadIpcFileBytes(file));
    ExpectSameContents(got_file, schema, batches);
  }
}

TEST(IpcRoundTrip, MetadataAndNullabilitySurvive) {
  Metadata ext{{"ARROW:extension:name", "nd_arrow.global_attributes"},
               {"ARROW:extension:metadata", "{\"version\":1}"}};
  auto inner = MakeField("item", Float32(), false, Metadata({{"unit", "K"}}));
  auto schema = MakeSchema(
      {MakeField("attrs", Utf8(), false, ext), MakeField("grid", FixedSizeList(inner, 4))},
      Metadata({{"lance_nd:format", "1"}, {"empty", ""}}));
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteIpcStream(schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(bytes));
  EXPECT_TRUE(got.schema->Equals(*schema, true)) << got.schema->ToString();
  EXPECT_TRUE(got.batches.empty());
  EXPECT_FALSE(got.schema->field(0)->nullable());
  EXPECT_EQ(got.schema->field(0)->metadata().Get("ARROW:extension:name"),
            "nd_arrow.global_attributes");
  EXPECT_EQ(got.schema->field(1)->type()->value_field()->metadata().Get("unit"), "K");
  EXPECT_FALSE(got.schema->field(1)->type()->value_field()->nullable());
  EXPECT_EQ(got.schema->metadata().Get("empty"), "");
  LND_ASSERT_OK_AND_ASSIGN(auto file_bytes, WriteIpcFileBytes(schema, {}));
  LND_ASSERT_OK_AND_ASSIGN(auto got_file, ReadIpcFileBytes(file_bytes));
  EXPECT_TRUE(got_file.schema->Equals(*schema, true));
}

TEST(IpcRoundTrip, StreamReaderReadsIncrementally) {
  auto schema = MakeSchema({MakeField("x", Int32())});
  LND_ASSERT_OK_AND_ASSIGN(auto writer, IpcStreamWriter::OpenInMemory(schema));
  for (int i = 0; i < 3; ++i) {
    auto col = MakePrimitiveArray<int32_t>(Int32(), {i, std::nullopt, i * 2});
    LND_ASSERT_OK(writer.WriteRecordBatch(RecordBatch(schema, 3, {col})));
  }
  LND_ASSERT_OK(writer.Close());
  LND_ASSERT_OK(writer.Close());  // idempotent
  LND_EXPECT_ERROR(writer.WriteRecordBatch(RecordBatch(schema, 0, {MakeEmptyArray(Int32())})),
                   StatusCode::kInvalidArgument, "closed");
  LND_ASSERT_OK_AND_ASSIGN(auto reader,
                           IpcStreamReader::Open(Buffer::FromVector(writer.TakeBytes())));
  for (int i = 0; i < 3; ++i) {
    LND_ASSERT_OK_AND_ASSIGN(auto batch, reader.ReadNext());
    ASSERT_NE(batch, nullptr);
    EXPECT_EQ(PrettyPrint(*batch->column(0)),
              PrettyPrint(*MakePrimitiveArray<int32_t>(Int32(), {i, std::nullopt, i * 2})));
  }
  LND_ASSERT_OK_AND_ASSIGN(auto end, reader.ReadNext());
  EXPECT_EQ(end, nullptr);
  LND_ASSERT_OK_AND_ASSIGN(auto again, reader.ReadNext());
  EXPECT_EQ(again, nullptr);
}

TEST(IpcRoundTrip, ZeroCopyBuffersSliceTheInput) {
  auto schema = MakeSchema({MakeField("x", Int64())});
  auto col = MakePrimitiveArray<int64_t>(Int64(), {1, 2, 3, 4});
  const std::vector<RecordBatchPtr> batches{
      std::make_shared<const RecordBatch>(schema, 4, std::vector<ArrayPtr>{col})};
  LND_ASSERT_OK_AND_ASSIGN(auto bytes, WriteIpcStream(schema, batches));
  BufferPtr input = Buffer::Copy(bytes);
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(input));
  const std::uint8_t* values = got.batches[0]->column(0)->buffers[1]->data();
  EXPECT_GE(values, input->data());
  EXPECT_LT(values, input->data() + input->size());
}

TEST(IpcRoundTrip, FilesOnDisk) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("lance_nd_ipc_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const SchemaPtr schema = AllTypesSchema();
  const auto batches = SomeBatches(schema, 3, 0.1);
  const std::string file_path = (dir / "t.arrow").string();
  const std::string stream_path = (dir / "t.arrows").string();
  LND_ASSERT_OK(WriteIpcFile(file_path, schema, batches));
  LND_ASSERT_OK(WriteIpcStreamFile(stream_path, schema, batches));
  LND_ASSERT_OK_AND_ASSIGN(auto from_file, ReadIpcFile(file_path));
  ExpectSameContents(from_file, schema, batches);
  LND_ASSERT_OK_AND_ASSIGN(auto reader, IpcStreamReader::OpenFile(stream_path));
  LND_ASSERT_OK_AND_ASSIGN(auto first, reader.ReadNext());
  EXPECT_TRUE(first->Equals(*batches[0]));
  LND_ASSERT_OK_AND_ASSIGN(auto file_reader, IpcFileReader::OpenFile(file_path));
  EXPECT_EQ(file_reader.num_record_batches(), 3);
  LND_EXPECT_ERROR(ReadIpcFile((dir / "missing.arrow").string()), StatusCode::kIOError,
                   "missing.arrow");
  LND_EXPECT_ERROR(ReadIpcFile(stream_path), StatusCode::kCorrupt, "ARROW1");
  LND_EXPECT_ERROR(IpcFileWriter::Open((dir / "no/such/dir.arrow").string(), schema),
                   StatusCode::kIOError, "cannot create");
  std::filesystem::remove_all(dir);
}

TEST(IpcWriter, RejectsBatchesThatDoNotMatchTheSchema) {
  auto schema = MakeSchema({MakeField("x", Int32())});
  LND_ASSERT_OK_AND_ASSIGN(auto writer, IpcFileWriter::OpenInMemory(schema));
  auto wrong = MakeStringArray({"a"});
  LND_EXPECT_ERROR(
      writer.WriteRecordBatch(RecordBatch(MakeSchema({MakeField("x", Utf8())}), 1, {wrong})),
      StatusCode::kInvalidArgument, "has type");
  LND_EXPECT_ERROR(writer.WriteRecordBatch(RecordBatch(MakeSchema({}), 0, {})),
                   StatusCode::kInvalidArgument, "has 0 columns");
  LND_EXPECT_ERROR(IpcStreamWriter::OpenInMemory(nullptr), StatusCode::kInvalidArgument, "schema");
}

}  // namespace
}  // namespace lance_nd::array::ipc
