#include "lance_nd/file/encoding/chunk_table.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "lance_nd/testing/status_matchers.h"

namespace lance_nd::file::internal::encoding {
namespace {

struct GeneratedTable {
  std::vector<std::uint8_t> words;
  std::vector<MiniBlockChunk> chunks;
  std::uint64_t num_items = 0;
  std::uint64_t data_size = 0;
};

// A random chunk table as the writer would lay it out: power-of-two chunks, a last chunk of any
// count, sizes within what the word width can express.
GeneratedTable Generate(std::mt19937_64& rng, ChunkWordWidth width, std::uint64_t num_chunks) {
  const std::uint64_t max_units = width == ChunkWordWidth::k16 ? 4096 : (std::uint64_t{1} << 28);
  GeneratedTable t;
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    const bool last = c + 1 == num_chunks;
    // mostly small chunks, now and then the largest the word allows
    const std::uint64_t units = rng() % 8 == 0 ? max_units : 1 + rng() % 64;
    const std::uint64_t log2 = last ? 0 : rng() % 13;
    MiniBlockChunk chunk{t.data_size, units * 8, last ? rng() % 5000 : std::uint64_t{1} << log2};
    const auto word = ChunkWord(width, chunk.size, log2);
    EXPECT_TRUE(word.has_value()) << chunk.size;
    AppendChunkWord(width, *word, &t.words);
    t.data_size += chunk.size;
    t.num_items += chunk.num_values;
    t.chunks.push_back(chunk);
  }
  return t;
}

void ExpectSameChunks(const std::vector<MiniBlockChunk>& got,
                      const std::vector<MiniBlockChunk>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t c = 0; c < got.size(); ++c) {
    EXPECT_EQ(got[c].offset, want[c].offset) << "chunk " << c;
    EXPECT_EQ(got[c].size, want[c].size) << "chunk " << c;
    EXPECT_EQ(got[c].num_values, want[c].num_values) << "chunk " << c;
  }
}

constexpr ChunkWordWidth kWidths[] = {ChunkWordWidth::k16, ChunkWordWidth::k32};

TEST(ChunkTable, GeneratedTablesOfBothWidthsParseBack) {
  for (ChunkWordWidth width : kWidths) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      std::mt19937_64 rng(seed);
      const GeneratedTable t = Generate(rng, width, 1 + rng() % 40);
      EXPECT_EQ(t.words.size(), t.chunks.size() * WordBytes(width));
      LND_ASSERT_OK_AND_ASSIGN(auto chunks,
                               ParseChunkTable(t.words, width, t.num_items, t.data_size));
      ExpectSameChunks(chunks, t.chunks);
    }
  }
}

TEST(ChunkTable, KnownWordsOfBothWidths) {
  // 16-bit: 0x0023 = size field 2 ((2 + 1) * 8 = 24 bytes), 2^3 values; then a last chunk of 8.
  const std::vector<std::uint8_t> w16 = {0x23, 0x00, 0x00, 0x00};
  LND_ASSERT_OK_AND_ASSIGN(auto a, ParseChunkTable(w16, ChunkWordWidth::k16, 11, 32));
  ExpectSameChunks(a, {{0, 24, 8}, {24, 8, 3}});
  // 32-bit: size field 0x00010000 >> 4 = 4096 (32776 bytes), 2^0 values; an empty last chunk.
  const std::vector<std::uint8_t> w32 = {0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00};
  LND_ASSERT_OK_AND_ASSIGN(auto b, ParseChunkTable(w32, ChunkWordWidth::k32, 1, 32784));
  ExpectSameChunks(b, {{0, 32776, 1}, {32776, 8, 0}});
}

TEST(ChunkTable, EmptyTableOfAnEmptyPage) {
  LND_ASSERT_OK_AND_ASSIGN(auto chunks, ParseChunkTable({}, ChunkWordWidth::k16, 0, 0));
  EXPECT_TRUE(chunks.empty());
  LND_EXPECT_ERROR(ParseChunkTable({}, ChunkWordWidth::k32, 5, 0), StatusCode::kCorrupt,
                   "no chunks, but the page has 5 values");
}

TEST(ChunkTable, TruncatedWordsAreCorrupt) {
  for (ChunkWordWidth width : kWidths) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
      std::mt19937_64 rng(1000 + seed);
      GeneratedTable t = Generate(rng, width, 1 + rng() % 20);
      const std::size_t cut = 1 + rng() % (WordBytes(width) - 1);
      t.words.resize(t.words.size() - cut);
      LND_EXPECT_ERROR(ParseChunkTable(t.words, width, t.num_items, t.data_size),
                       StatusCode::kCorrupt, "not a whole number of");
    }
  }
}

TEST(ChunkTable, SizesOverflowingTheBufferAreCorrupt) {
  for (ChunkWordWidth width : kWidths) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
      std::mt19937_64 rng(2000 + seed);
      const GeneratedTable t = Generate(rng, width, 1 + rng() % 20);
      // A buffer one 8-byte unit short: the last chunk runs past its end.
      LND_EXPECT_ERROR(ParseChunkTable(t.words, width, t.num_items, t.data_size - 8),
                       StatusCode::kCorrupt, "chunk " + std::to_string(t.chunks.size() - 1) + " (");
      // A buffer with bytes after the last chunk.
      LND_EXPECT_ERROR(ParseChunkTable(t.words, width, t.num_items, t.data_size + 8),
                       StatusCode::kCorrupt, "the chunks cover " + std::to_string(t.data_size));
    }
  }
  // The largest 32-bit words claim 2 GiB chunks: refused against a small buffer.
  const std::vector<std::uint8_t> huge(8, 0xFF);
  LND_EXPECT_ERROR(ParseChunkTable(huge, ChunkWordWidth::k32, 0, 1 << 20), StatusCode::kCorrupt,
                   "extends past the end of the 1048576-byte chunk buffer");
  // More words than the buffer has 8-byte units: refused before anything is allocated.
  const std::vector<std::uint8_t> many(4000, 0);
  LND_EXPECT_ERROR(ParseChunkTable(many, ChunkWordWidth::k16, 0, 64), StatusCode::kCorrupt,
                   "2000 chunks need at least 16000 bytes, the chunk buffer has 64");
}

TEST(ChunkTable, MoreValuesThanThePageHoldsIsCorrupt) {
  for (ChunkWordWidth width : kWidths) {
    std::mt19937_64 rng(3000);
    const GeneratedTable t = Generate(rng, width, 10);
    const std::uint64_t before_last = t.num_items - t.chunks.back().num_values;
    LND_EXPECT_ERROR(ParseChunkTable(t.words, width, before_last - 1, t.data_size),
                     StatusCode::kCorrupt,
                     "the chunks before the last hold " + std::to_string(before_last));
    // Exactly the values of the other chunks: an empty last chunk is allowed.
    LND_EXPECT_OK(ParseChunkTable(t.words, width, before_last, t.data_size));
  }
}

TEST(ChunkTable, WordLimits) {
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k16, 8, 0), 0u);
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k16, 32768, 12), (4095u << 4) | 12u);
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k16, 32776, 0), std::nullopt);  // 32 KiB + 8
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k32, 32776, 0), 4096u << 4);
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k32, std::uint64_t{1} << 31, 3),
            (((std::uint32_t{1} << 28) - 1) << 4) | 3u);
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k32, (std::uint64_t{1} << 31) + 8, 0), std::nullopt);
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k32, 0, 0), std::nullopt);   // no chunk is empty
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k32, 12, 0), std::nullopt);  // not a multiple of 8
  EXPECT_EQ(ChunkWord(ChunkWordWidth::k16, 8, 16), std::nullopt);  // log2 takes 4 bits
  std::vector<std::uint8_t> bytes;
  AppendChunkWord(ChunkWordWidth::k16, 0xABCD, &bytes);
  AppendChunkWord(ChunkWordWidth::k32, 0x12345678, &bytes);
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{0xCD, 0xAB, 0x78, 0x56, 0x34, 0x12}));
}

}  // namespace
}  // namespace lance_nd::file::internal::encoding
