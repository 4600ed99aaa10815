// Zero-copy reads from a memory-mapped file.
#pragma once

#include <cstdint>
#include <memory>

#include "lance_nd/array/buffer.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file::internal {

/// \brief Bytes [pos, pos + len) of `file` as a slice of its mapping (the buffer keeps the
/// mapping alive), or null when the file is not mapped, the range is outside it, or `pos` is
/// not 8-byte aligned (decoders may load whole 64-bit words from buffers; Lance aligns page
/// buffers to 64 bytes and mini-block chunks to 8, so only odd files take the copying path).
inline array::BufferPtr MappedSlice(const io::RandomAccessFile& file, std::uint64_t pos,
                                    std::uint64_t len) {
  io::MappedView view = file.Mapped();
  if (view.bytes.empty() || pos % 8 != 0 || pos > view.bytes.size() ||
      len > view.bytes.size() - pos) {
    return nullptr;
  }
  return std::make_shared<const array::Buffer>(view.bytes.data() + pos, static_cast<int64_t>(len),
                                               std::move(view.owner));
}

}  // namespace lance_nd::file::internal
