// Helpers shared by the encoder sources (and the file writer's page encoder).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "encodings_v2_1.pb.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/file/encoding/compressive.h"

namespace lance_nd::file::internal::encoding::detail {

/// \brief An empty result whose encoding message is allocated (unset oneof).
inline MiniBlockEncoded NewEncoded() {
  MiniBlockEncoded out;
  out.encoding = std::make_shared<pb::CompressiveEncoding>();
  return out;
}

inline std::shared_ptr<pb::CompressiveEncoding> Share(pb::CompressiveEncoding ce) {
  return std::make_shared<pb::CompressiveEncoding>(std::move(ce));
}

/// \brief Threads the writer's encoders use (the caller plus one helper).
inline constexpr int kEncodeThreads = 2;

/// \brief Lance's mini-block chunk targets: bytes of a chunk's values, values per chunk.
inline constexpr std::uint64_t kMaxMiniBlockBytes = 8 * 1024 - 6;
inline constexpr std::uint64_t kMaxMiniBlockValues = 4096;
/// \brief The most values a 2.2 chunk may hold (the chunk word's 4-bit log2), and the bytes of
/// values the writer puts in one byte-stream-split + general chunk of a 2.2 page: zstd needs
/// units far larger than Lance's 4 KiB blocks to approach deflate over a whole netCDF chunk.
inline constexpr std::uint64_t kMaxLargeChunkValues = std::uint64_t{1} << 15;
inline constexpr std::uint64_t kLargeBssChunkBytes = std::uint64_t{128} * 1024;

/// \brief Chunks per parallel work item of the chunk encoders (see ParallelFor).
inline constexpr std::uint64_t kChunksPerTask = 64;

/// \brief Calls fn(begin, end) on disjoint ranges covering [0, n), each at most `grain` items,
/// from the calling thread and up to kEncodeThreads - 1 shared pool workers (see
/// lance_nd::ParallelRanges); `fn` must only write state owned by its items.
template <typename Fn>
void ParallelFor(std::uint64_t n, std::uint64_t grain, Fn&& fn) {
  ParallelRanges(n, grain, kEncodeThreads, std::forward<Fn>(fn));
}

}  // namespace lance_nd::file::internal::encoding::detail
