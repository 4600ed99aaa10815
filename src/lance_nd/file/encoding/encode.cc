// Encoding dispatch: a given encoding message applied to values, in the mini-block and block
// contexts (schemes.h holds the schemes; choose.cc picks the encoding).
#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding {

using detail::Case;
using detail::CheckFixed;
using detail::InvalidInput;

namespace {

// general(inner) in the mini-block context: byte_stream_split is split and compressed chunk by
// chunk, anything else is encoded, then its chunks compressed.
Result<MiniBlockEncoded> ChunkGeneral(const pb::General& general, const DataBlock& values,
                                      std::uint64_t values_per_chunk) {
  const auto scheme = general.compression().scheme() == pb::COMPRESSION_ALGORITHM_ZSTD
                          ? EncodingRequest::Compression::kZstd
                          : EncodingRequest::Compression::kLz4;
  const auto level = detail::LevelOf(general.compression());
  if (general.values().has_byte_stream_split()) {
    LND_RETURN_NOT_OK(CheckFixed(values, "byte_stream_split"));
    return detail::ChunkByteStreamSplitGeneral(values, values_per_chunk, scheme, level);
  }
  LND_ASSIGN_OR_RETURN(MiniBlockEncoded inner,
                       EncodeMiniBlockWith(general.values(), values, values_per_chunk));
  return detail::WrapGeneral(std::move(inner), scheme, level);
}

// The chunks of `values` for an encoding with one fixed-width input (the message's own width
// must match the values').
Status CheckWidth(std::string_view encoding, std::uint64_t encoding_bits, const DataBlock& values) {
  LND_RETURN_NOT_OK(CheckFixed(values, encoding));
  if (encoding_bits != values.bits_per_value) {
    return InvalidInput(encoding, "encoding width differs from the values' width");
  }
  return Status::OK();
}

Result<MiniBlockEncoded> ChunkWith(const pb::CompressiveEncoding& ce, const DataBlock& values,
                                   std::uint64_t values_per_chunk) {
  switch (ce.compression_case()) {
    case Case::kFlat:
      LND_RETURN_NOT_OK(CheckWidth("flat", ce.flat().bits_per_value(), values));
      return detail::ChunkFlat(values, values_per_chunk);
    case Case::kFixedSizeList:
      LND_RETURN_NOT_OK(CheckFixed(values, "fixed_size_list"));
      return detail::ChunkFixedSizeList(values, values_per_chunk);
    case Case::kInlineBitpacking:
      LND_RETURN_NOT_OK(CheckWidth("inline bitpacking",
                                   ce.inline_bitpacking().uncompressed_bits_per_value(), values));
      return detail::ChunkInlineBitpacking(values);
    case Case::kVariable:
      return detail::ChunkVariable(values, values_per_chunk);
    case Case::kFsst:
      return detail::ChunkFsst(values, values_per_chunk);
    case Case::kRle:
      LND_RETURN_NOT_OK(CheckFixed(values, "rle"));
      return detail::ChunkRle(values);
    case Case::kByteStreamSplit:
      LND_RETURN_NOT_OK(CheckFixed(values, "byte_stream_split"));
      return detail::ChunkByteStreamSplit(values, values_per_chunk);
    case Case::kGeneral:
      return ChunkGeneral(ce.general(), values, values_per_chunk);
    case Case::kPackedStruct:
      return detail::ChunkPackedStruct(ce.packed_struct(), values, values_per_chunk);
    default:
      return Status::NotImplemented("encoding ", EncodingName(ce),
                                    " cannot be written in a mini-block");
  }
}

}  // namespace

Result<MiniBlockEncoded> EncodeMiniBlockWith(const pb::CompressiveEncoding& ce,
                                             const DataBlock& values,
                                             std::uint64_t values_per_chunk) {
  if (values_per_chunk != 0 && (values_per_chunk & (values_per_chunk - 1)) != 0) {
    return Status::InvalidArgument("values_per_chunk must be a power of two");
  }
  if (values_per_chunk > detail::kMaxMiniBlockValues) {
    return Status::InvalidArgument("values_per_chunk must be at most 4096");
  }
  LND_ASSIGN_OR_RETURN(MiniBlockEncoded out, ChunkWith(ce, values, values_per_chunk));
  // Schemes that take their parameters from the message leave it to be copied.
  if (out.encoding->compression_case() == Case::COMPRESSION_NOT_SET) *out.encoding = ce;
  return out;
}

Result<BufferPtr> EncodeBlock(const pb::CompressiveEncoding& ce, const DataBlock& values) {
  switch (ce.compression_case()) {
    case Case::kFlat:
      return detail::EncodeFlatBlock(ce.flat(), values);
    case Case::kVariable:
      return detail::EncodeVariableBlock(values);
    case Case::kConstant:
      return array::Buffer::Empty();
    case Case::kInlineBitpacking:
      return detail::EncodeInlineBitpackingBlock(ce.inline_bitpacking(), values);
    case Case::kOutOfLineBitpacking:
      return detail::EncodeOutOfLineBitpackingBlock(ce.out_of_line_bitpacking(), values);
    case Case::kRle:
      return detail::EncodeRleBlock(ce.rle(), values);
    case Case::kGeneral:
      return detail::EncodeGeneralBlock(ce.general(), values);
    case Case::kFixedSizeList:
      return detail::EncodeFixedSizeListBlock(values);
    default:
      return Status::NotImplemented("encoding ", EncodingName(ce), " cannot be written as a block");
  }
}

Result<BufferPtr> EncodeLevels(const pb::CompressiveEncoding& ce,
                               std::span<const std::uint16_t> levels) {
  if (ce.compression_case() == Case::kFlat && ce.flat().bits_per_value() == 16) {
    // flat levels are the bytes themselves (the block would be a view of them)
    return array::Buffer::Copy(levels.data(), static_cast<int64_t>(levels.size() * 2));
  }
  // A view: every other encoder writes a new buffer (or fails).
  auto data =
      std::make_shared<const array::Buffer>(reinterpret_cast<const std::uint8_t*>(levels.data()),
                                            static_cast<int64_t>(levels.size() * 2), nullptr);
  return EncodeBlock(ce, DataBlock::Fixed(16, levels.size(), std::move(data)));
}

}  // namespace lance_nd::file::internal::encoding
