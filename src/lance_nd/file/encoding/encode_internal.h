// Helpers shared by the encoder sources (and the file writer's page encoder).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <system_error>
#include <thread>

#include "encodings_v2_1.pb.h"
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

/// \brief Calls fn(begin, end) on disjoint ranges covering [0, n), each at most `grain` items,
/// from the calling thread and one helper thread (only when n > grain). Ranges are taken in
/// order from a shared counter, so the split adapts to a busy machine; `fn` must only write
/// state owned by its items (results are then deterministic). If no thread can be started the
/// caller does all the work.
template <typename Fn>
void ParallelFor(std::uint64_t n, std::uint64_t grain, Fn&& fn) {
  if (grain == 0) grain = 1;
  if (n <= grain) {
    if (n > 0) fn(std::uint64_t{0}, n);
    return;
  }
  std::atomic<std::uint64_t> next{0};
  auto work = [&]() {
    while (true) {
      const std::uint64_t begin = next.fetch_add(grain, std::memory_order_relaxed);
      if (begin >= n) return;
      fn(begin, std::min(n, begin + grain));
    }
  };
  std::thread helper;
  try {
    helper = std::thread(work);
  } catch (const std::system_error&) {
    // no thread: the caller does everything below
  }
  work();
  if (helper.joinable()) helper.join();
}

}  // namespace lance_nd::file::internal::encoding::detail
