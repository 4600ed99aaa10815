// Planning one read: which pages of which leaf columns a row selection touches (and which rows
// of each), a single values buffer per leaf for bulk whole-page reads, the order pages are
// decoded in, and afterwards the decoded segments of each leaf in output order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/file/page_cache.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file::internal {

/// \brief A row selection: consecutive runs [begin, end) in output order.
using Runs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// \brief Page rows [row_begin, row_end) (page-local) decoded on their own, for a take.
struct TakePart {
  std::uint64_t row_begin = 0, row_end = 0;
  PagePtr page;             // may hold other parts' rows too
  std::uint64_t first = 0;  // the row of `page` holding row_begin
};

/// \brief One page of one leaf column that a read needs: decoded whole, or (take) in parts.
struct PageWork {
  std::size_t leaf = 0;  // index into the read's leaves
  std::size_t page = 0;
  Runs ranges;      // page-local, sorted, merged
  ValuesInto into;  // whole pages of a column read in bulk: their slice of the column buffer
  PagePtr whole;
  std::vector<TakePart> parts;
  Status status;
};

/// \brief Rows [rb, re) (page-local) of a decoded page, in output order.
struct Segment {
  const IndexedPage* page = nullptr;
  std::uint64_t rb = 0, re = 0;
};

/// \brief The pages each of `leaves` needs for `runs`. Corrupt when a column's pages do not hold
/// the file's rows.
Result<std::vector<PageWork>> PlanPageWork(const ReaderState& state, const std::vector<int>& leaves,
                                           const Runs& runs);

/// \brief For whole-page reads: one uninitialised values buffer per leaf whose pages all decode
/// their values in bulk, each page given its slice (`PageWork::into`); returned by leaf.
std::vector<array::BufferPtr> PlanColumnBuffers(const ReaderState& state,
                                                const std::vector<int>& leaves,
                                                std::vector<PageWork>* work);

/// \brief The bytes of a page's buffers in the file.
std::uint64_t StoredBytes(const PageMeta& meta);

/// \brief Indices into `work`, biggest pages first, so the decoding threads finish together.
std::vector<std::size_t> DecodeOrder(const ReaderState& state, const std::vector<int>& leaves,
                                     const std::vector<PageWork>& work);

/// \brief The segments of leaf column `c` for `runs`, from its decoded pages (by page index).
Result<std::vector<Segment>> SegmentsOf(const ReaderState& state, int c, const Runs& runs,
                                        const std::map<std::size_t, const PageWork*>& work);

}  // namespace lance_nd::file::internal
