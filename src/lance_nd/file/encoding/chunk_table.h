// The chunk table of a mini-block page: one little-endian word per chunk, in chunk order. A
// word holds (chunk bytes / 8 - 1) << 4 | log2(values in the chunk); the last chunk's low bits
// are unused, it holds the values the other chunks leave of the page's num_items. Words are
// 16-bit, or 32-bit in 2.2 pages that set has_large_chunk. The scan decoder, the take path and
// the writer all go through this file.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::file::internal::encoding {

/// \brief Bytes per chunk word.
enum class ChunkWordWidth : std::uint8_t {
  k16 = 2,  // 2.1, and 2.2 pages without has_large_chunk: chunks of at most 32 KiB
  k32 = 4,  // 2.2 pages with has_large_chunk: chunks of at most 2 GiB
};

inline constexpr std::uint64_t WordBytes(ChunkWordWidth width) {
  return static_cast<std::uint64_t>(width);
}

/// \brief One chunk of a mini-block page's data buffer.
struct MiniBlockChunk {
  std::uint64_t offset = 0;      // first byte in the page's chunk (data) buffer
  std::uint64_t size = 0;        // bytes, a multiple of 8
  std::uint64_t num_values = 0;  // value slots (a power of two except in the last chunk)
};

/// \brief Parse a page's chunk table. `words` are the chunk word bytes (the page's first
/// buffer), `num_items` the page's value count, `data_size` the size of its chunk buffer. The
/// input is untrusted: Corrupt ("mini-block chunk table: ...") when the words are truncated
/// (not a whole number of words), when the chunks before the last hold more than `num_items`
/// values, when there are no chunks but items, or when the chunk sizes do not add up to exactly
/// `data_size` (a chunk past the end, or bytes no chunk covers).
Result<std::vector<MiniBlockChunk>> ParseChunkTable(std::span<const std::uint8_t> words,
                                                    ChunkWordWidth width, std::uint64_t num_items,
                                                    std::uint64_t data_size);

/// \brief The word of a chunk of `size` bytes (a positive multiple of 8) holding 2^`log2_values`
/// values (log2_values < 16; 0 for the last chunk when it is not a power of two), or nullopt when
/// the size does not fit the word (16-bit words: 32 KiB, 32-bit: 2 GiB).
std::optional<std::uint32_t> ChunkWord(ChunkWordWidth width, std::uint64_t size,
                                       std::uint64_t log2_values);

/// \brief Append `word` to `out` in little-endian order, WordBytes(width) bytes.
void AppendChunkWord(ChunkWordWidth width, std::uint32_t word, std::vector<std::uint8_t>* out);

}  // namespace lance_nd::file::internal::encoding
