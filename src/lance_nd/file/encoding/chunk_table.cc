#include "lance_nd/file/encoding/chunk_table.h"

#include "lance_nd/core/internal/endian.h"

namespace lance_nd::file::internal::encoding {
namespace {

constexpr std::uint64_t kLog2Bits = 4;  // the low bits of a word: log2 of the chunk's values
constexpr std::uint64_t kLog2Mask = (std::uint64_t{1} << kLog2Bits) - 1;

std::uint64_t WordAt(std::span<const std::uint8_t> words, ChunkWordWidth width, std::size_t i) {
  return width == ChunkWordWidth::k32 ? LoadLE<std::uint32_t>(words.data() + i * 4)
                                      : LoadLE<std::uint16_t>(words.data() + i * 2);
}

}  // namespace

Result<std::vector<MiniBlockChunk>> ParseChunkTable(std::span<const std::uint8_t> words,
                                                    ChunkWordWidth width, std::uint64_t num_items,
                                                    std::uint64_t data_size) {
  constexpr std::string_view kWhat = "mini-block chunk table: ";
  const std::uint64_t word_bytes = WordBytes(width);
  if (words.size() % word_bytes != 0) {
    return Status::Corrupt(kWhat, words.size(), " bytes are not a whole number of ", word_bytes,
                           "-byte chunk words");
  }
  const std::uint64_t num_chunks = words.size() / word_bytes;
  if (num_chunks == 0 && num_items > 0) {
    return Status::Corrupt(kWhat, "no chunks, but the page has ", num_items, " values");
  }
  // Every chunk takes at least 8 bytes: refuse a table the buffer cannot hold before allocating.
  if (num_chunks > data_size / 8) {
    return Status::Corrupt(kWhat, num_chunks, " chunks need at least ", num_chunks * 8,
                           " bytes, the chunk buffer has ", data_size);
  }
  std::vector<MiniBlockChunk> chunks(num_chunks);
  std::uint64_t offset = 0;
  std::uint64_t seen = 0;
  for (std::uint64_t c = 0; c < num_chunks; ++c) {
    const std::uint64_t word = WordAt(words, width, c);
    MiniBlockChunk& chunk = chunks[c];
    chunk.offset = offset;
    chunk.size = ((word >> kLog2Bits) + 1) * 8;
    if (chunk.size > data_size - offset) {
      return Status::Corrupt(kWhat, "chunk ", c, " (", chunk.size, " bytes at ", offset,
                             ") extends past the end of the ", data_size, "-byte chunk buffer");
    }
    offset += chunk.size;
    if (c + 1 < num_chunks) {
      chunk.num_values = std::uint64_t{1} << (word & kLog2Mask);
    } else if (seen > num_items) {
      return Status::Corrupt(kWhat, "the chunks before the last hold ", seen,
                             " values, more than the page's ", num_items);
    } else {
      chunk.num_values = num_items - seen;
    }
    seen += chunk.num_values;
  }
  if (offset != data_size) {
    return Status::Corrupt(kWhat, "the chunks cover ", offset, " bytes of the ", data_size,
                           "-byte chunk buffer");
  }
  return chunks;
}

std::optional<std::uint32_t> ChunkWord(ChunkWordWidth width, std::uint64_t size,
                                       std::uint64_t log2_values) {
  if (size == 0 || size % 8 != 0 || log2_values > kLog2Mask) return std::nullopt;
  const std::uint64_t size_bits = WordBytes(width) * 8 - kLog2Bits;
  const std::uint64_t units = size / 8 - 1;
  if (units >= (std::uint64_t{1} << size_bits)) return std::nullopt;
  return static_cast<std::uint32_t>((units << kLog2Bits) | log2_values);
}

void AppendChunkWord(ChunkWordWidth width, std::uint32_t word, std::vector<std::uint8_t>* out) {
  for (std::uint64_t k = 0; k < WordBytes(width); ++k) {
    out->push_back(static_cast<std::uint8_t>(word >> (8 * k)));
  }
}

}  // namespace lance_nd::file::internal::encoding
