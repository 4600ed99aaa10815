#include "lance_nd/file/read_plan.h"

#include <algorithm>

namespace lance_nd::file::internal {
namespace {

// The page holding `row`, or the last page starting before it (pages sorted by first_row).
std::size_t PageAtOrBefore(const ColumnMeta& col, std::uint64_t row) {
  auto it = std::upper_bound(col.pages.begin(), col.pages.end(), row,
                             [](std::uint64_t r, const PageMeta& pm) { return r < pm.first_row; });
  return it == col.pages.begin() ? 0 : static_cast<std::size_t>(it - col.pages.begin()) - 1;
}

// Page-local ranges of each page touched by `runs`.
Result<std::map<std::size_t, Runs>> WantedPages(const ReaderState& state, int c, const Runs& runs) {
  const ColumnMeta& col = state.column_meta(c);
  Runs sorted = runs;
  std::sort(sorted.begin(), sorted.end());
  std::map<std::size_t, Runs> wanted;
  for (const auto& [begin, end] : sorted) {
    std::size_t p = PageAtOrBefore(col, begin);
    std::uint64_t row = begin;
    for (; row < end && p < col.pages.size(); ++p) {
      const PageMeta& pm = col.pages[p];
      if (pm.first_row + pm.num_rows <= row) continue;
      if (pm.first_row > row) break;
      const std::uint64_t rb = row - pm.first_row;
      const std::uint64_t re = std::min(end, pm.first_row + pm.num_rows) - pm.first_row;
      Runs& r = wanted[p];
      if (!r.empty() && r.back().second >= rb) {
        r.back().second = std::max(r.back().second, re);
      } else {
        r.emplace_back(rb, re);
      }
      row = pm.first_row + re;
    }
    if (row < end) return Status::Corrupt(state.ColumnWhere(c), ": row ", row, " is in no page");
  }
  return wanted;
}

}  // namespace

std::uint64_t StoredBytes(const PageMeta& meta) {
  std::uint64_t n = 0;
  for (const auto& b : meta.buffers) n += b.size;
  return n;
}

Result<std::vector<PageWork>> PlanPageWork(const ReaderState& state, const std::vector<int>& leaves,
                                           const Runs& runs) {
  std::vector<PageWork> work;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const int c = leaves[i];
    const ColumnMeta& col = state.column_meta(c);
    if (col.num_rows != state.container.descriptor.length()) {
      return Status::Corrupt(state.ColumnWhere(c), " has ", col.num_rows,
                             " rows in its pages, but the file has ",
                             state.container.descriptor.length());
    }
    LND_ASSIGN_OR_RETURN(auto wanted, WantedPages(state, c, runs));
    for (auto& [p, ranges] : wanted) {
      PageWork w;
      w.leaf = i;
      w.page = p;
      w.ranges = std::move(ranges);
      work.push_back(std::move(w));
    }
  }
  return work;
}

// Whole-page reads of a leaf whose pages all decode their values in bulk (mini-block, one
// value buffer, no dictionary, same word width): one uninitialised buffer for the whole
// column, each page decoding into its slice, so the leaf's values need no copy at the end
// (ValueBuilder::AdoptContiguous). num_items is untrusted: a page claiming more values than
// 64x its bytes (or a mixed column) keeps the per-page buffers.
std::vector<array::BufferPtr> PlanColumnBuffers(const ReaderState& state,
                                                const std::vector<int>& leaves,
                                                std::vector<PageWork>* work) {
  std::vector<array::BufferPtr> column_values(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const ColumnMeta& col = state.column_meta(leaves[i]);
    std::vector<PageWork*> pages;
    std::vector<std::uint64_t> bytes;
    std::uint64_t bits = 0, total = 0;
    bool ok = true;
    for (PageWork& w : *work) {
      if (w.leaf != i || !ok) continue;
      const PageMeta& meta = col.pages[w.page];
      if (!meta.layout.has_mini_block_layout()) {
        ok = false;
        continue;
      }
      const auto& l = meta.layout.mini_block_layout();
      const std::uint64_t b = BulkValueBits(l);
      const std::uint64_t stored = StoredBytes(meta);
      const std::uint64_t n = l.num_items();
      if (b == 0 || (bits != 0 && b != bits) || n == 0 ||
          n > ((stored + (std::uint64_t{1} << 20)) * 64) / (b / 8)) {
        ok = false;
        continue;
      }
      bits = b;
      pages.push_back(&w);
      bytes.push_back(n * (b / 8));
      total += n * (b / 8);
    }
    if (!ok || pages.size() < 2) continue;  // one page is already handed out without a copy
    std::uint8_t* base = nullptr;
    array::BufferPtr buffer =
        array::Buffer::AllocateUninitialized(static_cast<int64_t>(total), &base);
    std::uint64_t at = 0;
    for (std::size_t k = 0; k < pages.size(); ++k) {
      pages[k]->into = ValuesInto{base + at, bytes[k], buffer};
      at += bytes[k];
    }
    column_values[i] = std::move(buffer);
  }
  return column_values;
}

std::vector<std::size_t> DecodeOrder(const ReaderState& state, const std::vector<int>& leaves,
                                     const std::vector<PageWork>& work) {
  std::vector<std::size_t> order(work.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  auto page_bytes = [&](const PageWork& w) {
    return StoredBytes(state.column_meta(leaves[w.leaf]).pages[w.page]);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return page_bytes(work[x]) > page_bytes(work[y]);
  });
  return order;
}

Result<std::vector<Segment>> SegmentsOf(const ReaderState& state, int c, const Runs& runs,
                                        const std::map<std::size_t, const PageWork*>& work) {
  const ColumnMeta& col = state.column_meta(c);
  const std::string where = state.ColumnWhere(c);
  std::vector<Segment> segs;
  for (const auto& [begin, end] : runs) {
    std::uint64_t row = begin;
    std::size_t p = PageAtOrBefore(col, row);
    while (row < end) {
      while (p < col.pages.size() && col.pages[p].first_row + col.pages[p].num_rows <= row) ++p;
      if (p >= col.pages.size()) return Status::Corrupt(where, ": row ", row, " is in no page");
      const PageMeta& meta = col.pages[p];
      auto wi = work.find(p);
      if (wi == work.end()) return Status::Corrupt(where, ": page ", p, " was not decoded");
      const PageWork& w = *wi->second;
      const std::uint64_t local = row - meta.first_row;
      if (!w.whole) {
        auto part =
            std::upper_bound(w.parts.begin(), w.parts.end(), local,
                             [](std::uint64_t r, const TakePart& t) { return r < t.row_end; });
        if (part == w.parts.end() || part->row_begin > local) {
          return Status::Corrupt(where, ": taken row ", row, " is in no decoded part");
        }
        const std::uint64_t stop = std::min(end - meta.first_row, part->row_end);
        segs.push_back(Segment{part->page.get(), part->first + (local - part->row_begin),
                               part->first + (stop - part->row_begin)});
        row = meta.first_row + stop;
        continue;
      }
      const std::uint64_t re = std::min(end, meta.first_row + meta.num_rows) - meta.first_row;
      segs.push_back(Segment{w.whole.get(), local, re});
      row = meta.first_row + re;
    }
  }
  return segs;
}

}  // namespace lance_nd::file::internal
