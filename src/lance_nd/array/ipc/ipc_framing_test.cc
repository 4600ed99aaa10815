// Byte-level layout of what the writers emit: continuation markers, 8-byte alignment and
// padding, end-of-stream marker, file magic, footer and blocks.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/ipc/fbs.h"
#include "lance_nd/array/ipc/ipc_test_util.h"
#include "lance_nd/core/internal/endian.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::array::ipc {
namespace {

namespace fb = internal::fb;
using Bytes = std::vector<std::uint8_t>;

const fb::Message* VerifiedMessage(const std::uint8_t* p, std::size_t n) {
  flatbuffers::Verifier v(p, n);
  if (!v.VerifyBuffer<fb::Message>(nullptr)) return nullptr;
  return flatbuffers::GetRoot<fb::Message>(p);
}

struct Walked {
  std::vector<fb::MessageHeader> types;
  std::vector<int64_t> offsets;  // of each message's prefix
  int64_t end = 0;               // offset after the end-of-stream marker
};

// Walk the messages of a stream starting at `start`, checking the framing of each.
Walked WalkStream(const Bytes& b, int64_t start) {
  Walked w;
  int64_t pos = start;
  while (true) {
    EXPECT_EQ(pos % 8, 0) << "message at unaligned offset " << pos;
    EXPECT_EQ(LoadLE<std::uint32_t>(b.data() + pos), 0xFFFFFFFFu) << "at " << pos;
    const int32_t len = LoadLE<int32_t>(b.data() + pos + 4);
    if (len == 0) {
      w.end = pos + 8;
      return w;
    }
    EXPECT_EQ(len % 8, 0) << "metadata length " << len << " is not padded to 8";
    const fb::Message* m = VerifiedMessage(b.data() + pos + 8, static_cast<std::size_t>(len));
    if (m == nullptr) {
      ADD_FAILURE() << "message at " << pos << " does not verify";
      return w;
    }
    EXPECT_EQ(m->version(), fb::MetadataVersion::V5);
    EXPECT_EQ(m->body_length() % 8, 0);
    if (const fb::RecordBatch* rb = m->header_as_RecordBatch()) {
      int64_t prev_end = 0;
      for (const fb::Buffer* buf : *rb->buffers()) {
        EXPECT_EQ(buf->offset() % 8, 0) << "buffer at " << buf->offset();
        EXPECT_GE(buf->offset(), prev_end) << "buffers overlap";
        EXPECT_LE(buf->offset() + buf->length(), m->body_length());
        // Padding between buffers is zero.
        for (int64_t i = prev_end; i < buf->offset(); ++i) {
          EXPECT_EQ(b[static_cast<std::size_t>(pos + 8 + len + i)], 0) << "padding byte " << i;
        }
        prev_end = buf->offset() + buf->length();
      }
    }
    w.types.push_back(m->header_type());
    w.offsets.push_back(pos);
    pos += 8 + len + m->body_length();
  }
}

SchemaPtr TestSchema() {
  return MakeSchema({MakeField("a", Int8()), MakeField("s", Utf8()), MakeField("b", Bool()),
                     MakeField("l", List(Int16()))});
}

std::vector<RecordBatchPtr> TestBatches() {
  return {testing::RandomBatch(TestSchema(), 13, 1, 0.3),
          testing::RandomBatch(TestSchema(), 5, 2, 0.0)};
}

TEST(IpcFraming, StreamLayout) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes b, WriteIpcStream(TestSchema(), TestBatches()));
  ASSERT_GE(b.size(), 16u);
  EXPECT_EQ(b.size() % 8, 0u);
  const Walked w = WalkStream(b, 0);
  ASSERT_EQ(w.types.size(), 3u);
  EXPECT_EQ(w.types[0], fb::MessageHeader::Schema);
  EXPECT_EQ(w.types[1], fb::MessageHeader::RecordBatch);
  EXPECT_EQ(w.types[2], fb::MessageHeader::RecordBatch);
  // The stream ends with exactly the end-of-stream marker.
  EXPECT_EQ(w.end, static_cast<int64_t>(b.size()));
  const Bytes eos{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  EXPECT_TRUE(std::equal(eos.begin(), eos.end(), b.end() - 8));
}

TEST(IpcFraming, ValidityOmittedWithoutNullsAndNodesDepthFirst) {
  auto schema = MakeSchema({MakeField("x", Int32()), MakeField("l", List(Int8()))});
  auto x = MakePrimitiveArray<int32_t>(Int32(), {1, 2, 3});
  ListBuilder lb(List(Int8()));
  auto* items = dynamic_cast<PrimitiveBuilder<int8_t>*>(lb.value_builder());
  ASSERT_NE(items, nullptr);
  lb.Append(true);
  items->Append(4);
  lb.AppendNull();
  lb.Append(true);
  LND_ASSERT_OK_AND_ASSIGN(ArrayPtr l, lb.Finish());
  const std::vector<RecordBatchPtr> batches{
      std::make_shared<const RecordBatch>(schema, 3, std::vector<ArrayPtr>{x, l})};
  LND_ASSERT_OK_AND_ASSIGN(Bytes b, WriteIpcStream(schema, batches));
  const Walked w = WalkStream(b, 0);
  ASSERT_EQ(w.offsets.size(), 2u);
  const int64_t pos = w.offsets[1];
  const int32_t len = LoadLE<int32_t>(b.data() + pos + 4);
  const fb::Message* m = VerifiedMessage(b.data() + pos + 8, static_cast<std::size_t>(len));
  ASSERT_NE(m, nullptr);
  const fb::RecordBatch* rb = m->header_as_RecordBatch();
  ASSERT_NE(rb, nullptr);
  EXPECT_EQ(rb->length(), 3);
  EXPECT_EQ(rb->compression(), nullptr);
  // Nodes: x, l, l.item.
  ASSERT_EQ(rb->nodes()->size(), 3u);
  EXPECT_EQ(rb->nodes()->Get(0)->length(), 3);
  EXPECT_EQ(rb->nodes()->Get(0)->null_count(), 0);
  EXPECT_EQ(rb->nodes()->Get(1)->null_count(), 1);
  EXPECT_EQ(rb->nodes()->Get(2)->length(), 1);
  // Buffers: x validity (empty: no nulls), x values, l validity, l offsets, item validity,
  // item values.
  ASSERT_EQ(rb->buffers()->size(), 6u);
  EXPECT_EQ(rb->buffers()->Get(0)->length(), 0);
  EXPECT_EQ(rb->buffers()->Get(1)->length(), 12);
  EXPECT_EQ(rb->buffers()->Get(2)->length(), 1);
  EXPECT_EQ(rb->buffers()->Get(3)->length(), 16);
  EXPECT_EQ(rb->buffers()->Get(4)->length(), 0);
  EXPECT_EQ(rb->buffers()->Get(5)->length(), 1);
  const std::uint8_t* body = b.data() + pos + 8 + len;
  EXPECT_EQ(LoadLE<int32_t>(body + rb->buffers()->Get(1)->offset() + 8), 3);
  const std::uint8_t* offs = body + rb->buffers()->Get(3)->offset();
  EXPECT_EQ(LoadLE<int32_t>(offs + 0), 0);
  EXPECT_EQ(LoadLE<int32_t>(offs + 4), 1);
  EXPECT_EQ(LoadLE<int32_t>(offs + 8), 1);
  EXPECT_EQ(LoadLE<int32_t>(offs + 12), 1);
}

TEST(IpcFraming, FileLayout) {
  LND_ASSERT_OK_AND_ASSIGN(Bytes b, WriteIpcFileBytes(TestSchema(), TestBatches()));
  ASSERT_GE(b.size(), 32u);
  const Bytes head{'A', 'R', 'R', 'O', 'W', '1', 0, 0};
  EXPECT_TRUE(std::equal(head.begin(), head.end(), b.begin()));
  EXPECT_EQ(std::string(b.end() - 6, b.end()), "ARROW1");
  // The embedded stream, with its end-of-stream marker, right after the magic.
  const Walked w = WalkStream(b, 8);
  ASSERT_EQ(w.types.size(), 3u);
  const int32_t footer_len = LoadLE<int32_t>(b.data() + b.size() - 10);
  EXPECT_EQ(w.end + footer_len + 10, static_cast<int64_t>(b.size()));
  const std::uint8_t* fp = b.data() + w.end;
  flatbuffers::Verifier v(fp, static_cast<std::size_t>(footer_len));
  ASSERT_TRUE(v.VerifyBuffer<fb::Footer>(nullptr));
  const fb::Footer* footer = flatbuffers::GetRoot<fb::Footer>(fp);
  EXPECT_EQ(footer->version(), fb::MetadataVersion::V5);
  ASSERT_NE(footer->schema(), nullptr);
  EXPECT_EQ(footer->schema()->fields()->size(), 4u);
  EXPECT_EQ(footer->dictionaries()->size(), 0u);
  ASSERT_EQ(footer->record_batches()->size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const fb::Block* blk = footer->record_batches()->Get(static_cast<flatbuffers::uoffset_t>(i));
    EXPECT_EQ(blk->offset(), w.offsets[static_cast<std::size_t>(i) + 1]);
    EXPECT_EQ(blk->offset() % 8, 0);
    EXPECT_EQ(blk->metadata_length() % 8, 0);
    EXPECT_EQ(blk->metadata_length(), 8 + LoadLE<int32_t>(b.data() + blk->offset() + 4));
    const fb::Message* m = VerifiedMessage(b.data() + blk->offset() + 8,
                                           static_cast<std::size_t>(blk->metadata_length() - 8));
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(blk->body_length(), m->body_length());
  }
}

TEST(IpcFraming, CompressedBodyDeclaresCodecAndPrefixesLengths) {
  for (Compression c : {Compression::kLz4Frame, Compression::kZstd}) {
    LND_ASSERT_OK_AND_ASSIGN(Bytes b,
                             WriteIpcStream(TestSchema(), TestBatches(), {.compression = c}));
    const Walked w = WalkStream(b, 0);
    ASSERT_EQ(w.offsets.size(), 3u);
    const int64_t pos = w.offsets[1];
    const int32_t len = LoadLE<int32_t>(b.data() + pos + 4);
    const fb::Message* m = VerifiedMessage(b.data() + pos + 8, static_cast<std::size_t>(len));
    const fb::RecordBatch* rb = m->header_as_RecordBatch();
    ASSERT_NE(rb->compression(), nullptr);
    EXPECT_EQ(rb->compression()->codec(),
              c == Compression::kZstd ? fb::CompressionType::ZSTD : fb::CompressionType::LZ4_FRAME);
    // Column a (int8, 13 rows): values buffer 1 starts with its uncompressed length.
    const fb::Buffer* values = rb->buffers()->Get(1);
    EXPECT_EQ(LoadLE<int64_t>(b.data() + pos + 8 + len + values->offset()), 13);
  }
}

}  // namespace
}  // namespace lance_nd::array::ipc
