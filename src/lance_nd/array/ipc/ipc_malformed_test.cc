// Untrusted input: crafted, truncated and bit-flipped IPC streams and files must give Corrupt
// (or NotImplemented for unsupported features) with a precise message, and never crash.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/compression.h"
#include "lance_nd/array/ipc/fbs.h"
#include "lance_nd/array/ipc/ipc_test_util.h"
#include "lance_nd/array/ipc/message_writer.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/testing/status_matchers.h"

// Crafted specs name only the fields they set.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace lance_nd::array::ipc {
namespace {

namespace fb = internal::fb;
using Bytes = std::vector<std::uint8_t>;

Bytes Frame(flatbuffers::FlatBufferBuilder& fbb, const Bytes& body) {
  const std::size_t n = fbb.GetSize();
  const std::size_t padded = (n + 7) / 8 * 8;
  Bytes out(8 + padded, 0);
  StoreLE<std::uint32_t>(out.data(), 0xFFFFFFFFu);
  StoreLE<int32_t>(out.data() + 4, static_cast<int32_t>(padded));
  std::memcpy(out.data() + 8, fbb.GetBufferPointer(), n);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Bytes SchemaMessage(const Schema& schema) {
  auto msg = internal::EncodeSchemaMessage(schema);
  EXPECT_TRUE(msg.ok());
  return msg->header;
}

struct BatchSpec {
  int64_t length = 0;
  std::vector<fb::FieldNode> nodes;
  std::vector<fb::Buffer> buffers;
  Bytes body;
  std::optional<fb::CompressionType> compression;
  fb::MetadataVersion version = fb::MetadataVersion::V5;
  std::optional<int64_t> body_length;  // declared, if different from body.size()
};

Bytes BatchMessage(const BatchSpec& s) {
  flatbuffers::FlatBufferBuilder fbb;
  auto nodes = fbb.CreateVectorOfStructs(s.nodes);
  auto buffers = fbb.CreateVectorOfStructs(s.buffers);
  flatbuffers::Offset<fb::BodyCompression> comp;
  if (s.compression) comp = fb::CreateBodyCompression(fbb, *s.compression);
  auto rb = fb::CreateRecordBatch(fbb, s.length, nodes, buffers, comp);
  auto msg = fb::CreateMessage(fbb, s.version, fb::MessageHeader::RecordBatch, rb.Union(),
                               s.body_length.value_or(static_cast<int64_t>(s.body.size())));
  fbb.Finish(msg);
  return Frame(fbb, s.body);
}

Bytes Concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes Eos() { return internal::EndOfStreamMarker(); }

Bytes Int32Body(std::initializer_list<int32_t> values) {
  Bytes out(values.size() * 4, 0);
  std::size_t i = 0;
  for (int32_t v : values) StoreLE<int32_t>(out.data() + 4 * i++, v);
  out.resize((out.size() + 7) / 8 * 8, 0);
  return out;
}

const SchemaPtr& Int32Schema() {
  static const SchemaPtr s = MakeSchema({MakeField("x", Int32())});
  return s;
}

// A stream of one int32 column "x" with the given batch.
Bytes Int32Stream(const BatchSpec& batch) {
  return Concat({SchemaMessage(*Int32Schema()), BatchMessage(batch), Eos()});
}

TEST(IpcMalformed, CraftedValidBatchReads) {
  // The baseline for the crafted cases below: a well-formed hand-made batch reads fine.
  BatchSpec s{
      .length = 3, .nodes = {{3, 0}}, .buffers = {{0, 0}, {0, 12}}, .body = Int32Body({7, 8, 9})};
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(Int32Stream(s)));
  ASSERT_EQ(got.batches.size(), 1u);
  EXPECT_TRUE(
      ArrayEquals(*got.batches[0]->column(0), *MakePrimitiveArray<int32_t>(Int32(), {7, 8, 9})));
}

TEST(IpcMalformed, BufferOutsideBody) {
  BatchSpec s{.length = 3,
              .nodes = {{3, 0}},
              .buffers = {{0, 0}, {96, 4000}},
              .body = Int32Body({7, 8, 9})};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "record batch 0: buffer 1 (offset 96, length 4000) exceeds body length 16");
  s.buffers = {{0, 0}, {-8, 12}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "buffer 1 (offset -8, length 12) exceeds body length 16");
  s.buffers = {{0, 0}, {8, INT64_MAX}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt, "exceeds body length");
}

TEST(IpcMalformed, MissingNodesAndBuffers) {
  BatchSpec s{.length = 3, .nodes = {}, .buffers = {{0, 0}, {0, 12}}, .body = Int32Body({7, 8, 9})};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "column 0 'x': needs field node 0 but the batch has only 0");
  s.nodes = {{3, 0}};
  s.buffers = {{0, 0}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "needs buffer 1 but the batch has only 1");
}

TEST(IpcMalformed, BadNodeCounts) {
  BatchSpec s{.length = 3,
              .nodes = {{3, 4}},
              .buffers = {{0, 8}, {8, 12}},
              .body = Int32Body({0, 0, 7, 8, 9})};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "has length 3 and null count 4");
  s.nodes = {{-1, 0}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt, "has length -1");
  s.nodes = {{4, 0}};  // node longer than the batch
  s.length = 3;
  s.buffers = {{0, 0}, {0, 16}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "column 0 'x' has 4 rows, but the batch declares 3");
  s = {.length = 5, .nodes = {{5, 0}}, .buffers = {{0, 0}, {0, 12}}, .body = Int32Body({7, 8, 9})};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "value buffer holds 12 bytes, but the field node needs 20");
  s = {.length = -2, .nodes = {}, .buffers = {}, .body = {}};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt, "negative row count");
  s = {.length = 9, .nodes = {{9, 2}}, .buffers = {{0, 0}, {0, 36}}, .body = Bytes(40, 0)};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "validity bitmap holds 0 bytes, but the field node needs 2");
  // A node of INT64_MAX rows with nulls: its bitmap size is computed without overflow.
  s = {.length = 9, .nodes = {{INT64_MAX, 2}}, .buffers = {{0, 0}, {0, 36}}, .body = Bytes(40, 0)};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "validity bitmap holds 0 bytes, but the field node needs 1152921504606846976");
  // A string node of INT64_MAX rows: its offsets count (rows + 1) is computed without overflow.
  s = {.length = 9,
       .nodes = {{INT64_MAX, 0}},
       .buffers = {{0, 0}, {0, 40}, {0, 0}},
       .body = Bytes(40, 0)};
  const SchemaPtr strings = MakeSchema({MakeField("s", Utf8())});
  LND_EXPECT_ERROR(ReadIpcStream(Concat({SchemaMessage(*strings), BatchMessage(s), Eos()})),
                   StatusCode::kCorrupt,
                   "column 0 's': length 9223372036854775807 overflows the offsets buffer size");
}

TEST(IpcMalformed, InvalidOffsetsCaughtByValidation) {
  const SchemaPtr schema = MakeSchema({MakeField("s", Utf8())});
  // offsets 0, 5, 2 (not monotonic), data "hello"
  Bytes body = Int32Body({0, 5, 2, 0});
  body.insert(body.end(), {'h', 'e', 'l', 'l', 'o', 0, 0, 0});
  BatchSpec s{.length = 2, .nodes = {{2, 0}}, .buffers = {{0, 0}, {0, 12}, {16, 5}}, .body = body};
  const Bytes stream = Concat({SchemaMessage(*schema), BatchMessage(s), Eos()});
  LND_EXPECT_ERROR(ReadIpcStream(stream), StatusCode::kCorrupt, "record batch 0: column 0 's'");
  // Offsets past the data.
  Bytes body2 = Int32Body({0, 5, 9, 0});
  body2.insert(body2.end(), {'h', 'e', 'l', 'l', 'o', 0, 0, 0});
  s.body = body2;
  LND_EXPECT_ERROR(ReadIpcStream(Concat({SchemaMessage(*schema), BatchMessage(s), Eos()})),
                   StatusCode::kCorrupt, "column 0 's'");
}

TEST(IpcMalformed, FramingErrors) {
  const Bytes good = Int32Stream(
      {.length = 1, .nodes = {{1, 0}}, .buffers = {{0, 0}, {0, 4}}, .body = Int32Body({1})});
  LND_EXPECT_ERROR(ReadIpcStream(Bytes{}), StatusCode::kCorrupt, "has no schema message");
  LND_EXPECT_ERROR(ReadIpcStream(Eos()), StatusCode::kCorrupt, "has no schema message");
  LND_EXPECT_ERROR(ReadIpcStream(Bytes{0xFF, 0xFF}), StatusCode::kCorrupt,
                   "truncated message prefix");
  Bytes bad_len = good;
  StoreLE<int32_t>(bad_len.data() + 4, 1 << 30);
  LND_EXPECT_ERROR(ReadIpcStream(bad_len), StatusCode::kCorrupt,
                   "metadata length 1073741824 at offset 0 exceeds");
  StoreLE<int32_t>(bad_len.data() + 4, -16);
  LND_EXPECT_ERROR(ReadIpcStream(bad_len), StatusCode::kCorrupt, "metadata length -16");
  Bytes garbage = good;
  for (int i = 8; i < 24; ++i) garbage[static_cast<std::size_t>(i)] = 0xAB;
  LND_EXPECT_ERROR(ReadIpcStream(garbage), StatusCode::kCorrupt, "failed verification");
  // Declared body longer than the bytes.
  BatchSpec s{.length = 1,
              .nodes = {{1, 0}},
              .buffers = {{0, 0}, {0, 4}},
              .body = Int32Body({1}),
              .body_length = 4096};
  LND_EXPECT_ERROR(ReadIpcStream(Concat({SchemaMessage(*Int32Schema()), BatchMessage(s)})),
                   StatusCode::kCorrupt, "record batch 0: body length 4096 exceeds the 8 bytes");
  // A stream that starts with a record batch.
  LND_EXPECT_ERROR(ReadIpcStream(BatchMessage({.length = 0})), StatusCode::kCorrupt,
                   "starts with a record batch message; expected a schema message first");
  // Two schemas.
  LND_EXPECT_ERROR(
      ReadIpcStream(Concat({SchemaMessage(*Int32Schema()), SchemaMessage(*Int32Schema())})),
      StatusCode::kCorrupt, "unexpected second schema message");
  // Missing EOS at a message boundary is accepted; in the middle of a prefix it is not.
  Bytes no_eos(good.begin(), good.end() - 8);
  LND_ASSERT_OK_AND_ASSIGN(auto got, ReadIpcStream(no_eos));
  EXPECT_EQ(got.batches.size(), 1u);
  no_eos.push_back(0xFF);
  LND_EXPECT_ERROR(ReadIpcStream(no_eos), StatusCode::kCorrupt, "truncated message prefix");
}

TEST(IpcMalformed, OldMetadataVersionIsNotImplemented) {
  BatchSpec s{.length = 1,
              .nodes = {{1, 0}},
              .buffers = {{0, 0}, {0, 4}},
              .body = Int32Body({1}),
              .version = fb::MetadataVersion::V3};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kNotImplemented,
                   "metadata version V3");
}

// A schema message with one field whose type is the raw union number `type`.
Bytes RawTypeSchema(int type, bool dictionary = false, bool big_endian = false) {
  flatbuffers::FlatBufferBuilder fbb;
  auto type_table = fb::CreateNull(fbb).Union();
  flatbuffers::Offset<fb::DictionaryEncoding> dict;
  if (dictionary) dict = fb::CreateDictionaryEncoding(fbb, 0, fb::CreateInt(fbb, 32, true));
  auto field =
      fb::CreateField(fbb, fbb.CreateString("f"), true, static_cast<fb::Type>(type), type_table,
                      dict, fbb.CreateVector(std::vector<flatbuffers::Offset<fb::Field>>{}));
  auto fields = fbb.CreateVector(std::vector<flatbuffers::Offset<fb::Field>>{field});
  auto schema =
      fb::CreateSchema(fbb, big_endian ? fb::Endianness::Big : fb::Endianness::Little, fields);
  auto msg =
      fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, schema.Union(), 0);
  fbb.Finish(msg);
  return Frame(fbb, {});
}

TEST(IpcMalformed, UnsupportedFeaturesAreNotImplemented) {
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(9)), StatusCode::kNotImplemented,
                   "field 'f': Arrow type time32/time64 is not supported");
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(17)), StatusCode::kNotImplemented, "map");
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(24)), StatusCode::kNotImplemented, "utf8 view");
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(99)), StatusCode::kCorrupt,
                   "unknown Arrow type number 99");
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(1, /*dictionary=*/true)),
                   StatusCode::kNotImplemented, "dictionary-encoded");
  LND_EXPECT_ERROR(ReadIpcStream(RawTypeSchema(1, false, /*big_endian=*/true)),
                   StatusCode::kNotImplemented, "big-endian");
  // A dictionary batch message after a plain schema.
  flatbuffers::FlatBufferBuilder fbb;
  auto rb = fb::CreateRecordBatch(fbb, 0);
  auto dict = fb::CreateDictionaryBatch(fbb, 0, rb);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::DictionaryBatch,
                               dict.Union(), 0));
  LND_EXPECT_ERROR(ReadIpcStream(Concat({SchemaMessage(*Int32Schema()), Frame(fbb, {})})),
                   StatusCode::kNotImplemented, "record batch 0: dictionary batches");
  // A tensor message (header type 4).
  flatbuffers::FlatBufferBuilder fbb2;
  fbb2.Finish(fb::CreateMessage(fbb2, fb::MetadataVersion::V5, static_cast<fb::MessageHeader>(4),
                                fb::CreateNull(fbb2).Union(), 0));
  LND_EXPECT_ERROR(ReadIpcStream(Concat({SchemaMessage(*Int32Schema()), Frame(fbb2, {})})),
                   StatusCode::kNotImplemented, "tensor messages are not supported");
}

TEST(IpcMalformed, InvalidTypeParameters) {
  auto schema_with = [](auto make_type, fb::Type type, int children) {
    flatbuffers::FlatBufferBuilder fbb;
    auto t = make_type(fbb);
    std::vector<flatbuffers::Offset<fb::Field>> kids;
    for (int i = 0; i < children; ++i) {
      kids.push_back(fb::CreateField(fbb, fbb.CreateString("c"), true, fb::Type::Null,
                                     fb::CreateNull(fbb).Union()));
    }
    auto field =
        fb::CreateField(fbb, fbb.CreateString("f"), true, type, t, 0, fbb.CreateVector(kids));
    auto schema =
        fb::CreateSchema(fbb, fb::Endianness::Little,
                         fbb.CreateVector(std::vector<flatbuffers::Offset<fb::Field>>{field}));
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema,
                                 schema.Union(), 0));
    return Frame(fbb, {});
  };
  using B = flatbuffers::FlatBufferBuilder;
  LND_EXPECT_ERROR(ReadIpcStream(schema_with(
                       [](B& b) { return fb::CreateInt(b, 12, true).Union(); }, fb::Type::Int, 0)),
                   StatusCode::kCorrupt, "Int bit width 12 is invalid");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with([](B& b) { return fb::CreateList(b).Union(); }, fb::Type::List, 2)),
      StatusCode::kCorrupt, "List type has 2 children, expected 1");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with([](B& b) { return fb::CreateFixedSizeList(b, -3).Union(); },
                                fb::Type::FixedSizeList, 1)),
      StatusCode::kCorrupt, "fixed size list size -3 is negative");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with([](B& b) { return fb::CreateFixedSizeBinary(b, -1).Union(); },
                                fb::Type::FixedSizeBinary, 0)),
      StatusCode::kCorrupt, "fixed size binary width -1 is negative");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with(
          [](B& b) { return fb::CreateTimestamp(b, static_cast<fb::TimeUnit>(9)).Union(); },
          fb::Type::Timestamp, 0)),
      StatusCode::kCorrupt, "invalid time unit 9");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with([](B&) { return flatbuffers::Offset<void>(); }, fb::Type::Int, 0)),
      StatusCode::kCorrupt, "Int type has no parameters table");
  LND_EXPECT_ERROR(
      ReadIpcStream(schema_with([](B&) { return flatbuffers::Offset<void>(); }, fb::Type::NONE, 0)),
      StatusCode::kCorrupt, "field 'f': field has no type");
}

TEST(IpcMalformed, CompressedBuffers) {
  const Bytes raw = Int32Body({1, 2, 3, 4});
  LND_ASSERT_OK_AND_ASSIGN(Bytes lz4, internal::CompressBodyBuffer(Compression::kLz4Frame, raw, 0));
  auto decompress = [](Compression c, const Bytes& stored) {
    return internal::DecompressBodyBuffer(c, Buffer::Copy(stored), "buffer 1");
  };
  LND_ASSERT_OK_AND_ASSIGN(BufferPtr back, decompress(Compression::kLz4Frame, lz4));
  EXPECT_EQ(Bytes(back->data(), back->data() + back->size()), raw);
  // Length prefix -1: stored uncompressed.
  Bytes plain(8, 0xFF);
  plain.insert(plain.end(), raw.begin(), raw.end());
  LND_ASSERT_OK_AND_ASSIGN(back, decompress(Compression::kZstd, plain));
  EXPECT_EQ(Bytes(back->data(), back->data() + back->size()), raw);
  // Errors.
  LND_EXPECT_ERROR(decompress(Compression::kLz4Frame, Bytes{1, 2, 3}), StatusCode::kCorrupt,
                   "shorter than its 8-byte length prefix");
  Bytes wrong_len = lz4;
  StoreLE<int64_t>(wrong_len.data(), 15);
  LND_EXPECT_ERROR(decompress(Compression::kLz4Frame, wrong_len), StatusCode::kCorrupt, "buffer 1");
  Bytes huge = lz4;
  StoreLE<int64_t>(huge.data(), int64_t{1} << 50);  // must not be allocated up front
  LND_EXPECT_ERROR(decompress(Compression::kLz4Frame, huge), StatusCode::kCorrupt,
                   "frame decompressed to 16 bytes, but its prefix declares 1125899906842624");
  Bytes bad_frame = lz4;
  for (std::size_t i = 8; i < bad_frame.size(); ++i) bad_frame[i] ^= 0x5A;
  LND_EXPECT_ERROR(decompress(Compression::kLz4Frame, bad_frame), StatusCode::kCorrupt,
                   "invalid LZ4 frame");
  LND_ASSERT_OK_AND_ASSIGN(Bytes zstd, internal::CompressBodyBuffer(Compression::kZstd, raw, 3));
  Bytes bad_zstd = zstd;
  for (std::size_t i = 8; i < bad_zstd.size(); ++i) bad_zstd[i] ^= 0x5A;
  LND_EXPECT_ERROR(decompress(Compression::kZstd, bad_zstd), StatusCode::kCorrupt,
                   "invalid zstd frame");
  Bytes truncated(zstd.begin(), zstd.end() - 3);
  LND_EXPECT_ERROR(decompress(Compression::kZstd, truncated), StatusCode::kCorrupt, "ZSTD");
  StoreLE<int64_t>(zstd.data(), -5);
  LND_EXPECT_ERROR(decompress(Compression::kZstd, zstd), StatusCode::kCorrupt,
                   "negative uncompressed length -5");
}

TEST(IpcMalformed, CompressedBatchWithBadCodec) {
  BatchSpec s{.length = 1,
              .nodes = {{1, 0}},
              .buffers = {{0, 0}, {0, 4}},
              .body = Int32Body({1}),
              .compression = static_cast<fb::CompressionType>(7)};
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "unknown body compression codec 7");
  s.compression = fb::CompressionType::LZ4_FRAME;  // 4 bytes cannot hold the 8-byte prefix
  LND_EXPECT_ERROR(ReadIpcStream(Int32Stream(s)), StatusCode::kCorrupt,
                   "record batch 0: buffer 1: compressed buffer of 4 bytes");
}

// ---- files ----

Bytes SmallFile() {
  const SchemaPtr schema = Int32Schema();
  const std::vector<RecordBatchPtr> batches{
      std::make_shared<const RecordBatch>(
          schema, 3,
          std::vector<ArrayPtr>{MakePrimitiveArray<int32_t>(Int32(), {1, std::nullopt, 3})}),
      std::make_shared<const RecordBatch>(
          schema, 1, std::vector<ArrayPtr>{MakePrimitiveArray<int32_t>(Int32(), {4})})};
  auto bytes = WriteIpcFileBytes(schema, batches);
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

TEST(IpcMalformedFile, MagicAndFooter) {
  const Bytes good = SmallFile();
  LND_ASSERT_OK(ReadIpcFileBytes(good));
  Bytes b = good;
  b[0] = 'X';
  LND_EXPECT_ERROR(ReadIpcFileBytes(b), StatusCode::kCorrupt,
                   "does not start with the magic \"ARROW1\"");
  b = good;
  b.back() = 'X';
  LND_EXPECT_ERROR(ReadIpcFileBytes(b), StatusCode::kCorrupt, "does not end with the magic");
  LND_EXPECT_ERROR(ReadIpcFileBytes(Bytes(good.begin(), good.begin() + 10)), StatusCode::kCorrupt,
                   "IPC file of 10 bytes is too small");
  b = good;
  StoreLE<int32_t>(b.data() + b.size() - 10, 1 << 20);
  LND_EXPECT_ERROR(ReadIpcFileBytes(b), StatusCode::kCorrupt, "footer length 1048576 is invalid");
  StoreLE<int32_t>(b.data() + b.size() - 10, 0);
  LND_EXPECT_ERROR(ReadIpcFileBytes(b), StatusCode::kCorrupt, "footer length 0 is invalid");
  // A stream is not a file.
  LND_ASSERT_OK_AND_ASSIGN(auto stream, WriteIpcStream(Int32Schema(), {}));
  LND_EXPECT_ERROR(ReadIpcFileBytes(stream), StatusCode::kCorrupt, "magic");
}

TEST(IpcMalformedFile, FooterBlocksAreChecked) {
  // A footer whose blocks point outside the file or at the schema message.
  const SchemaPtr schema = Int32Schema();
  const Bytes good = SmallFile();
  auto with_blocks = [&](std::vector<internal::BlockLocation> blocks) {
    Bytes footer = internal::EncodeFooter(*schema, blocks).value();
    Bytes out(good.begin(), good.begin() + 8);  // magic + padding
    const Bytes msg = SchemaMessage(*schema);
    out.insert(out.end(), msg.begin(), msg.end());
    out.insert(out.end(), footer.begin(), footer.end());
    Bytes tail(4, 0);
    StoreLE<int32_t>(tail.data(), static_cast<int32_t>(footer.size()));
    out.insert(out.end(), tail.begin(), tail.end());
    out.insert(out.end(), {'A', 'R', 'R', 'O', 'W', '1'});
    return out;
  };
  auto read_first = [](const Bytes& bytes) -> Result<RecordBatchPtr> {
    LND_ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(Buffer::Copy(bytes)));
    return reader.ReadRecordBatch(0);
  };
  LND_EXPECT_ERROR(read_first(with_blocks({{1 << 20, 16, 0}})), StatusCode::kCorrupt,
                   "record batch 0: footer block (offset 1048576");
  LND_EXPECT_ERROR(read_first(with_blocks({{8, 16, 0}})), StatusCode::kCorrupt,
                   "points at a schema message");
  LND_EXPECT_ERROR(read_first(with_blocks({{-8, 16, 0}})), StatusCode::kCorrupt, "footer block");
}

// ---- exhaustive corruption loops ----

Status ReadAllStream(const Bytes& bytes) {
  LND_ASSIGN_OR_RETURN(auto contents, ReadIpcStream(bytes));
  for (const auto& b : contents.batches) LND_RETURN_NOT_OK(b->Validate());
  return Status::OK();
}

Status ReadAllFile(const Bytes& bytes) {
  LND_ASSIGN_OR_RETURN(auto contents, ReadIpcFileBytes(bytes));
  for (const auto& b : contents.batches) LND_RETURN_NOT_OK(b->Validate());
  return Status::OK();
}

bool AcceptableError(const Status& st) {
  return st.ok() || st.code() == StatusCode::kCorrupt || st.code() == StatusCode::kNotImplemented;
}

SchemaPtr SmallMixedSchema() {
  return MakeSchema({MakeField("i", Int16()), MakeField("s", Utf8()), MakeField("l", List(Int8())),
                     MakeField("st", Struct({MakeField("b", Bool()), MakeField("f", Float64())})),
                     MakeField("fsl", FixedSizeList(UInt8(), 2))},
                    Metadata({{"k", "v"}}));
}

std::vector<RecordBatchPtr> SmallMixedBatches() {
  return {testing::RandomBatch(SmallMixedSchema(), 5, 11, 0.3),
          testing::RandomBatch(SmallMixedSchema(), 3, 12, 0.3)};
}

TEST(IpcCorruption, EveryTruncationOfAStream) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes good, WriteIpcStream(SmallMixedSchema(), SmallMixedBatches()));
  LND_ASSERT_OK(ReadAllStream(good));
  int ok_count = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    const Status st = ReadAllStream(Bytes(good.begin(), good.begin() + static_cast<long>(n)));
    ASSERT_TRUE(AcceptableError(st)) << "prefix " << n << ": " << st.ToString();
    ok_count += st.ok() ? 1 : 0;
  }
  // Only cuts at message boundaries (after the schema, after each batch) read successfully.
  EXPECT_EQ(ok_count, 3);
}

TEST(IpcCorruption, EveryTruncationOfAFile) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes good, WriteIpcFileBytes(SmallMixedSchema(), SmallMixedBatches()));
  LND_ASSERT_OK(ReadAllFile(good));
  for (std::size_t n = 0; n < good.size(); ++n) {
    const Status st = ReadAllFile(Bytes(good.begin(), good.begin() + static_cast<long>(n)));
    ASSERT_EQ(st.code(), StatusCode::kCorrupt) << "prefix " << n << ": " << st.ToString();
  }
}

template <typename ReadFn>
void FlipEveryByte(const Bytes& good, ReadFn read) {
  int errors = 0;
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (int mask : {0xFF, 0x01, 0x80}) {
      Bytes b = good;
      b[i] = static_cast<std::uint8_t>(b[i] ^ static_cast<std::uint8_t>(mask));
      const Status st = read(b);
      ASSERT_TRUE(AcceptableError(st))
          << "byte " << i << " ^ " << int(mask) << ": " << st.ToString();
      errors += st.ok() ? 0 : 1;
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(IpcCorruption, FlippedBytesInAStreamNeverCrash) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes good, WriteIpcStream(SmallMixedSchema(), SmallMixedBatches()));
  FlipEveryByte(good, ReadAllStream);
}

TEST(IpcCorruption, FlippedBytesInAFileNeverCrash) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes good, WriteIpcFileBytes(SmallMixedSchema(), SmallMixedBatches()));
  FlipEveryByte(good, ReadAllFile);
}

TEST(IpcCorruption, FlippedBytesInCompressedStreamsNeverCrash) {
  for (Compression c : {Compression::kLz4Frame, Compression::kZstd}) {
    LND_ASSERT_OK_AND_ASSIGN(
        Bytes good, WriteIpcStream(SmallMixedSchema(), SmallMixedBatches(), {.compression = c}));
    FlipEveryByte(good, ReadAllStream);
  }
}

}  // namespace
}  // namespace lance_nd::array::ipc
