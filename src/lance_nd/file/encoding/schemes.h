// The schemes behind compressive.h, one source file each, encode and decode together. The
// dispatchers (decode.cc, encode.cc) route an encoding message to its scheme; choose.cc picks
// the scheme a page gets. Private to file/encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "encodings_v2_1.pb.h"
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/general.h"

namespace lance_nd::file::internal::encoding::detail {

using Case = pb::CompressiveEncoding::CompressionCase;

/// \brief NotImplemented naming the encoding (or saying it is unset) and the context.
Status Unsupported(const pb::CompressiveEncoding& ce, std::string_view context);

/// \brief InvalidArgument unless `values` are fixed width with enough data bytes.
Status CheckFixed(const DataBlock& v, std::string_view encoding);

/// \brief The largest power of two of values whose bytes stay under Lance's mini-block target
/// (its ValueEncoder rule); `bits` per value (row).
std::uint64_t FlatValuesPerChunk(std::uint64_t bits);

// ---- flat (flat.cc) --------------------------------------------------------------------------

Result<DataBlock> DecodeFlat(const pb::Flat& flat, const BufferPtr& bytes, std::uint64_t n);
/// `bits` is 8/16/32/64.
Status DecodeFlatInto(std::uint64_t bits, const BufferPtr& bytes, std::uint64_t n,
                      std::uint8_t* out);
Result<MiniBlockEncoded> ChunkFlat(const DataBlock& v, std::uint64_t per_chunk);
Result<BufferPtr> EncodeFlatBlock(const pb::Flat& flat, const DataBlock& values);

// ---- bit-packing, inline and out of line (bitpacking.cc) -------------------------------------

Result<DataBlock> DecodeInlineBitpacking(const pb::InlineBitpacking& ib, const BufferPtr& bytes,
                                         std::uint64_t n);
/// `bits` is 8/16/32/64.
Status DecodeInlineBitpackingInto(std::uint64_t bits, const BufferPtr& bytes, std::uint64_t n,
                                  std::uint8_t* out);
Result<DataBlock> DecodeOutOfLineBitpacking(const pb::OutOfLineBitpacking& ob,
                                            const BufferPtr& bytes, std::uint64_t n);
Result<MiniBlockEncoded> ChunkInlineBitpacking(const DataBlock& v);
Result<BufferPtr> EncodeInlineBitpackingBlock(const pb::InlineBitpacking& ib,
                                              const DataBlock& values);
Result<BufferPtr> EncodeOutOfLineBitpackingBlock(const pb::OutOfLineBitpacking& ob,
                                                 const DataBlock& values);
/// \brief Bytes inline bit-packing would take for `values` (8/16/32/64-bit words).
std::uint64_t InlineBitpackedBytes(const DataBlock& v);

// ---- run-length encoding (rle.cc) ------------------------------------------------------------

Result<DataBlock> DecodeRleBlock(const pb::Rle& rle, const BufferPtr& bytes, std::uint64_t n);
Result<DataBlock> DecodeRleMiniBlock(const pb::Rle& rle, std::span<const BufferPtr> buffers,
                                     std::uint64_t n);
Result<MiniBlockEncoded> ChunkRle(const DataBlock& v);
Result<BufferPtr> EncodeRleBlock(const pb::Rle& rle, const DataBlock& values);
/// \brief Runs of equal values (8/16/32/64-bit words): a fast count, and the exact count with
/// the bytes RLE would take.
std::uint64_t CountRuns(const DataBlock& v);
struct RleSize {
  std::uint64_t runs = 0;
  std::uint64_t bytes = 0;
};
RleSize MeasureRle(const DataBlock& v);

// ---- byte stream split (byte_stream_split.cc) ------------------------------------------------

Result<DataBlock> DecodeByteStreamSplit(const pb::ByteStreamSplit& bss, const BufferPtr& bytes,
                                        std::uint64_t n);
/// \brief Un-split n values of `width` bytes (2, 4 or 8) from `bytes` into `out`.
Status UnsplitBytesInto(std::span<const std::uint8_t> bytes, std::uint64_t w, std::uint64_t n,
                        std::uint8_t* out);
/// \brief Split n values of `width` bytes (2, 4 or 8): byte j of value i goes to dst[j * n + i].
void SplitBytes(std::uint64_t w, const std::uint8_t* src, std::uint64_t n, std::uint8_t* dst);
Status CheckByteStreamSplitWidth(const DataBlock& v);
std::uint64_t ByteStreamSplitValuesPerChunk(const DataBlock& v, std::uint64_t per_chunk);
Result<MiniBlockEncoded> ChunkByteStreamSplit(const DataBlock& v, std::uint64_t per_chunk);

// ---- variable-width values (variable.cc) -----------------------------------------------------

Result<DataBlock> DecodeVariableMiniBlock(const pb::Variable& v, const BufferPtr& bytes,
                                          std::uint64_t n);
Result<DataBlock> DecodeVariableBlock(const BufferPtr& bytes, std::uint64_t n);
Result<MiniBlockEncoded> ChunkVariable(const DataBlock& v, std::uint64_t per_chunk);
Result<BufferPtr> EncodeVariableBlock(const DataBlock& values);
/// \brief The longest value's bytes and the total bytes of `values` (validated kVariable).
struct VariableSizes {
  std::uint64_t max_len = 0;
  std::uint64_t data_size = 0;
};
VariableSizes MeasureVariable(const DataBlock& values);

// ---- FSST over variable values (fsst_scheme.cc; the codec is fsst.h) ------------------------

Result<DataBlock> DecodeFsstMiniBlock(const pb::Fsst& fsst, std::span<const BufferPtr> buffers,
                                      std::uint64_t n);
/// The values of `ranges` only, the others left compressed (select.cc).
Result<DataBlock> DecodeFsstMiniBlockRanges(const pb::Fsst& fsst,
                                            std::span<const BufferPtr> buffers, std::uint64_t n,
                                            ValueRanges ranges);
Result<DataBlock> DecodeFsstPerValue(const pb::Fsst& fsst, const DataBlock& encoded);
Result<MiniBlockEncoded> ChunkFsst(const DataBlock& values, std::uint64_t per_chunk);
/// `force`: compress even when the trainer finds no gain (lance-encoding:compression=fsst).
Result<PerValueEncoded> EncodeFsstPerValue(const DataBlock& values, bool force);

// ---- general compression: LZ4 / zstd around another encoding (general_scheme.cc) ------------

Result<GeneralScheme> SchemeOf(const pb::BufferCompression& c);
GeneralScheme SchemeOf(EncodingRequest::Compression scheme);
std::optional<std::int32_t> LevelOf(const pb::BufferCompression& c);
Result<DataBlock> DecodeGeneralBlock(const pb::General& general, const BufferPtr& bytes,
                                     std::uint64_t n);
Result<DataBlock> DecodeGeneralMiniBlock(const pb::General& general,
                                         std::span<const BufferPtr> buffers, std::uint64_t n);
Status DecodeGeneralMiniBlockInto(const pb::General& general, std::uint64_t bits,
                                  const BufferPtr& bytes, std::uint64_t n, std::uint8_t* out);
Result<DataBlock> DecodeGeneralPerValue(const pb::General& general, const DataBlock& encoded);
/// \brief Compress each chunk's first buffer; `inner` comes back unchanged when that does not
/// pay (small pages, no gain).
Result<MiniBlockEncoded> WrapGeneral(MiniBlockEncoded inner, EncodingRequest::Compression scheme,
                                     std::optional<std::int32_t> level);
/// \brief general(byte_stream_split): the same bytes as ChunkByteStreamSplit + WrapGeneral,
/// without materialising the split values.
Result<MiniBlockEncoded> ChunkByteStreamSplitGeneral(const DataBlock& v, std::uint64_t per_chunk,
                                                     EncodingRequest::Compression scheme,
                                                     std::optional<std::int32_t> level);
Result<BufferPtr> EncodeGeneralBlock(const pb::General& general, const DataBlock& values);
/// \brief Each variable value compressed on its own with zstd.
Result<PerValueEncoded> EncodeGeneralPerValue(const DataBlock& values,
                                              std::optional<std::int32_t> level);

// ---- fixed-size lists (fixed_size_list.cc) ---------------------------------------------------

Result<DataBlock> DecodeFixedSizeListMiniBlock(const pb::FixedSizeList& fsl,
                                               std::span<const BufferPtr> buffers, std::uint64_t n);
Result<DataBlock> DecodeFixedSizeListBlock(const pb::FixedSizeList& fsl, const BufferPtr& bytes,
                                           std::uint64_t n);
Result<DataBlock> DecodeFixedSizeListPerValue(const pb::FixedSizeList& fsl, const BufferPtr& bytes,
                                              std::uint64_t n, std::uint64_t bits_per_value);
/// \brief 1 + the number of layers with validity.
Result<std::uint64_t> FixedSizeListBufferCount(const pb::FixedSizeList& fsl);
Result<MiniBlockEncoded> ChunkFixedSizeList(const DataBlock& v, std::uint64_t per_chunk);
Result<BufferPtr> EncodeFixedSizeListBlock(const DataBlock& values);
Result<PerValueEncoded> EncodeFixedSizeListPerValue(const DataBlock& values);

// ---- constant and packed struct (constant.cc, packed_struct.cc) -----------------------------

DataBlock DecodeConstant(const pb::Constant& c, std::uint64_t n);
Result<DataBlock> DecodePackedStructMiniBlock(const pb::PackedStruct& packed,
                                              std::span<const BufferPtr> buffers, std::uint64_t n);
Result<MiniBlockEncoded> ChunkPackedStruct(const pb::PackedStruct& packed, const DataBlock& values,
                                           std::uint64_t per_chunk);

}  // namespace lance_nd::file::internal::encoding::detail
