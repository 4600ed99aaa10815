// Known-answer and corruption tests of the decoders (bytes from docs/lance-file-format.md).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/test_util.h"
#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::encoding {
namespace {

using testing::Bytes;
using testing::ToStrings;
using testing::ToVector;

TEST(DecodeBlock, VariableDictionaryFromGuide) {
  // §4.3: a 4-entry dictionary written by Lance 12.
  std::vector<std::uint8_t> b{0x20, 0, 0, 0, 0x1c, 0, 0,  0, 0, 0, 0,  0, 4, 0,
                              0,    0, 7, 0, 0,    0, 10, 0, 0, 0, 15, 0, 0, 0};
  const std::string s = "timelatlondepth";
  b.insert(b.end(), s.begin(), s.end());
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeBlock(MakeVariable(32), Bytes(b), 4));
  EXPECT_EQ(block.kind, DataBlock::Kind::kVariable);
  EXPECT_EQ(ToStrings(block), (std::vector<std::string>{"time", "lat", "lon", "depth"}));
  // And the encoder writes exactly those bytes.
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeBlock(MakeVariable(32), block));
  EXPECT_TRUE(enc->Equals(*Bytes(b)));
}

TEST(DecodeBlock, VariableOldSchemeHeader) {
  // Older header: byte 0 = bits, u32 count, u32 data start, then offsets.
  std::vector<std::uint8_t> b{32, 2, 0, 0, 0, 21, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0};
  const std::string s = "hiyou";
  b.insert(b.end(), s.begin(), s.end());
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeBlock(MakeVariable(32), Bytes(b), 2));
  EXPECT_EQ(ToStrings(block), (std::vector<std::string>{"hi", "you"}));
}

TEST(DecodeBlock, RleBlockFromGuide) {
  // §4.8: value 1 (u16) repeated 60 times.
  std::vector<std::uint8_t> b{2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0x3c};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeBlock(MakeRle(16), Bytes(b), 60));
  EXPECT_EQ(ToVector<std::uint16_t>(block), std::vector<std::uint16_t>(60, 1));
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeLevels(MakeRle(16), ToVector<std::uint16_t>(block)));
  EXPECT_TRUE(enc->Equals(*Bytes(b)));
}

TEST(DecodeMiniBlock, FlatFloatsFromWorkedExample) {
  // §7: values 1.5, 2.5, 4.0 as flat(32).
  std::vector<std::uint8_t> b{0, 0, 0xc0, 0x3f, 0, 0, 0x20, 0x40, 0, 0, 0x80, 0x40};
  std::vector<BufferPtr> bufs{Bytes(b)};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(MakeFlat(32), bufs, 3));
  EXPECT_EQ(ToVector<float>(block), (std::vector<float>{1.5f, 2.5f, 4.0f}));
  EXPECT_EQ(block.data->data(), bufs[0]->data()) << "flat decoding should be zero-copy";
}

TEST(DecodeBlock, FlatLevelsFromWorkedExample) {
  std::vector<std::uint8_t> rep{1, 0, 0, 0, 1, 0, 1, 0, 1, 0};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeBlock(MakeFlat(16), Bytes(rep), 5));
  EXPECT_EQ(ToVector<std::uint16_t>(block), (std::vector<std::uint16_t>{1, 0, 1, 1, 1}));
}

TEST(DecodeMiniBlock, FlatBooleans) {
  std::vector<BufferPtr> bufs{Bytes({0b10110101, 0b1})};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(MakeFlat(1), bufs, 9));
  EXPECT_EQ(block.bits_per_value, 1u);
  EXPECT_TRUE(array::GetBit(block.data->data(), 0));
  EXPECT_FALSE(array::GetBit(block.data->data(), 1));
  EXPECT_TRUE(array::GetBit(block.data->data(), 8));
}

TEST(DecodeMiniBlock, VariableChunkRelativeOffsets) {
  // offsets relative to the buffer start: offset[0] = (n+1)*4 = 12, padded with 0x48.
  std::vector<std::uint8_t> b{12, 0, 0,   0,   15,  0,   0,   0,    17,   0,
                              0,  0, 'a', 'b', 'c', 'd', 'e', 0x48, 0x48, 0x48};
  auto ce = MakeVariable(32);
  std::vector<BufferPtr> bufs{Bytes(b)};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(ce, bufs, 2));
  EXPECT_EQ(ToStrings(block), (std::vector<std::string>{"abc", "de"}));
}

TEST(DecodeBlock, OutOfLineWidthZeroIsEmpty) {
  LND_ASSERT_OK_AND_ASSIGN(
      auto block, DecodeBlock(MakeOutOfLineBitpacking(16, 0), array::Buffer::Empty(), 1500));
  EXPECT_EQ(ToVector<std::uint16_t>(block), std::vector<std::uint16_t>(1500, 0));
}

TEST(DecodeBlock, OutOfLineGuideSizes) {
  // §4.7: 1048 levels at W=1 -> 128 bytes for one block + 24 raw u16 = 176 bytes.
  std::vector<std::uint16_t> levels(1048);
  for (std::size_t i = 0; i < levels.size(); ++i)
    levels[i] = static_cast<std::uint16_t>(i % 3 == 0);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeLevels(MakeOutOfLineBitpacking(16, 1), levels));
  EXPECT_EQ(enc->size(), 176);
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodeBlock(MakeOutOfLineBitpacking(16, 1), enc, 1048));
  EXPECT_EQ(ToVector<std::uint16_t>(dec), levels);
}

TEST(DecodeBlock, InlineGuideSizes) {
  // §4.6: 459 levels at W=1 -> 01 00 + 64 u16 words = 130 bytes.
  std::vector<std::uint16_t> levels(459);
  for (std::size_t i = 0; i < levels.size(); ++i)
    levels[i] = static_cast<std::uint16_t>(i % 5 == 0);
  LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeLevels(MakeInlineBitpacking(16), levels));
  ASSERT_EQ(enc->size(), 130);
  EXPECT_EQ(enc->data()[0], 1);
  EXPECT_EQ(enc->data()[1], 0);
  LND_ASSERT_OK_AND_ASSIGN(auto dec, DecodeBlock(MakeInlineBitpacking(16), enc, 459));
  EXPECT_EQ(ToVector<std::uint16_t>(dec), levels);
}

TEST(DecodeBlock, ConstantAndAllNull) {
  LND_ASSERT_OK_AND_ASSIGN(auto null_block, DecodeBlock(MakeConstant(std::nullopt), nullptr, 7));
  EXPECT_EQ(null_block.kind, DataBlock::Kind::kAllNull);
  EXPECT_EQ(null_block.num_values, 7u);
  std::vector<std::uint8_t> seven{7, 0, 0, 0};
  LND_ASSERT_OK_AND_ASSIGN(
      auto c, DecodeBlock(MakeConstant(std::span<const std::uint8_t>(seven)), nullptr, 3));
  EXPECT_EQ(c.kind, DataBlock::Kind::kConstant);
  EXPECT_TRUE(c.data->Equals(*Bytes(seven)));
}

TEST(DecodeMiniBlock, ByteStreamSplit) {
  // two u32 values 0x04030201, 0x08070605 -> bytes grouped by position
  std::vector<BufferPtr> bufs{Bytes({1, 5, 2, 6, 3, 7, 4, 8})};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(MakeByteStreamSplit(32), bufs, 2));
  EXPECT_EQ(ToVector<std::uint32_t>(block), (std::vector<std::uint32_t>{0x04030201, 0x08070605}));
}

TEST(DecodeMiniBlock, RleTruncatesToChunkCount) {
  std::vector<BufferPtr> bufs{Bytes({5, 9}), Bytes({3, 4})};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(MakeRle(8), bufs, 5));
  EXPECT_EQ(ToVector<std::uint8_t>(block), (std::vector<std::uint8_t>{5, 5, 5, 9, 9}));
}

TEST(DecodeMiniBlock, FixedSizeListWithValidity) {
  // FSL<u8, 3> with item validity, 2 rows
  std::vector<FslLayer> layers{{3, Bytes({0})}};
  auto ce = MakeFixedSizeList(layers, 8);
  std::vector<BufferPtr> bufs{Bytes({0b101101}), Bytes({1, 2, 3, 4, 5, 6})};
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodeMiniBlock(ce, bufs, 2));
  EXPECT_EQ(block.bits_per_value, 24u);
  EXPECT_EQ(block.items_per_value, 3u);
  ASSERT_EQ(block.fsl.size(), 1u);
  EXPECT_EQ(block.fsl[0].dimension, 3u);
  ASSERT_TRUE(block.fsl[0].validity);
  EXPECT_EQ(block.fsl[0].validity->data()[0], 0b101101);
  LND_ASSERT_OK_AND_ASSIGN(auto count, MiniBlockBufferCount(ce));
  EXPECT_EQ(count, 2u);
}

TEST(DecodePerValue, FixedSizeListUnzipsValidity) {
  // §4.12: each row = ceil(dim/8) validity bytes, then the items.
  std::vector<FslLayer> layers{{2, Bytes({0})}};
  auto ce = MakeFixedSizeList(layers, 16);
  auto bytes = Bytes({0b01, 1, 0, 2, 0, 0b11, 3, 0, 4, 0});
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodePerValueFixed(ce, bytes, 2, 40));
  EXPECT_EQ(block.bits_per_value, 32u);
  EXPECT_EQ(ToVector<std::uint32_t>(block), (std::vector<std::uint32_t>{0x00020001, 0x00040003}));
  ASSERT_EQ(block.fsl.size(), 1u);
  EXPECT_EQ(block.fsl[0].validity->data()[0], 0b1101);
}

TEST(DecodePerValue, FixedSizeListOfAllNullItems) {
  // Lance 12 writes a full-zip page of fixed_size_list(3, validity, constant(null)) when every
  // item of the page is null: each row holds only its validity byte.
  std::vector<FslLayer> layers{{3, Bytes({0})}};
  auto ce = MakeFixedSizeList(layers, 32);
  ce.mutable_fixed_size_list()->mutable_values()->mutable_constant();
  LND_ASSERT_OK_AND_ASSIGN(auto block, DecodePerValueFixed(ce, Bytes({0, 0}), 2, 8));
  EXPECT_EQ(block.num_values, 2u);
  EXPECT_EQ(block.bits_per_value, 0u);
  EXPECT_EQ(block.items_per_value, 3u);
  LND_EXPECT_ERROR(DecodePerValueFixed(ce, Bytes({0, 0}), 2, 40), StatusCode::kCorrupt,
                   "rows of 40 bits do not match the encoding (8 bits per row)");
}

TEST(GatherDictionary, StringsAndFixed) {
  auto dict = testing::StringsOf({"a", "bb", "ccc"});
  auto idx = testing::FixedOf<std::uint32_t>({2, 0, 0, 1});
  LND_ASSERT_OK_AND_ASSIGN(auto out, GatherDictionary(dict, idx));
  EXPECT_EQ(ToStrings(out), (std::vector<std::string>{"ccc", "a", "a", "bb"}));
  auto fdict = testing::FixedOf<std::uint64_t>({10, 20});
  LND_ASSERT_OK_AND_ASSIGN(auto f,
                           GatherDictionary(fdict, testing::FixedOf<std::uint8_t>({1, 1, 0})));
  EXPECT_EQ(ToVector<std::uint64_t>(f), (std::vector<std::uint64_t>{20, 20, 10}));
  LND_EXPECT_ERROR(GatherDictionary(dict, testing::FixedOf<std::uint32_t>({3})),
                   StatusCode::kCorrupt,
                   "index 3 at position 0 is out of range for a dictionary of 3 items");
}

// ---- corruption --------------------------------------------------------------------------

TEST(DecodeCorrupt, InlineBitpackingShortBlock) {
  std::vector<std::uint8_t> b(1000 + 2, 0);
  b[0] = 13;  // width 13 needs 1664 bytes
  LND_EXPECT_ERROR(
      DecodeBlock(MakeInlineBitpacking(16), Bytes(b), 1024), StatusCode::kCorrupt,
      "inline bitpacking: chunk of 1024 values at width 13 needs 1664 bytes, have 1000");
}

TEST(DecodeCorrupt, InlineBitpackingWidthTooLarge) {
  std::vector<std::uint8_t> b(4096, 0);
  b[0] = 17;
  LND_EXPECT_ERROR(DecodeBlock(MakeInlineBitpacking(16), Bytes(b), 10), StatusCode::kCorrupt,
                   "block 0 has width 17, more than the 16-bit values");
}

TEST(DecodeCorrupt, OutOfLineTooShort) {
  LND_EXPECT_ERROR(DecodeBlock(MakeOutOfLineBitpacking(16, 3), Bytes({0, 0, 0, 0}), 2048),
                   StatusCode::kCorrupt,
                   "out-of-line bitpacking: 2048 values at width 3 need 768 bytes");
  LND_EXPECT_ERROR(DecodeBlock(MakeOutOfLineBitpacking(16, 3), Bytes({0, 0, 0}), 2),
                   StatusCode::kCorrupt, "not a whole number of 16-bit words");
}

TEST(DecodeCorrupt, FlatTooShort) {
  LND_EXPECT_ERROR(DecodeBlock(MakeFlat(32), Bytes({1, 2, 3}), 1), StatusCode::kCorrupt,
                   "flat: 1 values of 32 bits need 4 bytes, have 3");
}

TEST(DecodeCorrupt, VariableOffsets) {
  auto ce = MakeVariable(32);
  std::vector<BufferPtr> short_buf{Bytes({12, 0, 0})};
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, short_buf, 2), StatusCode::kCorrupt,
                   "variable: 2 values need 12 bytes of 32-bit offsets, have 3");
  std::vector<BufferPtr> past{Bytes({12, 0, 0, 0, 14, 0, 0, 0, 99, 0, 0, 0, 'a', 'b'})};
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, past, 2), StatusCode::kCorrupt,
                   "last offset 99 is past the 14 data bytes");
  std::vector<BufferPtr> backwards{Bytes({12, 0, 0, 0, 14, 0, 0, 0, 13, 0, 0, 0, 'a', 'b'})};
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, backwards, 2), StatusCode::kCorrupt,
                   "offset 2 (13) is smaller than offset 1 (14)");
  LND_EXPECT_ERROR(DecodeBlock(ce, Bytes({32, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0}), 1),
                   StatusCode::kCorrupt, "variable (block): 1 values need 8 bytes of offsets");
}

TEST(DecodeCorrupt, RleMismatchedRuns) {
  std::vector<BufferPtr> bufs{Bytes({1, 2}), Bytes({3})};
  LND_EXPECT_ERROR(DecodeMiniBlock(MakeRle(8), bufs, 3), StatusCode::kCorrupt,
                   "rle: 2 run values but 1 run lengths");
  std::vector<BufferPtr> few{Bytes({1}), Bytes({3})};
  LND_EXPECT_ERROR(DecodeMiniBlock(MakeRle(8), few, 10), StatusCode::kCorrupt,
                   "rle: runs cover 3 values, expected 10");
  LND_EXPECT_ERROR(DecodeBlock(MakeRle(16), Bytes({100, 0, 0, 0, 0, 0, 0, 0, 1}), 1),
                   StatusCode::kCorrupt, "rle (block): values of 100 bytes overrun");
  auto bad = MakeRle(16);
  *bad.mutable_rle()->mutable_values() = MakeVariable(32);
  LND_EXPECT_ERROR(DecodeBlock(bad, Bytes({}), 1), StatusCode::kCorrupt,
                   "rle: values must be flat(8|16|32|64), found variable");
}

TEST(DecodeCorrupt, WrongBufferCount) {
  std::vector<BufferPtr> two{Bytes({1}), Bytes({2})};
  LND_EXPECT_ERROR(DecodeMiniBlock(MakeFlat(8), two, 1), StatusCode::kCorrupt,
                   "flat: chunk has 2 value buffers, expected 1");
}

TEST(DecodeCorrupt, GeneralGarbage) {
  auto ce = MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, MakeFlat(8));
  LND_EXPECT_ERROR(DecodeBlock(ce, Bytes({0xff, 0xff, 0xff, 0x7f, 1, 2}), 4), StatusCode::kCorrupt,
                   "general(lz4): declared uncompressed size 2147483647 is impossible");
  LND_EXPECT_ERROR(DecodeBlock(ce, Bytes({10, 0, 0, 0, 0xff, 2, 3}), 10), StatusCode::kCorrupt,
                   "general(lz4): LZ4 block of 3 bytes did not decompress");
  auto z = MakeGeneral(EncodingRequest::Compression::kZstd, std::nullopt, MakeFlat(8));
  LND_EXPECT_ERROR(DecodeBlock(z, Bytes({4, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9}), 4),
                   StatusCode::kCorrupt, "general(zstd)");
}

TEST(DecodeCorrupt, FsstTable) {
  pb::CompressiveEncoding ce;
  ce.mutable_fsst()->set_symbol_table(std::string(10, 'x'));
  *ce.mutable_fsst()->mutable_values() = MakeVariable(32);
  std::vector<BufferPtr> bufs{Bytes({4, 0, 0, 0})};
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, bufs, 0), StatusCode::kCorrupt,
                   "fsst: symbol table of 10 bytes (expected 2312)");
  ce.mutable_fsst()->set_symbol_table(std::string(2312, '\0'));
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, bufs, 0), StatusCode::kCorrupt, "lacks the FSST magic");
}

TEST(DecodeCorrupt, FixedSizeListSizes) {
  std::vector<FslLayer> layers{{4, nullptr}};
  auto ce = MakeFixedSizeList(layers, 32);
  std::vector<BufferPtr> bufs{Bytes(std::vector<std::uint8_t>(20, 0))};
  LND_EXPECT_ERROR(DecodeMiniBlock(ce, bufs, 2), StatusCode::kCorrupt,
                   "fixed_size_list: 2 rows of 4 items of 32 bits need 32 bytes, have 20");
  LND_EXPECT_ERROR(DecodePerValueFixed(ce, bufs[0], 1, 64), StatusCode::kCorrupt,
                   "rows of 64 bits do not match the encoding (128 bits per row)");
}

TEST(DecodeUnsupported, NamesTheEncoding) {
  pb::CompressiveEncoding unset;
  LND_EXPECT_ERROR(DecodeBlock(unset, nullptr, 1), StatusCode::kNotImplemented,
                   "unset or unknown in the block context");
  pb::CompressiveEncoding dict;
  dict.mutable_dictionary();
  std::vector<BufferPtr> none;
  LND_EXPECT_ERROR(DecodeMiniBlock(dict, none, 1), StatusCode::kNotImplemented,
                   "encoding dictionary is not supported in the mini-block context");
  LND_EXPECT_ERROR(DecodePerValueFixed(MakeRle(8), nullptr, 1, 8), StatusCode::kNotImplemented,
                   "encoding rle is not supported in the per-value (fixed) context");
  auto g = MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, MakeFlat(8));
  g.mutable_general()->mutable_compression()->set_scheme(pb::COMPRESSION_ALGORITHM_UNSPECIFIED);
  LND_EXPECT_ERROR(DecodeBlock(g, Bytes({1}), 1), StatusCode::kNotImplemented,
                   "general: compression scheme 0 is not supported");
}

// DecodeMiniBlockInto (the page decoder's bulk path) writes exactly what DecodeMiniBlock
// returns, for every encoding it supports, and rejects the same corrupt input.
TEST(DecodeMiniBlockInto, MatchesDecodeMiniBlock) {
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const std::uint64_t bits = std::uint64_t{8} << (seed % 4);
    const std::uint64_t n = 1 + (seed * 7919) % 5000;
    std::vector<std::uint8_t> raw(n * bits / 8);
    std::uint64_t x = seed + 1;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      // Small values in the low bytes so that bitpacking packs.
      raw[i] = (i % (bits / 8)) == 0 ? static_cast<std::uint8_t>(x >> 60) : 0;
    }
    const DataBlock values = DataBlock::Fixed(
        bits, n, array::Buffer::Copy(raw.data(), static_cast<int64_t>(raw.size())));
    std::vector<pb::CompressiveEncoding> encodings = {
        MakeFlat(bits), MakeInlineBitpacking(bits),
        MakeGeneral(EncodingRequest::Compression::kZstd, std::nullopt, MakeInlineBitpacking(bits)),
        MakeGeneral(EncodingRequest::Compression::kLz4, std::nullopt, MakeFlat(bits)),
        MakeGeneral(EncodingRequest::Compression::kZstd, std::nullopt, MakeFlat(bits))};
    if (bits >= 16) {  // byte-stream-split: floats of 16, 32 or 64 bits
      encodings.push_back(MakeByteStreamSplit(bits));
      encodings.push_back(MakeGeneral(EncodingRequest::Compression::kZstd, std::nullopt,
                                      MakeByteStreamSplit(bits)));
    }
    for (const auto& ce : encodings) {
      ASSERT_EQ(MiniBlockIntoBits(ce), bits);
      LND_ASSERT_OK_AND_ASSIGN(auto enc, EncodeMiniBlockWith(ce, values));
      for (const auto& chunk : enc.chunks) {
        LND_ASSERT_OK_AND_ASSIGN(DataBlock want,
                                 DecodeMiniBlock(*enc.encoding, chunk.buffers, chunk.num_values));
        std::vector<std::uint8_t> got(chunk.num_values * bits / 8 + 1, 0xAB);
        LND_ASSERT_OK(
            DecodeMiniBlockInto(*enc.encoding, chunk.buffers, chunk.num_values, got.data()));
        ASSERT_EQ(std::memcmp(got.data(), want.data->data(), got.size() - 1), 0)
            << EncodingName(ce);
        EXPECT_EQ(got.back(), 0xAB) << "wrote past the end";
        // Truncated input: both paths fail.
        if (chunk.buffers[0]->size() > 8 &&
            ce.compression_case() != pb::CompressiveEncoding::kGeneral) {
          auto cut = array::Buffer::Copy(chunk.buffers[0]->data(), chunk.buffers[0]->size() / 2);
          std::vector<BufferPtr> bad{cut};
          EXPECT_FALSE(DecodeMiniBlock(*enc.encoding, bad, chunk.num_values).ok());
          EXPECT_FALSE(DecodeMiniBlockInto(*enc.encoding, bad, chunk.num_values, got.data()).ok());
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 150);
  EXPECT_EQ(MiniBlockIntoBits(MakeRle(32)), 0u);
  std::uint8_t out[8];
  std::vector<BufferPtr> none{array::Buffer::Empty()};
  LND_EXPECT_ERROR(DecodeMiniBlockInto(MakeRle(32), none, 1, out), StatusCode::kNotImplemented,
                   "rle");
}

}  // namespace
}  // namespace lance_nd::file::internal::encoding
