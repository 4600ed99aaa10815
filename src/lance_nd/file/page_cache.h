// Decoded whole pages, shared between reads of one file (a small FIFO cache), and the reads of
// page bytes that fill it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "lance_nd/array/buffer.h"
#include "lance_nd/file/page_decoder.h"
#include "lance_nd/file/reader_state.h"
#include "lance_nd/file/structure.h"

namespace lance_nd::file::internal {

/// \brief A decoded page with its levels normalized and its row index built.
struct IndexedPage {
  DecodedPage page;
  RowIndex index;
};
using PagePtr = std::shared_ptr<const IndexedPage>;

/// \brief Normalize the levels of `page` for `scheme` and index its rows.
Result<PagePtr> IndexPage(DecodedPage page, const LevelScheme& scheme, const std::string& where);

/// \brief Where a page's values may be decoded (a slice of its leaf's column buffer).
struct ValuesInto {
  std::uint8_t* data = nullptr;
  std::uint64_t bytes = 0;
  std::shared_ptr<const void> owner;
};

/// \brief `length` bytes at `position` of `file`: a slice of its mapping when it is mapped, else
/// read into a new buffer (big reads split over `threads`). Out-of-range reads fail with
/// `where` as context.
Result<array::BufferPtr> ReadFileBytes(const io::RandomAccessFile& file, std::uint64_t position,
                                       std::uint64_t length, const std::string& where,
                                       int threads = 1);

/// \brief Whole decoded pages by (column, page), the oldest dropped beyond a fixed count.
/// Thread-safe.
class PageCache {
 public:
  PagePtr Find(int column, std::size_t page) const;
  bool Contains(int column, std::size_t page) const;
  /// \brief Keep `page` unless another thread cached the same page first.
  void Insert(int column, std::size_t page, PagePtr decoded);

 private:
  static constexpr std::size_t kLimit = 64;
  mutable std::mutex mu_;
  std::map<std::pair<int, std::size_t>, PagePtr> pages_;
  std::deque<std::pair<int, std::size_t>> order_;
};

/// \brief Page `p` of column `c`, whole: from the cache, or read, decoded (into `into` when it is
/// given), indexed and cached.
Result<PagePtr> LoadPage(const ReaderState& state, PageCache& cache, int c, std::size_t p,
                         const ValuesInto* into = nullptr);

}  // namespace lance_nd::file::internal
