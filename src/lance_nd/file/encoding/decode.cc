// Decoding dispatch: routes each encoding of the three contexts (block, mini-block, per value)
// to its scheme (schemes.h).
#include <cstring>
#include <vector>

#include "lance_nd/file/encoding/compressive.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"
#include "lance_nd/file/encoding/variable_util.h"

namespace lance_nd::file::internal::encoding {

using detail::Case;
using detail::Corrupt;

// ---- block context -----------------------------------------------------------------------

Result<DataBlock> DecodeBlock(const pb::CompressiveEncoding& ce, const BufferPtr& bytes,
                              std::uint64_t n) {
  const BufferPtr data = bytes ? bytes : array::Buffer::Empty();
  switch (ce.compression_case()) {
    case Case::kFlat:
      return detail::DecodeFlat(ce.flat(), data, n);
    case Case::kVariable:
      return detail::DecodeVariableBlock(data, n);
    case Case::kConstant:
      return detail::DecodeConstant(ce.constant(), n);
    case Case::kInlineBitpacking:
      return detail::DecodeInlineBitpacking(ce.inline_bitpacking(), data, n);
    case Case::kOutOfLineBitpacking:
      return detail::DecodeOutOfLineBitpacking(ce.out_of_line_bitpacking(), data, n);
    case Case::kRle:
      return detail::DecodeRleBlock(ce.rle(), data, n);
    case Case::kGeneral:
      return detail::DecodeGeneralBlock(ce.general(), data, n);
    case Case::kFixedSizeList:
      return detail::DecodeFixedSizeListBlock(ce.fixed_size_list(), data, n);
    default:
      return detail::Unsupported(ce, "block");
  }
}

// ---- mini-block context ------------------------------------------------------------------

Result<DataBlock> DecodeMiniBlock(const pb::CompressiveEncoding& ce,
                                  std::span<const BufferPtr> buffers, std::uint64_t n) {
  // The schemes of one value buffer get it here (null = empty).
  auto one = [&](std::string_view name) -> Result<BufferPtr> {
    if (buffers.size() != 1) {
      return Corrupt(name, "chunk has ", buffers.size(), " value buffers, expected 1");
    }
    return buffers[0] ? buffers[0] : array::Buffer::Empty();
  };
  switch (ce.compression_case()) {
    case Case::kFlat: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("flat"));
      return detail::DecodeFlat(ce.flat(), b, n);
    }
    case Case::kInlineBitpacking: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("inline bitpacking"));
      return detail::DecodeInlineBitpacking(ce.inline_bitpacking(), b, n);
    }
    case Case::kVariable: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("variable"));
      return detail::DecodeVariableMiniBlock(ce.variable(), b, n);
    }
    case Case::kByteStreamSplit: {
      LND_ASSIGN_OR_RETURN(BufferPtr b, one("byte_stream_split"));
      return detail::DecodeByteStreamSplit(ce.byte_stream_split(), b, n);
    }
    case Case::kFsst:
      return detail::DecodeFsstMiniBlock(ce.fsst(), buffers, n);
    case Case::kRle:
      return detail::DecodeRleMiniBlock(ce.rle(), buffers, n);
    case Case::kGeneral:
      return detail::DecodeGeneralMiniBlock(ce.general(), buffers, n);
    case Case::kFixedSizeList:
      return detail::DecodeFixedSizeListMiniBlock(ce.fixed_size_list(), buffers, n);
    case Case::kPackedStruct:
      return detail::DecodePackedStructMiniBlock(ce.packed_struct(), buffers, n);
    case Case::kConstant:
      return detail::DecodeConstant(ce.constant(), n);
    default:
      return detail::Unsupported(ce, "mini-block");
  }
}

std::uint64_t MiniBlockIntoBits(const pb::CompressiveEncoding& ce) {
  switch (ce.compression_case()) {
    case Case::kFlat:
      return !ce.flat().has_data() && detail::IsWordWidth(ce.flat().bits_per_value())
                 ? ce.flat().bits_per_value()
                 : 0;
    case Case::kInlineBitpacking:
      return !ce.inline_bitpacking().has_values() &&
                     detail::IsWordWidth(ce.inline_bitpacking().uncompressed_bits_per_value())
                 ? ce.inline_bitpacking().uncompressed_bits_per_value()
                 : 0;
    case Case::kByteStreamSplit: {
      const auto& v = ce.byte_stream_split().values();
      if (v.compression_case() != Case::kFlat || v.flat().has_data()) return 0;
      const std::uint64_t bits = v.flat().bits_per_value();
      return bits == 16 || bits == 32 || bits == 64 ? bits : 0;
    }
    case Case::kGeneral: {
      const auto scheme = ce.general().compression().scheme();
      if (scheme != pb::COMPRESSION_ALGORITHM_LZ4 && scheme != pb::COMPRESSION_ALGORITHM_ZSTD) {
        return 0;
      }
      const auto inner = ce.general().values().compression_case();
      if (inner != Case::kFlat && inner != Case::kInlineBitpacking &&
          inner != Case::kByteStreamSplit) {
        return 0;
      }
      return MiniBlockIntoBits(ce.general().values());
    }
    default:
      return 0;
  }
}

Status DecodeMiniBlockInto(const pb::CompressiveEncoding& ce, std::span<const BufferPtr> buffers,
                           std::uint64_t n, std::uint8_t* out) {
  const std::uint64_t bits = MiniBlockIntoBits(ce);
  if (bits == 0) return detail::Unsupported(ce, "mini-block (into)");
  if (buffers.size() != 1) {
    return Corrupt(EncodingName(ce), "chunk has ", buffers.size(), " value buffers, expected 1");
  }
  const BufferPtr bytes = buffers[0] ? buffers[0] : array::Buffer::Empty();
  if (n >= detail::kMaxDecodedValues) {  // (the name is built only for the error: hot path)
    LND_RETURN_NOT_OK(detail::CheckCount(EncodingName(ce), n));
  }
  switch (ce.compression_case()) {
    case Case::kFlat:
      return detail::DecodeFlatInto(bits, bytes, n, out);
    case Case::kInlineBitpacking:
      return detail::DecodeInlineBitpackingInto(bits, bytes, n, out);
    case Case::kByteStreamSplit:
      return detail::UnsplitBytesInto(bytes->span(), bits / 8, n, out);
    case Case::kGeneral:
      return detail::DecodeGeneralMiniBlockInto(ce.general(), bits, bytes, n, out);
    default:
      return detail::Unsupported(ce, "mini-block (into)");
  }
}

Result<std::uint64_t> MiniBlockBufferCount(const pb::CompressiveEncoding& ce) {
  switch (ce.compression_case()) {
    case Case::kFlat:
    case Case::kInlineBitpacking:
    case Case::kVariable:
    case Case::kByteStreamSplit:
      return 1;
    case Case::kFsst:
      return MiniBlockBufferCount(ce.fsst().values());
    case Case::kRle:
      return 2;
    case Case::kGeneral:
      return MiniBlockBufferCount(ce.general().values());
    case Case::kPackedStruct:
      return MiniBlockBufferCount(ce.packed_struct().values());
    case Case::kFixedSizeList:
      return detail::FixedSizeListBufferCount(ce.fixed_size_list());
    case Case::kConstant:
      return 0;
    default:
      return detail::Unsupported(ce, "mini-block");
  }
}

// ---- per-value context -------------------------------------------------------------------

Result<DataBlock> DecodePerValueFixed(const pb::CompressiveEncoding& ce, const BufferPtr& bytes,
                                      std::uint64_t n, std::uint64_t bits_per_value) {
  const BufferPtr data = bytes ? bytes : array::Buffer::Empty();
  switch (ce.compression_case()) {
    case Case::kFlat:
      if (ce.flat().bits_per_value() != bits_per_value) {
        return Corrupt("flat", "page declares ", bits_per_value, " bits per value, encoding ",
                       ce.flat().bits_per_value());
      }
      return detail::DecodeFlat(ce.flat(), data, n);
    case Case::kFixedSizeList:
      return detail::DecodeFixedSizeListPerValue(ce.fixed_size_list(), data, n, bits_per_value);
    case Case::kConstant:
      return detail::DecodeConstant(ce.constant(), n);
    default:
      return detail::Unsupported(ce, "per-value (fixed)");
  }
}

Result<DataBlock> DecodePerValueVariable(const pb::CompressiveEncoding& ce,
                                         const DataBlock& encoded) {
  switch (ce.compression_case()) {
    case Case::kVariable: {
      LND_RETURN_NOT_OK(detail::ValidateVariable(encoded, "variable"));
      return encoded;
    }
    case Case::kFsst:
      return detail::DecodeFsstPerValue(ce.fsst(), encoded);
    case Case::kGeneral:
      return detail::DecodeGeneralPerValue(ce.general(), encoded);
    default:
      return detail::Unsupported(ce, "per-value (variable)");
  }
}

}  // namespace lance_nd::file::internal::encoding
