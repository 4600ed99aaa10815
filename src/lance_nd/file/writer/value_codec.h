// Value and level compression for the writer: picks encodings and produces chunk buffers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "encodings_v2_1.pb.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/writer/page_encoder.h"
#include "lance_nd/file/writer/shred.h"

namespace lance_nd::file::internal::writer {

namespace pb21 = ::lance::encodings21;

struct ValueChunk {
  std::uint64_t num_values = 0;
  std::vector<array::BufferPtr> buffers;  // unpadded
};

struct MiniBlockValues {
  pb21::CompressiveEncoding encoding;
  std::uint64_t num_buffers = 1;
  std::vector<ValueChunk> chunks;
};

/// \brief Compress the page's value slots into mini-block chunks. `max_values_per_chunk` (a
/// power of two, 0 = the encoding's default) caps the values of every chunk.
Result<MiniBlockValues> EncodeMiniBlockValues(const SlotValues& values,
                                              const ColumnOptions& options,
                                              std::uint64_t max_values_per_chunk);

/// \brief The block encoding for all of a page's rep or def levels.
Result<pb21::CompressiveEncoding> ChooseLevelEncoding(std::span<const std::uint16_t> levels,
                                                      Version version);

/// \brief Encode one chunk's slice of levels with `encoding`.
Result<array::BufferPtr> EncodeLevels(const pb21::CompressiveEncoding& encoding,
                                      std::span<const std::uint16_t> levels);

/// \brief Values prepared for full-zip: fixed (bits_per_value per slot, contiguous bytes) or
/// variable (value i = data[offsets[i], offsets[i+1]), lengths prefixed with bits_per_offset).
struct PerValueValues {
  pb21::CompressiveEncoding encoding;
  bool variable = false;
  std::uint64_t bits_per_value = 0;
  std::uint32_t bits_per_offset = 32;
  array::BufferPtr data;
  std::vector<std::uint64_t> offsets;
};

Result<PerValueValues> EncodePerValueValues(const SlotValues& values,
                                            const ColumnOptions& options);

}  // namespace lance_nd::file::internal::writer
