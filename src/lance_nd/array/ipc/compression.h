// Body-buffer compression of Arrow IPC record batches (LZ4 frame and zstd).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/core/result.h"

namespace lance_nd::array::ipc::internal {

/// \brief Decompress one IPC body buffer: an int64 little-endian uncompressed length (-1: the
/// rest is stored uncompressed) followed by one compressed frame. An empty buffer stays empty.
/// `what` names the buffer in error messages. Output never grows past the declared length.
Result<BufferPtr> DecompressBodyBuffer(Compression codec, const BufferPtr& stored,
                                       std::string_view what);

/// \brief The stored form of `raw`: length prefix plus one compressed frame (empty stays empty).
Result<std::vector<std::uint8_t>> CompressBodyBuffer(Compression codec,
                                                     std::span<const std::uint8_t> raw,
                                                     int zstd_level);

std::string_view CompressionName(Compression codec);

}  // namespace lance_nd::array::ipc::internal
