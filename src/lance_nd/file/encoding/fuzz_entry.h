// Entry points for the encoding fuzz targets (fuzz/file_encoding_*_fuzz.cc). They never crash on
// any input; they abort only when a decode/encode round trip disagrees (a real bug).
#pragma once

#include <cstddef>
#include <cstdint>

namespace lance_nd::file::internal::encoding {

/// \brief Input: [context u8][n u16][encoding length u16][CompressiveEncoding protobuf]
/// [buffers: count u8, then each u16 length + bytes]. Runs the decoder of the context
/// (0 block, 1 mini-block, 2 per-value fixed, 3 per-value variable, 4 dictionary gather).
void FuzzDecodeProto(const std::uint8_t* data, std::size_t size);

/// \brief Input: [encoding selector u8][n u16][bytes]. The selector picks one of a fixed table of
/// well-formed encodings (all kinds and widths); the bytes are its buffer(s). Successful fixed
/// decodes are re-encoded and decoded again, and must round-trip.
void FuzzDecodeSynth(const std::uint8_t* data, std::size_t size);

}  // namespace lance_nd::file::internal::encoding
