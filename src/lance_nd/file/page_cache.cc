#include "lance_nd/file/page_cache.h"

#include <algorithm>
#include <span>
#include <vector>

#include "lance_nd/file/mapped_slice.h"
#include "lance_nd/file/value_builder.h"

namespace lance_nd::file::internal {

Result<PagePtr> IndexPage(DecodedPage page, const LevelScheme& scheme, const std::string& where) {
  auto out = std::make_shared<IndexedPage>();
  out->page = std::move(page);
  LND_RETURN_NOT_OK(scheme.Normalize(&out->page, where));
  LND_ASSIGN_OR_RETURN(out->index, BuildRowIndex(out->page, scheme, where));
  return PagePtr(std::move(out));
}

Result<array::BufferPtr> ReadFileBytes(const io::RandomAccessFile& file, std::uint64_t position,
                                       std::uint64_t length, const std::string& where,
                                       int threads) {
  if (position > file.Size() || length > file.Size() - position) {
    // Out of range: let ReadAt report it (checked before any allocation).
    Status st = file.ReadAt(position, length).status();
    if (st.ok()) st = Status::IOError("read beyond the end of '", file.path(), "'");
    return st.WithContext(where);
  }
  if (auto view = MappedSlice(file, position, length)) return view;
  std::uint8_t* p = nullptr;
  auto buf = array::Buffer::AllocateUninitialized(static_cast<int64_t>(length), &p);
  // Large reads: a few slices read in parallel (the copy out of the page cache and the page
  // faults of the new buffer are the cost, and they split across cores).
  constexpr std::uint64_t kSplit = std::uint64_t{16} << 20;
  const std::size_t parts = threads > 1 && length >= kSplit ? static_cast<std::size_t>(threads) : 1;
  std::vector<Status> st(parts);
  const std::uint64_t step = (length / parts + 4095) & ~std::uint64_t{4095};
  ParallelFor(parts, threads, [&](std::size_t i) {
    const std::uint64_t a = std::min<std::uint64_t>(length, i * step);
    const std::uint64_t b = i + 1 == parts ? length : std::min<std::uint64_t>(length, a + step);
    if (b > a) st[i] = file.ReadInto(position + a, std::span<std::uint8_t>(p + a, b - a));
  });
  for (const auto& s : st) LND_RETURN_NOT_OK_CTX(s, where);
  return buf;
}

PagePtr PageCache::Find(int column, std::size_t page) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pages_.find({column, page});
  return it == pages_.end() ? nullptr : it->second;
}

bool PageCache::Contains(int column, std::size_t page) const {
  std::lock_guard<std::mutex> lock(mu_);
  return pages_.count({column, page}) > 0;
}

void PageCache::Insert(int column, std::size_t page, PagePtr decoded) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!pages_.emplace(std::make_pair(column, page), std::move(decoded)).second) return;
  order_.emplace_back(column, page);
  while (order_.size() > kLimit) {
    pages_.erase(order_.front());
    order_.pop_front();
  }
}

namespace {

// The buffers of a page: one read covering them all (into an uninitialised buffer, no
// zero-fill) then zero-copy slices, unless they lie far apart.
Status ReadPageBuffers(const ReaderState& state, const PageMeta& meta, const std::string& where,
                       std::vector<array::BufferPtr>* out) {
  std::uint64_t lo = UINT64_MAX, hi = 0, total = 0;
  for (const auto& b : meta.buffers) {
    if (b.size == 0) continue;
    lo = std::min(lo, b.position);
    hi = std::max(hi, b.position + b.size);
    total += b.size;
  }
  array::BufferPtr span;
  if (total > 0 && hi - lo <= 2 * total + 4096) {
    LND_ASSIGN_OR_RETURN(span,
                         ReadFileBytes(*state.file, lo, hi - lo, where, state.options.num_threads));
  }
  for (const auto& b : meta.buffers) {
    if (b.size == 0) {
      out->push_back(array::Buffer::Empty());
    } else if (span) {
      out->push_back(std::make_shared<const array::Buffer>(span->data() + (b.position - lo),
                                                           static_cast<int64_t>(b.size), span));
    } else {
      LND_ASSIGN_OR_RETURN(auto bytes, ReadFileBytes(*state.file, b.position, b.size, where));
      out->push_back(std::move(bytes));
    }
  }
  return Status::OK();
}

}  // namespace

Result<PagePtr> LoadPage(const ReaderState& state, PageCache& cache, int c, std::size_t p,
                         const ValuesInto* into) {
  if (PagePtr cached = cache.Find(c, p)) return cached;
  const PageMeta& meta = state.column_meta(c).pages[p];
  const std::string where = state.ColumnWhere(c) + " page " + std::to_string(p);
  PageInput in;
  in.layout = &meta.layout;
  in.num_rows = meta.num_rows;
  in.is_v2_2 = state.is_v2_2();
  in.where = where;
  if (into != nullptr) {
    in.values_into = into->data;
    in.values_into_bytes = into->bytes;
    in.values_into_owner = into->owner;
  }
  LND_RETURN_NOT_OK(ReadPageBuffers(state, meta, where, &in.buffers));
  LND_ASSIGN_OR_RETURN(DecodedPage page, DecodePage(in));
  LND_ASSIGN_OR_RETURN(PagePtr out, IndexPage(std::move(page), *state.column(c).scheme, where));
  cache.Insert(c, p, out);
  return out;
}

}  // namespace lance_nd::file::internal
