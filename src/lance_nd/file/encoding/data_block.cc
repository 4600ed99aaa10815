// DataBlock constructors and the encoding name helper.
#include "encodings_v2_1.pb.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding {

DataBlock DataBlock::Fixed(std::uint64_t bits_per_value, std::uint64_t num_values, BufferPtr data) {
  DataBlock b;
  b.kind = Kind::kFixedWidth;
  b.bits_per_value = bits_per_value;
  b.num_values = num_values;
  b.data = data ? std::move(data) : array::Buffer::Empty();
  return b;
}

DataBlock DataBlock::Variable(std::uint32_t bits_per_offset, std::uint64_t num_values,
                              BufferPtr offsets, BufferPtr data) {
  DataBlock b;
  b.kind = Kind::kVariable;
  b.bits_per_offset = bits_per_offset;
  b.num_values = num_values;
  b.offsets = std::move(offsets);
  b.data = data ? std::move(data) : array::Buffer::Empty();
  return b;
}

DataBlock DataBlock::Constant(std::uint64_t num_values, BufferPtr value) {
  DataBlock b;
  b.kind = Kind::kConstant;
  b.num_values = num_values;
  b.data = value ? std::move(value) : array::Buffer::Empty();
  return b;
}

DataBlock DataBlock::AllNull(std::uint64_t num_values) {
  DataBlock b;
  b.kind = Kind::kAllNull;
  b.num_values = num_values;
  b.data = array::Buffer::Empty();
  return b;
}

std::uint64_t DataBlock::DataSize() const {
  switch (kind) {
    case Kind::kFixedWidth:
      return (bits_per_value * num_values + 7) / 8;
    case Kind::kVariable:
      return (num_values + 1) * (bits_per_offset / 8) +
             (data ? static_cast<std::uint64_t>(data->size()) : 0);
    case Kind::kConstant:
      return data ? static_cast<std::uint64_t>(data->size()) : 0;
    case Kind::kAllNull:
      return 0;
  }
  return 0;
}

std::string EncodingName(const pb::CompressiveEncoding& encoding) {
  using Case = pb::CompressiveEncoding::CompressionCase;
  switch (encoding.compression_case()) {
    case Case::kFlat:
      return "flat";
    case Case::kVariable:
      return "variable";
    case Case::kConstant:
      return "constant";
    case Case::kOutOfLineBitpacking:
      return "out_of_line_bitpacking";
    case Case::kInlineBitpacking:
      return "inline_bitpacking";
    case Case::kFsst:
      return "fsst";
    case Case::kDictionary:
      return "dictionary";
    case Case::kRle:
      return "rle";
    case Case::kByteStreamSplit:
      return "byte_stream_split";
    case Case::kGeneral:
      return "general";
    case Case::kFixedSizeList:
      return "fixed_size_list";
    case Case::kPackedStruct:
      return "packed_struct";
    case Case::kVariablePackedStruct:
      return "variable_packed_struct";
    case Case::COMPRESSION_NOT_SET:
      return "unset";
  }
  return "unknown";
}

}  // namespace lance_nd::file::internal::encoding
