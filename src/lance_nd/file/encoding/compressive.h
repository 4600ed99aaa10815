// Lance 2.1/2.2 compressive encodings (lance.encodings21.CompressiveEncoding): pure functions
// from encoded bytes to decoded data blocks and back. Private to the file layer.
//
// Three decoding contexts (docs/lance-file-format.md §4.1):
//  * block      — one whole buffer of N values: mini-block rep/def levels, page dictionaries,
//                 constant-layout levels.                                   -> DecodeBlock
//  * mini-block — the value buffers of one mini-block chunk.               -> DecodeMiniBlock
//  * per-value  — full-zip values (each value on its own).                 -> DecodePerValue*
// Every decoder treats its input as untrusted: sizes and counts are validated before any read;
// errors are Corrupt naming the encoding and what was wrong; unknown or unsupported encodings
// are NotImplemented naming them.
//
// Decoded values are returned zero-copy (slices of the input buffers) when possible.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/version.h"

namespace lance::encodings21 {
class CompressiveEncoding;
}  // namespace lance::encodings21

namespace lance_nd::array {
class Metadata;
}  // namespace lance_nd::array

namespace lance_nd::file::internal::encoding {

namespace pb = ::lance::encodings21;
using array::BufferPtr;

// ------------------------------------------------------------------------------------------
// Decoded data
// ------------------------------------------------------------------------------------------

/// \brief One fixed-size-list layer of fixed-width rows (outermost first). `validity`, when set,
/// is the LSB-first validity bitmap of this layer's items: for top-level value i and item j of
/// the layer (cum_dim = product of the dimensions down to and including this layer), bit
/// i * cum_dim + j. A set bit means valid.
struct FslLayer {
  std::uint64_t dimension = 0;
  BufferPtr validity;  // null: the layer's items have no validity
};

/// \brief The result of decoding (or the input of encoding) N values.
struct DataBlock {
  enum class Kind : std::uint8_t {
    kFixedWidth,  // `bits_per_value` bits per value; bytes in `data`
    kVariable,    // value i = data[offsets[i], offsets[i+1])
    kConstant,    // every value equals the bytes in `data` (a single value)
    kAllNull,     // every value is null; no buffers
  };

  Kind kind = Kind::kFixedWidth;
  std::uint64_t num_values = 0;

  /// kFixedWidth: 1 (LSB-first bitmap, e.g. booleans), 8/16/32/64 (little-endian integers or
  /// floats), any other multiple of 8 (fixed-size rows: fixed-size lists, packed structs),
  /// other values (LSB-first bit stream), or 0 (all values are zero; `data` may be empty).
  std::uint64_t bits_per_value = 0;

  /// kVariable: 32 or 64. `offsets` holds num_values + 1 little-endian offsets into `data`;
  /// offsets[0] need not be 0 (Arrow allows that), they are non-decreasing and <= data size
  /// (validated by the decoders).
  std::uint32_t bits_per_offset = 0;

  /// kFixedWidth: > 1 when each value is a fixed-size-list row of `items_per_value` items of
  /// bits_per_value / items_per_value bits each (nested lists flattened: the product of the
  /// dimensions in `fsl`). Set by fixed_size_list decoders; read by the encoders.
  std::uint64_t items_per_value = 1;

  /// kFixedWidth fixed-size-list rows: the layers, outermost first (empty for plain values).
  /// Decoders fill it for fixed_size_list encodings; encoders read it.
  std::vector<FslLayer> fsl;

  BufferPtr data;     // values (fixed), value bytes (variable), the constant (constant)
  BufferPtr offsets;  // kVariable only

  static DataBlock Fixed(std::uint64_t bits_per_value, std::uint64_t num_values, BufferPtr data);
  static DataBlock Variable(std::uint32_t bits_per_offset, std::uint64_t num_values,
                            BufferPtr offsets, BufferPtr data);
  static DataBlock Constant(std::uint64_t num_values, BufferPtr value);
  static DataBlock AllNull(std::uint64_t num_values);

  /// \brief Byte size of the values (fixed: ceil(bits * n / 8); variable: offsets + data).
  std::uint64_t DataSize() const;
};

// ------------------------------------------------------------------------------------------
// Decoding
// ------------------------------------------------------------------------------------------

/// \brief Block context: decode `bytes`, which hold exactly `n` values encoded with `ce`
/// (flat, variable (block form), constant, inline_bitpacking (N <= 1024),
/// out_of_line_bitpacking, rle (block form), general, fixed_size_list).
/// Levels come back as kFixedWidth with 16 bits per value; a flat(0) block as bits_per_value 0
/// and no bytes (all zeros).
Result<DataBlock> DecodeBlock(const pb::CompressiveEncoding& ce, const BufferPtr& bytes,
                              std::uint64_t n);

/// \brief Mini-block context: decode the value buffers of one chunk (in chunk order, without the
/// 8-byte padding — exactly the sizes the chunk header records) holding `n` values.
/// Supports flat, inline_bitpacking, variable, fsst, rle, byte_stream_split, general,
/// fixed_size_list, packed_struct (returned as fixed-width rows), constant.
Result<DataBlock> DecodeMiniBlock(const pb::CompressiveEncoding& ce,
                                  std::span<const BufferPtr> buffers, std::uint64_t n);

/// \brief Bits per value (8/16/32/64) that DecodeMiniBlockInto writes for `ce`, or 0 when
/// it does not apply (only flat, inline_bitpacking and general over them do).
std::uint64_t MiniBlockIntoBits(const pb::CompressiveEncoding& ce);

/// \brief Mini-block context, straight into caller memory: decode one chunk's value buffers
/// holding `n` values into `out`, which has room for `n` values of MiniBlockIntoBits(ce)
/// bits. Same validation and errors as DecodeMiniBlock; the bulk
/// path of the page decoder (no per-chunk allocation, no later copy).
Status DecodeMiniBlockInto(const pb::CompressiveEncoding& ce, std::span<const BufferPtr> buffers,
                           std::uint64_t n, std::uint8_t* out);

/// \brief Number of value buffers per chunk a mini-block encoding produces (the layout's
/// num_buffers): 1 for most, 2 for rle, 1 + #validity layers for fixed_size_list.
Result<std::uint64_t> MiniBlockBufferCount(const pb::CompressiveEncoding& ce);

/// \brief Per-value (full-zip) context, fixed width: `bytes` holds `n` zipped values of
/// `bits_per_value` bits each, already un-zipped (concatenated). Supports flat, fixed_size_list
/// (with per-row validity bytes), constant.
Result<DataBlock> DecodePerValueFixed(const pb::CompressiveEncoding& ce, const BufferPtr& bytes,
                                      std::uint64_t n, std::uint64_t bits_per_value);

/// \brief Per-value (full-zip) context, variable width: the i-th value's encoded bytes are
/// `encoded.data[offsets[i], offsets[i+1])` (encoded must be kVariable). Returns the decoded
/// values (variable: identity, fsst: each value expanded, general: each value decompressed).
Result<DataBlock> DecodePerValueVariable(const pb::CompressiveEncoding& ce,
                                         const DataBlock& encoded);

/// \brief Sorted, disjoint [begin, end) ranges of value positions.
using ValueRanges = std::span<const std::pair<std::uint64_t, std::uint64_t>>;

/// \brief The values of `ranges` of `block`, back to back (a copy; `block` itself when the
/// ranges cover it). Ranges out of order or past the block are Corrupt; kinds that cannot be cut
/// per value (bit widths other than 0, 1 and whole bytes; fixed-size-list validity) are
/// NotImplemented.
Result<DataBlock> SelectValues(const DataBlock& block, ValueRanges ranges);

/// \brief Mini-block context, some values only: the values of `ranges` of the chunk's `n`
/// values, as SelectValues(DecodeMiniBlock(...)) gives them, but FSST strings are decompressed
/// only for the selected values.
Result<DataBlock> DecodeMiniBlockRanges(const pb::CompressiveEncoding& ce,
                                        std::span<const BufferPtr> buffers, std::uint64_t n,
                                        ValueRanges ranges);

/// \brief Map dictionary indices (kFixedWidth 8/16/32/64, unsigned) through `dictionary`
/// (fixed or variable) into materialised values. Out-of-range indices are Corrupt.
Result<DataBlock> GatherDictionary(const DataBlock& dictionary, const DataBlock& indices);

/// \brief Human name of the encoding in a CompressiveEncoding ("inline_bitpacking", ...).
std::string EncodingName(const pb::CompressiveEncoding& encoding);

// ------------------------------------------------------------------------------------------
// Encoding
// ------------------------------------------------------------------------------------------

/// \brief The writer's choices for one column: Lance field metadata plus the file version.
struct EncodingRequest {
  enum class Compression : std::uint8_t { kDefault, kNone, kFsst, kLz4, kZstd };
  enum class Bss : std::uint8_t { kAuto, kOn, kOff };

  FileVersion version = FileVersion::kV2_2;
  Compression compression = Compression::kDefault;  // lance-encoding:compression
  std::optional<std::int32_t> compression_level;    // lance-encoding:compression-level
  Bss bss = Bss::kAuto;                             // lance-encoding:bss
  double rle_threshold = 0.5;                       // lance-encoding:rle-threshold
  double dict_size_ratio = 0.8;                     // lance-encoding:dict-size-ratio
  std::optional<std::uint64_t> dict_divisor;        // lance-encoding:dict-divisor
  std::uint64_t dict_max_cardinality = 100000;      // LANCE_ENCODING_DICT_MAX_CARDINALITY

  /// \brief Read the lance-encoding:* keys of a field's metadata. Unknown values ->
  /// InvalidArgument.
  static Result<EncodingRequest> FromFieldMetadata(const array::Metadata& metadata,
                                                   FileVersion version);
};

/// \brief One mini-block chunk's value buffers (unpadded) and its value count.
struct EncodedChunk {
  std::uint64_t num_values = 0;
  std::vector<BufferPtr> buffers;
};

/// \brief A page's values compressed for mini-block: the chosen encoding and the chunks. Every
/// chunk except the last holds a power of two <= 4096 values.
struct MiniBlockEncoded {
  std::shared_ptr<pb::CompressiveEncoding> encoding;
  std::uint64_t num_buffers = 0;
  std::vector<EncodedChunk> chunks;
};

/// \brief Choose a mini-block compression for `values` (a whole page's visible value slots; fixed
/// or variable) as Lance 12 does (§4.15: flat / bitpacking / RLE / BSS / FSST / variable, optional
/// general wrapper) and compress it into chunks.
Result<MiniBlockEncoded> EncodeMiniBlock(const DataBlock& values, const EncodingRequest& request);

/// \brief Compress `values` with an explicitly given mini-block encoding (no heuristics), cut into
/// chunks of at most `values_per_chunk` (power of two; 0 = the encoding's default).
Result<MiniBlockEncoded> EncodeMiniBlockWith(const pb::CompressiveEncoding& ce,
                                             const DataBlock& values,
                                             std::uint64_t values_per_chunk = 0);

/// \brief Choose the block compression for a page's rep or def levels (all of them) as Lance 12
/// does (§4.15): 2.2 RLE, inline/out-of-line bitpacking, else flat(16). The writer then encodes
/// each chunk's slice with EncodeBlock(chosen, slice).
Result<std::shared_ptr<pb::CompressiveEncoding>> ChooseLevelEncoding(
    std::span<const std::uint16_t> levels, FileVersion version);
/// \brief ChooseLevelEncoding of `n` levels that all equal `level`, without the levels.
Result<std::shared_ptr<pb::CompressiveEncoding>> ChooseConstantLevelEncoding(std::uint64_t n,
                                                                             std::uint16_t level,
                                                                             FileVersion version);

/// \brief Block context encoder: encode `values` with `ce` (flat, variable, constant,
/// inline_bitpacking, out_of_line_bitpacking, rle, general, fixed_size_list).
Result<BufferPtr> EncodeBlock(const pb::CompressiveEncoding& ce, const DataBlock& values);

/// \brief Encode levels (u16) as a block with `ce` (convenience over EncodeBlock).
Result<BufferPtr> EncodeLevels(const pb::CompressiveEncoding& ce,
                               std::span<const std::uint16_t> levels);

/// \brief A page's dictionary encoding, when the heuristics (§3.6) say it pays.
struct DictionaryEncoded {
  DataBlock indices;     // kFixedWidth u32 (or u64 for 64-bit offsets), one per value
  DataBlock dictionary;  // the distinct values, first-seen order
  std::shared_ptr<pb::CompressiveEncoding> dictionary_encoding;  // block CE for the items
  BufferPtr dictionary_bytes;                                    // encoded with it
};

/// \brief Decide whether to dictionary-encode `values` (>= 100 values, size ratio, cardinality
/// caps); nullopt when not worth it. Indices are then encoded with EncodeMiniBlock.
Result<std::optional<DictionaryEncoded>> MaybeDictionaryEncode(const DataBlock& values,
                                                               const EncodingRequest& request);

/// \brief Full-zip values: the chosen per-value encoding plus the values to zip (fixed: each
/// value `bits_per_value` bits; variable: value i's encoded bytes, lengths to prefix).
struct PerValueEncoded {
  std::shared_ptr<pb::CompressiveEncoding> encoding;
  DataBlock values;
};

/// \brief Choose and apply a per-value compression for full-zip (flat / fixed_size_list /
/// variable / fsst / general for values > 32 KiB).
Result<PerValueEncoded> EncodePerValue(const DataBlock& values, const EncodingRequest& request);

// ------------------------------------------------------------------------------------------
// Encoding builders (for writers that pick encodings themselves, e.g. flat(16) levels)
// ------------------------------------------------------------------------------------------

pb::CompressiveEncoding MakeFlat(std::uint64_t bits_per_value);
pb::CompressiveEncoding MakeVariable(std::uint32_t bits_per_offset);
pb::CompressiveEncoding MakeInlineBitpacking(std::uint64_t uncompressed_bits);
pb::CompressiveEncoding MakeOutOfLineBitpacking(std::uint64_t uncompressed_bits,
                                                std::uint64_t packed_bits);
pb::CompressiveEncoding MakeRle(std::uint64_t bits_per_value);
pb::CompressiveEncoding MakeByteStreamSplit(std::uint64_t bits_per_value);
/// `scheme`: kLz4 or kZstd.
pb::CompressiveEncoding MakeGeneral(EncodingRequest::Compression scheme,
                                    std::optional<std::int32_t> level,
                                    pb::CompressiveEncoding inner);
pb::CompressiveEncoding MakeConstant(std::optional<std::span<const std::uint8_t>> value);
/// A fixed_size_list chain for `layers` (outermost first) over flat(item_bits).
pb::CompressiveEncoding MakeFixedSizeList(std::span<const FslLayer> layers,
                                          std::uint64_t item_bits);

}  // namespace lance_nd::file::internal::encoding
