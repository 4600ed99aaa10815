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
  // page dictionary (values in the chunks are indices into it)
  bool has_dictionary = false;
  pb21::CompressiveEncoding dictionary_encoding;
  std::uint64_t num_dictionary_items = 0;
  array::BufferPtr dictionary_bytes;
};

/// \brief Compresses one page's value slots into mini-block chunks. The first Encode(0) picks
/// the encoding (dictionary, bitpacking, RLE, FSST, general... as Lance 12 does, honouring the
/// column's request); later calls with a cap reuse that choice with at most `cap` values per
/// chunk (a power of two), for pages whose levels do not fit the default chunks.
class MiniBlockValueEncoder {
 public:
  MiniBlockValueEncoder(const SlotValues& values, const ColumnOptions& options)
      : values_(values), options_(options) {}
  Result<MiniBlockValues> Encode(std::uint64_t cap);

 private:
  const SlotValues& values_;
  const ColumnOptions& options_;
  bool prepared_ = false;
  bool use_fallback_ = false;
  encoding::DataBlock block_;  // values, or dictionary indices
  MiniBlockValues first_;
};

/// \brief The plain encodings only (flat / variable / fixed_size_list), chunked like Lance.
Result<MiniBlockValues> EncodePlainMiniBlockValues(const SlotValues& values,
                                                   std::uint64_t max_values_per_chunk);

/// \brief The page's values as a compressive-encoding DataBlock. Its data buffer VIEWS
/// `values.bytes` (no copy): the block must not outlive `values`.
Result<encoding::DataBlock> ToDataBlock(const SlotValues& values);

/// \brief The block encoding for all of a page's rep or def levels.
/// \brief ChooseLevelEncoding of `n` levels that are all 0.
Result<pb21::CompressiveEncoding> ChooseZeroLevelEncoding(std::uint64_t n,
                                                          const ColumnOptions& options);
Result<pb21::CompressiveEncoding> ChooseLevelEncoding(std::span<const std::uint16_t> levels,
                                                      const ColumnOptions& options);

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

/// `data` may view `values.bytes`: use it only while `values` is alive.
Result<PerValueValues> EncodePerValueValues(const SlotValues& values, const ColumnOptions& options);
/// \brief flat / fixed_size_list / variable, no compression.
Result<PerValueValues> EncodePlainPerValueValues(const SlotValues& values);

}  // namespace lance_nd::file::internal::writer
