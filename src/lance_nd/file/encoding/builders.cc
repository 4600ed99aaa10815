// Builders of CompressiveEncoding messages.
#include "encodings_v2_1.pb.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding {

pb::CompressiveEncoding MakeFlat(std::uint64_t bits_per_value) {
  pb::CompressiveEncoding ce;
  ce.mutable_flat()->set_bits_per_value(bits_per_value);
  return ce;
}

pb::CompressiveEncoding MakeVariable(std::uint32_t bits_per_offset) {
  pb::CompressiveEncoding ce;
  *ce.mutable_variable()->mutable_offsets() = MakeFlat(bits_per_offset);
  return ce;
}

pb::CompressiveEncoding MakeInlineBitpacking(std::uint64_t uncompressed_bits) {
  pb::CompressiveEncoding ce;
  ce.mutable_inline_bitpacking()->set_uncompressed_bits_per_value(uncompressed_bits);
  return ce;
}

pb::CompressiveEncoding MakeOutOfLineBitpacking(std::uint64_t uncompressed_bits,
                                                std::uint64_t packed_bits) {
  pb::CompressiveEncoding ce;
  auto* ob = ce.mutable_out_of_line_bitpacking();
  ob->set_uncompressed_bits_per_value(uncompressed_bits);
  *ob->mutable_values() = MakeFlat(packed_bits);
  return ce;
}

pb::CompressiveEncoding MakeRle(std::uint64_t bits_per_value) {
  pb::CompressiveEncoding ce;
  *ce.mutable_rle()->mutable_values() = MakeFlat(bits_per_value);
  *ce.mutable_rle()->mutable_run_lengths() = MakeFlat(8);
  return ce;
}

pb::CompressiveEncoding MakeByteStreamSplit(std::uint64_t bits_per_value) {
  pb::CompressiveEncoding ce;
  *ce.mutable_byte_stream_split()->mutable_values() = MakeFlat(bits_per_value);
  return ce;
}

pb::CompressiveEncoding MakeGeneral(EncodingRequest::Compression scheme,
                                    std::optional<std::int32_t> level,
                                    pb::CompressiveEncoding inner) {
  pb::CompressiveEncoding ce;
  auto* g = ce.mutable_general();
  g->mutable_compression()->set_scheme(scheme == EncodingRequest::Compression::kZstd
                                           ? pb::COMPRESSION_ALGORITHM_ZSTD
                                           : pb::COMPRESSION_ALGORITHM_LZ4);
  if (level) g->mutable_compression()->set_level(*level);
  *g->mutable_values() = std::move(inner);
  return ce;
}

pb::CompressiveEncoding MakeConstant(std::optional<std::span<const std::uint8_t>> value) {
  pb::CompressiveEncoding ce;
  auto* c = ce.mutable_constant();
  if (value) c->set_value(std::string(reinterpret_cast<const char*>(value->data()), value->size()));
  return ce;
}

pb::CompressiveEncoding MakeFixedSizeList(std::span<const FslLayer> layers,
                                          std::uint64_t item_bits) {
  pb::CompressiveEncoding ce = MakeFlat(item_bits);
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
    pb::CompressiveEncoding outer;
    auto* fsl = outer.mutable_fixed_size_list();
    fsl->set_items_per_value(it->dimension);
    fsl->set_has_validity(it->validity != nullptr);
    *fsl->mutable_values() = std::move(ce);
    ce = std::move(outer);
  }
  return ce;
}

}  // namespace lance_nd::file::internal::encoding
