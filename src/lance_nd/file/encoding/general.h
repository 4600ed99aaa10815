// General-purpose buffer compression (LZ4 block / zstd) with Lance's framing
// (docs/lance-file-format.md §4.11):
//   LZ4:  u32 LE uncompressed size + raw LZ4 block
//   ZSTD: u64 LE uncompressed size + zstd frame (a bare zstd frame is also accepted)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/result.h"

namespace lance_nd::file::internal::encoding {

enum class GeneralScheme : std::uint8_t { kLz4 = 1, kZstd = 2 };

/// \brief Decompress one framed buffer. Sizes are validated; garbage -> Corrupt.
Result<array::BufferPtr> GeneralDecompress(GeneralScheme scheme,
                                           std::span<const std::uint8_t> input);

/// \brief Decompress one framed buffer straight into `out`, which must be exactly the size the
/// frame's prefix declares (the bulk decode path: no allocation, no copy). A bare zstd frame
/// (no prefix) has no declared size: NotImplemented, use GeneralDecompress. A size mismatch or
/// garbage -> Corrupt.
Status GeneralDecompressInto(GeneralScheme scheme, std::span<const std::uint8_t> input,
                             std::span<std::uint8_t> out);

/// \brief Decompress one framed buffer into `scratch` (grown to the declared size, reused by
/// the caller across buffers): a view of the declared number of bytes. A bare zstd frame ->
/// NotImplemented (use GeneralDecompress); garbage -> Corrupt.
Result<std::span<const std::uint8_t>> GeneralDecompressToScratch(
    GeneralScheme scheme, std::span<const std::uint8_t> input, std::vector<std::uint8_t>* scratch);

/// \brief Compress one buffer with the framing above. `level` applies to zstd (default 0 =
/// libzstd's default level, as Lance).
Result<array::BufferPtr> GeneralCompress(GeneralScheme scheme, std::span<const std::uint8_t> input,
                                         std::optional<std::int32_t> level = std::nullopt);

/// \brief The most bytes GeneralCompressInto can write for `input_bytes` of input (size prefix
/// included); 0 when the scheme cannot compress that much (LZ4's block limit).
std::uint64_t GeneralCompressBound(GeneralScheme scheme, std::uint64_t input_bytes);

/// \brief GeneralCompress into caller-owned space `out` of at least GeneralCompressBound bytes
/// (no allocation): returns the framed size written.
Result<std::uint64_t> GeneralCompressInto(GeneralScheme scheme, std::span<const std::uint8_t> input,
                                          std::optional<std::int32_t> level,
                                          std::span<std::uint8_t> out);

}  // namespace lance_nd::file::internal::encoding
