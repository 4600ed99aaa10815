#include "lance_nd/file/reader.h"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "lance_nd/file/container.h"
#include "lance_nd/file/lance_schema_internal.h"
#include "lance_nd/file/mapped_slice.h"
#include "lance_nd/file/page_decoder.h"
#include "lance_nd/file/structure.h"
#include "lance_nd/file/take_pages.h"
#include "lance_nd/file/value_builder.h"

namespace lance_nd::file {
namespace {

using array::TypeId;
using internal::DecodedPage;
using internal::FieldNode;
using internal::LayerArrays;
using internal::LeafLevels;
using internal::LevelScheme;
using internal::PathLayer;
using internal::RowIndex;

std::string N(std::uint64_t v) { return std::to_string(v); }

// `length` bytes at `position` in a new buffer (read straight into it, no zero-fill).
Result<array::BufferPtr> ReadBytes(const io::RandomAccessFile& file, std::uint64_t position,
                                   std::uint64_t length, const std::string& where,
                                   int threads = 1) {
  if (position > file.Size() || length > file.Size() - position) {
    // Out of range: let ReadAt report it (checked before any allocation).
    Status st = file.ReadAt(position, length).status();
    if (st.ok()) st = Status::IOError("read beyond the end of '" + file.path() + "'");
    return st.WithContext(where);
  }
  if (auto view = internal::MappedSlice(file, position, length)) return view;
  std::uint8_t* p = nullptr;
  auto buf = array::Buffer::AllocateUninitialized(static_cast<int64_t>(length), &p);
  // Large reads: a few slices read in parallel (the copy out of the page cache and the page
  // faults of the new buffer are the cost, and they split across cores).
  constexpr std::uint64_t kSplit = std::uint64_t{16} << 20;
  const std::size_t parts = threads > 1 && length >= kSplit ? static_cast<std::size_t>(threads) : 1;
  std::vector<Status> st(parts);
  const std::uint64_t step = (length / parts + 4095) & ~std::uint64_t{4095};
  internal::ParallelFor(parts, threads, [&](std::size_t i) {
    const std::uint64_t a = std::min<std::uint64_t>(length, i * step);
    const std::uint64_t b = i + 1 == parts ? length : std::min<std::uint64_t>(length, a + step);
    if (b > a) st[i] = file.ReadInto(position + a, std::span<std::uint8_t>(p + a, b - a));
  });
  for (const auto& s : st) LND_RETURN_NOT_OK_CTX(s, where);
  return buf;
}

struct IndexedPage {
  DecodedPage page;
  RowIndex index;
};
using PagePtr = std::shared_ptr<const IndexedPage>;

struct ColumnInfo {
  const FieldNode* node = nullptr;
  std::string path;
  std::vector<PathLayer> layers;  // outermost first
  std::unique_ptr<LevelScheme> scheme;
};

// A (possibly pruned) field of a projection.
struct ProjNode {
  const FieldNode* node = nullptr;
  std::vector<ProjNode> children;  // struct: chosen children; list: the item
  bool whole = true;               // all children chosen
};

}  // namespace

struct FileReader::Impl {
  std::shared_ptr<io::RandomAccessFile> file;
  ReaderOptions options;
  internal::Container container;
  internal::SchemaTree tree;
  std::vector<ColumnInfo> columns;

  mutable std::mutex mu;
  mutable std::map<std::pair<int, std::size_t>, PagePtr> cache;
  mutable std::deque<std::pair<int, std::size_t>> cache_order;
  static constexpr std::size_t kCacheLimit = 64;

  std::string ColumnWhere(int c) const {
    return "column " + std::to_string(c) + " ('" + columns[static_cast<std::size_t>(c)].path + "')";
  }

  // Where a page's values may be decoded (a slice of its leaf's column buffer).
  struct ValuesInto {
    std::uint8_t* data = nullptr;
    std::uint64_t bytes = 0;
    std::shared_ptr<const void> owner;
  };

  Result<PagePtr> GetPage(int c, std::size_t p, const ValuesInto* into = nullptr) const {
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = cache.find({c, p});
      if (it != cache.end()) return it->second;
    }
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    const internal::PageMeta& meta = col.pages[p];
    const std::string where = ColumnWhere(c) + " page " + std::to_string(p);
    internal::PageInput in;
    in.layout = &meta.layout;
    in.num_rows = meta.num_rows;
    in.is_v2_2 = container.footer.minor >= 2;
    in.where = where;
    if (into != nullptr) {
      in.values_into = into->data;
      in.values_into_bytes = into->bytes;
      in.values_into_owner = into->owner;
    }
    // One read covering all buffers of the page, then zero-copy slices.
    std::uint64_t lo = UINT64_MAX, hi = 0, total = 0;
    for (const auto& b : meta.buffers) {
      if (b.size == 0) continue;
      lo = std::min(lo, b.position);
      hi = std::max(hi, b.position + b.size);
      total += b.size;
    }
    // One read covering all buffers of the page (into an uninitialised buffer, no zero-fill),
    // then zero-copy slices.
    array::BufferPtr span;
    if (total > 0 && hi - lo <= 2 * total + 4096) {
      LND_ASSIGN_OR_RETURN(span, ReadBytes(*file, lo, hi - lo, where, options.num_threads));
    }
    for (const auto& b : meta.buffers) {
      if (b.size == 0) {
        in.buffers.push_back(array::Buffer::Empty());
      } else if (span) {
        in.buffers.push_back(std::make_shared<const array::Buffer>(
            span->data() + (b.position - lo), static_cast<int64_t>(b.size), span));
      } else {
        LND_ASSIGN_OR_RETURN(auto bytes, ReadBytes(*file, b.position, b.size, where));
        in.buffers.push_back(std::move(bytes));
      }
    }
    auto page = std::make_shared<IndexedPage>();
    LND_ASSIGN_OR_RETURN(page->page, internal::DecodePage(in));
    const LevelScheme& scheme = *columns[static_cast<std::size_t>(c)].scheme;
    LND_RETURN_NOT_OK(scheme.Normalize(&page->page, where));
    LND_ASSIGN_OR_RETURN(page->index, internal::BuildRowIndex(page->page, scheme, where));
    PagePtr out = page;
    std::lock_guard<std::mutex> lock(mu);
    if (cache.emplace(std::make_pair(c, p), out).second) {
      cache_order.emplace_back(c, p);
      while (cache_order.size() > kCacheLimit) {
        cache.erase(cache_order.front());
        cache_order.pop_front();
      }
    }
    return out;
  }

  // A row selection: consecutive runs [begin, end) in output order.
  using Runs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

  struct LeafResult {
    std::vector<LayerArrays> layers;
    array::ArrayPtr leaf;
  };

  // Take: pages decoded only in the parts holding the taken rows (take_pages.h).
  struct TakePart {
    std::uint64_t row_begin = 0, row_end = 0;  // page-local
    PagePtr page;
  };

  // One page of one leaf column that a read needs: decoded whole, or (take) in parts.
  struct PageWork {
    std::size_t leaf = 0;  // index into the read's leaves
    std::size_t page = 0;
    Runs ranges;      // page-local, sorted, merged
    ValuesInto into;  // whole pages of a column read in bulk: their slice of the column buffer
    PagePtr whole;
    std::vector<TakePart> parts;
    Status status;
  };

  // Rows [rb, re) (page-local) of a decoded page, in output order.
  struct Segment {
    const IndexedPage* page = nullptr;
    std::uint64_t rb = 0, re = 0;
  };

  // Page-local ranges of each page touched by `runs` (pages sorted by first_row).
  Result<std::map<std::size_t, Runs>> WantedPages(int c, const Runs& runs) const {
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    Runs sorted = runs;
    std::sort(sorted.begin(), sorted.end());
    std::map<std::size_t, Runs> wanted;
    for (const auto& [begin, end] : sorted) {
      auto it = std::upper_bound(
          col.pages.begin(), col.pages.end(), begin,
          [](std::uint64_t r, const internal::PageMeta& pm) { return r < pm.first_row; });
      std::size_t p =
          it == col.pages.begin() ? 0 : static_cast<std::size_t>(it - col.pages.begin()) - 1;
      std::uint64_t row = begin;
      for (; row < end && p < col.pages.size(); ++p) {
        const internal::PageMeta& pm = col.pages[p];
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
      if (row < end) return Status::Corrupt(ColumnWhere(c) + ": row " + N(row) + " is in no page");
    }
    return wanted;
  }

  void DoPageWork(int c, bool take, PageWork* w) const {
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    if (take) {
      bool cached = false;
      {
        std::lock_guard<std::mutex> lock(mu);
        cached = cache.count({c, w->page}) > 0;
      }
      if (!cached) {
        const std::string where = ColumnWhere(c) + " page " + std::to_string(w->page);
        auto parts = internal::DecodePageParts(*file, col.pages[w->page],
                                               container.footer.minor >= 2, w->ranges, where);
        if (!parts.ok()) {
          w->status = parts.status();
          return;
        }
        if (*parts) {
          const LevelScheme& scheme = *columns[static_cast<std::size_t>(c)].scheme;
          for (auto& part : **parts) {
            auto ip = std::make_shared<IndexedPage>();
            ip->page = std::move(part.page);
            w->status = scheme.Normalize(&ip->page, where);
            if (!w->status.ok()) return;
            auto idx = internal::BuildRowIndex(ip->page, scheme, where);
            if (!idx.ok()) {
              w->status = idx.status();
              return;
            }
            ip->index = std::move(*idx);
            w->parts.push_back(TakePart{part.row_begin, part.row_end, std::move(ip)});
          }
          return;
        }
      }
    }
    auto page = GetPage(c, w->page, w->into.data != nullptr ? &w->into : nullptr);
    if (!page.ok()) {
      w->status = page.status();
      return;
    }
    w->whole = std::move(*page);
  }

  // The segments of leaf column `c` for `runs`, from the decoded pages.
  Result<std::vector<Segment>> Segments(int c, const Runs& runs,
                                        const std::map<std::size_t, const PageWork*>& work) const {
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    const std::string where = ColumnWhere(c);
    std::vector<Segment> segs;
    for (const auto& [begin, end] : runs) {
      std::uint64_t row = begin;
      auto it = std::upper_bound(
          col.pages.begin(), col.pages.end(), row,
          [](std::uint64_t r, const internal::PageMeta& p) { return r < p.first_row; });
      std::size_t p = static_cast<std::size_t>(it - col.pages.begin());
      p = p == 0 ? 0 : p - 1;
      while (row < end) {
        while (p < col.pages.size() && col.pages[p].first_row + col.pages[p].num_rows <= row) ++p;
        if (p >= col.pages.size())
          return Status::Corrupt(where + ": row " + N(row) + " is in no page");
        const internal::PageMeta& meta = col.pages[p];
        auto wi = work.find(p);
        if (wi == work.end()) return Status::Corrupt(where + ": page " + N(p) + " was not decoded");
        const PageWork& w = *wi->second;
        const std::uint64_t local = row - meta.first_row;
        if (!w.whole) {
          auto part =
              std::upper_bound(w.parts.begin(), w.parts.end(), local,
                               [](std::uint64_t r, const TakePart& t) { return r < t.row_end; });
          if (part == w.parts.end() || part->row_begin > local) {
            return Status::Corrupt(where + ": taken row " + N(row) + " is in no decoded part");
          }
          const std::uint64_t rb = local - part->row_begin;
          const std::uint64_t re = std::min(end - meta.first_row, part->row_end) - part->row_begin;
          segs.push_back(Segment{part->page.get(), rb, re});
          row = meta.first_row + part->row_begin + re;
          continue;
        }
        const std::uint64_t re = std::min(end, meta.first_row + meta.num_rows) - meta.first_row;
        segs.push_back(Segment{w.whole.get(), local, re});
        row = meta.first_row + re;
      }
    }
    return segs;
  }

  // Whole-page reads of a leaf whose pages all decode their values in bulk (mini-block, one
  // value buffer, no dictionary, same word width): one uninitialised buffer for the whole
  // column, each page decoding into its slice, so the leaf's values need no copy at the end
  // (ValueBuilder::AdoptContiguous). num_items is untrusted: a page claiming more values than
  // 64x its bytes (or a mixed column) keeps the per-page buffers.
  void PlanColumnBuffers(const std::vector<int>& leaves, std::vector<PageWork>* work,
                         std::vector<array::BufferPtr>* column_values) const {
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(leaves[i])];
      std::vector<PageWork*> pages;
      std::vector<std::uint64_t> bytes;
      std::uint64_t bits = 0, total = 0;
      bool ok = true;
      for (PageWork& w : *work) {
        if (w.leaf != i || !ok) continue;
        const internal::PageMeta& meta = col.pages[w.page];
        if (!meta.layout.has_mini_block_layout()) {
          ok = false;
          continue;
        }
        const auto& l = meta.layout.mini_block_layout();
        const std::uint64_t b = internal::BulkValueBits(l);
        std::uint64_t stored = 0;
        for (const auto& buf : meta.buffers) stored += buf.size;
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
      (*column_values)[i] = std::move(buffer);
    }
  }

  // Levels and values of one leaf from its segments.
  Result<LeafResult> AssembleLeaf(int c, const std::vector<Segment>& segs, int threads,
                                  const array::BufferPtr& column_values = nullptr) const {
    const ColumnInfo& info = columns[static_cast<std::size_t>(c)];
    const std::string where = ColumnWhere(c);
    const bool lists = info.scheme->num_lists() > 0;
    LND_ASSIGN_OR_RETURN(internal::ValueBuilder vb,
                         internal::ValueBuilder::Make(info.node->field->type()));
    std::vector<internal::ValueBuilder::Piece> pieces;
    std::uint64_t num_rows = 0;
    bool dense = true;
    for (const Segment& sg : segs) {
      const IndexedPage& ip = *sg.page;
      dense = dense && ip.page.def_zero;
      num_rows += sg.re - sg.rb;
      // Values [from, to) of the page's value blocks.
      const std::uint64_t from = ip.index.Value(sg.rb), to = ip.index.Value(sg.re);
      std::uint64_t base = 0;
      for (const auto& block : ip.page.values) {
        const std::uint64_t end = base + block.num_values;
        const std::uint64_t a = std::max(from, base), b = std::min(to, end);
        if (a < b) pieces.push_back({&block, a - base, b - a});
        base = end;
        if (base >= to) break;
      }
    }
    if (!vb.AdoptContiguous(pieces, column_values)) {
      LND_RETURN_NOT_OK_CTX(vb.AppendMany(pieces, threads), where);
    }
    LeafResult out;
    if (dense) {
      std::vector<internal::RepSpan> spans;
      spans.reserve(segs.size());
      for (const Segment& sg : segs) {
        const IndexedPage& ip = *sg.page;
        const std::uint64_t b = ip.index.Entry(sg.rb), e = ip.index.Entry(sg.re);
        spans.push_back({lists ? ip.page.rep.data() + b : nullptr, e - b});
      }
      LND_ASSIGN_OR_RETURN(
          out.layers, internal::UnravelDense(*info.scheme, spans, num_rows, vb.length(), where));
    } else {
      LeafLevels levels;
      for (const Segment& sg : segs) {
        internal::AppendRowLevels(sg.page->page, sg.page->index, sg.rb, sg.re, lists, &levels);
      }
      LND_ASSIGN_OR_RETURN(out.layers, internal::Unravel(*info.scheme, levels, vb.length(), where));
    }
    const LayerArrays& leaf = out.layers.back();
    LND_ASSIGN_OR_RETURN(out.leaf, vb.Finish(leaf.validity, leaf.null_count));
    return out;
  }

  // Decode the pages of every leaf in parallel, then assemble each leaf.
  Result<std::vector<LeafResult>> ReadLeaves(const std::vector<int>& leaves, const Runs& runs,
                                             bool take) const {
    std::vector<PageWork> work;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const int c = leaves[i];
      const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
      if (col.num_rows != container.descriptor.length()) {
        return Status::Corrupt(ColumnWhere(c) + " has " + N(col.num_rows) +
                               " rows in its pages, but "
                               "the file has " +
                               N(container.descriptor.length()));
      }
      LND_ASSIGN_OR_RETURN(auto wanted, WantedPages(c, runs));
      for (auto& [p, ranges] : wanted) {
        PageWork w;
        w.leaf = i;
        w.page = p;
        w.ranges = std::move(ranges);
        work.push_back(std::move(w));
      }
    }
    const int threads = std::max(1, options.num_threads);
    std::vector<array::BufferPtr> column_values(leaves.size());
    if (!take) PlanColumnBuffers(leaves, &work, &column_values);
    // Biggest pages first, so the two threads finish together.
    std::vector<std::size_t> order(work.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto page_bytes = [&](const PageWork& w) {
      std::uint64_t n = 0;
      const auto& pm = container.columns[static_cast<std::size_t>(leaves[w.leaf])].pages[w.page];
      for (const auto& b : pm.buffers) n += b.size;
      return n;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      return page_bytes(work[x]) > page_bytes(work[y]);
    });
    internal::ParallelFor(work.size(), threads, [&](std::size_t k) {
      PageWork& w = work[order[k]];
      DoPageWork(leaves[w.leaf], take, &w);
    });
    std::vector<std::map<std::size_t, const PageWork*>> by_leaf(leaves.size());
    for (const PageWork& w : work) {
      if (!w.status.ok()) return w.status;
      by_leaf[w.leaf][w.page] = &w;
    }
    std::vector<std::vector<Segment>> segs(leaves.size());
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      LND_ASSIGN_OR_RETURN(segs[i], Segments(leaves[i], runs, by_leaf[i]));
    }
    std::vector<LeafResult> out(leaves.size());
    if (leaves.size() == 1) {
      LND_ASSIGN_OR_RETURN(out[0], AssembleLeaf(leaves[0], segs[0], threads, column_values[0]));
      return out;
    }
    // Leaves in parallel; the largest one also copies its values on all threads.
    std::vector<Status> st(leaves.size());
    std::size_t largest = 0;
    for (std::size_t i = 1; i < leaves.size(); ++i) {
      if (segs[i].size() > segs[largest].size()) largest = i;
    }
    auto one = [&](std::size_t i, int t) {
      auto r = AssembleLeaf(leaves[i], segs[i], t, column_values[i]);
      if (r.ok()) {
        out[i] = std::move(*r);
      } else {
        st[i] = r.status();
      }
    };
    internal::ParallelFor(leaves.size(), threads, [&](std::size_t i) {
      if (i != largest) one(i, 1);
    });
    one(largest, threads);
    for (const auto& s2 : st) LND_RETURN_NOT_OK(s2);
    return out;
  }

  // ---- projection ----
  Result<std::vector<ProjNode>> Project(const std::vector<std::string>& projection) const {
    std::vector<ProjNode> out;
    if (projection.empty()) {
      for (const auto& f : tree.fields) out.push_back(ProjNode{&f, {}, true});
      return out;
    }
    for (const std::string& path : projection) {
      // Split on '.', but prefer an exact top-level name.
      std::vector<std::string> parts;
      const FieldNode* top = nullptr;
      for (const auto& f : tree.fields) {
        if (f.field->name() == path) top = &f;
      }
      if (top != nullptr) {
        parts.push_back(path);
      } else {
        std::size_t start = 0;
        while (true) {
          auto dot = path.find('.', start);
          parts.push_back(
              path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
          if (dot == std::string::npos) break;
          start = dot + 1;
        }
      }
      std::vector<ProjNode>* level = &out;
      const std::vector<FieldNode>* candidates = &tree.fields;
      for (std::size_t i = 0; i < parts.size(); ++i) {
        const FieldNode* found = nullptr;
        for (const auto& f : *candidates) {
          if (f.field->name() == parts[i]) found = &f;
        }
        if (found == nullptr) {
          return Status::InvalidArgument("projection '" + path + "': no field named '" + parts[i] +
                                         "'" + (i == 0 ? "" : " in the struct") +
                                         "; the schema is " + tree.schema->ToString());
        }
        const bool last = i + 1 == parts.size();
        if (!last && found->field->type()->id() != TypeId::kStruct) {
          return Status::InvalidArgument("projection '" + path + "': '" + parts[i] +
                                         "' is not a struct; only struct children can be selected");
        }
        ProjNode* existing = nullptr;
        for (auto& pn : *level) {
          if (pn.node == found) existing = &pn;
        }
        if (existing == nullptr) {
          level->push_back(ProjNode{found, {}, last});
          existing = &level->back();
        } else if (last) {
          existing->whole = true;
          existing->children.clear();
        }
        if (existing->whole) break;
        level = &existing->children;
        candidates = &found->children;
      }
    }
    // Keep schema order.
    SortProj(&out, tree.fields);
    return out;
  }

  static void SortProj(std::vector<ProjNode>* nodes, const std::vector<FieldNode>& order) {
    std::sort(nodes->begin(), nodes->end(), [&](const ProjNode& a, const ProjNode& b) {
      return a.node - order.data() < b.node - order.data();
    });
    for (auto& n : *nodes) {
      if (!n.whole) SortProj(&n.children, n.node->children);
    }
  }

  static void CollectLeaves(const FieldNode& node, std::vector<int>* out) {
    if (node.is_leaf()) {
      out->push_back(node.column);
      return;
    }
    for (const auto& c : node.children) CollectLeaves(c, out);
  }
  static void CollectLeaves(const ProjNode& pn, std::vector<int>* out) {
    if (pn.whole) {
      CollectLeaves(*pn.node, out);
      return;
    }
    for (const auto& c : pn.children) CollectLeaves(c, out);
  }

  static array::FieldPtr ProjField(const ProjNode& pn) {
    if (pn.whole) return pn.node->field;
    std::vector<array::FieldPtr> kids;
    for (const auto& c : pn.children) kids.push_back(ProjField(c));
    return pn.node->field->WithType(array::Struct(std::move(kids)));
  }

  Result<array::ArrayPtr> Assemble(const FieldNode& node, const array::FieldPtr& field,
                                   const ProjNode* pn, std::size_t depth,
                                   const std::map<int, LeafResult>& leaves) const {
    if (node.is_leaf()) {
      const LeafResult& lr = leaves.at(node.column);
      if (lr.layers.size() != depth + 1) {
        return Status::Corrupt(ColumnWhere(node.column) + ": level depth mismatch");
      }
      return lr.leaf;
    }
    std::vector<int> under;
    if (pn != nullptr)
      CollectLeaves(*pn, &under);
    else
      CollectLeaves(node, &under);
    if (under.empty())
      return Status::Corrupt("field '" + node.field->name() + "' has no leaf column");
    const LayerArrays& la = leaves.at(under[0]).layers.at(depth);
    const TypeId id = field->type()->id();
    if (id == TypeId::kStruct) {
      std::vector<array::ArrayPtr> kids;
      const auto& child_fields = field->type()->children();
      if (pn != nullptr && !pn->whole) {
        for (std::size_t i = 0; i < pn->children.size(); ++i) {
          LND_ASSIGN_OR_RETURN(auto a, Assemble(*pn->children[i].node, child_fields[i],
                                                &pn->children[i], depth + 1, leaves));
          kids.push_back(std::move(a));
        }
      } else {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          LND_ASSIGN_OR_RETURN(
              auto a, Assemble(node.children[i], child_fields[i], nullptr, depth + 1, leaves));
          kids.push_back(std::move(a));
        }
      }
      for (const auto& k : kids) {
        if (k->length != la.length) {
          return Status::Corrupt("struct '" + node.field->name() + "' has " +
                                 N(static_cast<std::uint64_t>(la.length)) +
                                 " rows but a child has " +
                                 N(static_cast<std::uint64_t>(k->length)));
        }
      }
      return array::MakeArrayData(field->type(), la.length, {la.validity}, std::move(kids),
                                  la.null_count);
    }
    // list / large list
    LND_ASSIGN_OR_RETURN(auto child, Assemble(node.children[0], field->type()->value_field(),
                                              nullptr, depth + 1, leaves));
    return array::MakeArrayData(field->type(), la.length, {la.validity, la.offsets},
                                {std::move(child)}, la.null_count);
  }

  Result<array::RecordBatchPtr> Read(const Runs& runs, const std::vector<std::string>& projection,
                                     bool take = false) const {
    LND_ASSIGN_OR_RETURN(std::vector<ProjNode> proj, Project(projection));
    std::vector<int> leaves;
    for (const auto& pn : proj) CollectLeaves(pn, &leaves);
    std::map<int, LeafResult> results;
    LND_ASSIGN_OR_RETURN(std::vector<LeafResult> decoded, ReadLeaves(leaves, runs, take));
    for (std::size_t i = 0; i < leaves.size(); ++i)
      results.emplace(leaves[i], std::move(decoded[i]));
    std::uint64_t num_rows = 0;
    for (const auto& [b, e] : runs) num_rows += e - b;
    std::vector<array::FieldPtr> fields;
    std::vector<array::ArrayPtr> arrays;
    for (const auto& pn : proj) {
      array::FieldPtr f = ProjField(pn);
      LND_ASSIGN_OR_RETURN(auto a, Assemble(*pn.node, f, &pn, 0, results));
      fields.push_back(std::move(f));
      arrays.push_back(std::move(a));
    }
    auto schema = array::MakeSchema(std::move(fields), tree.schema->metadata());
    return array::RecordBatch::Make(std::move(schema), static_cast<int64_t>(num_rows),
                                    std::move(arrays));
  }
};

namespace {

void BuildColumnInfo(const FieldNode& node, std::vector<PathLayer> path, const std::string& prefix,
                     std::vector<ColumnInfo>* out) {
  const std::string name = prefix.empty() ? node.field->name() : prefix + "." + node.field->name();
  const TypeId id = node.field->type()->id();
  PathLayer layer;
  layer.kind = id == TypeId::kList        ? PathLayer::Kind::kList
               : id == TypeId::kLargeList ? PathLayer::Kind::kLargeList
                                          : PathLayer::Kind::kItem;
  path.push_back(layer);
  if (node.is_leaf()) {
    ColumnInfo& ci = (*out)[static_cast<std::size_t>(node.column)];
    ci.node = &node;
    ci.path = name;
    ci.layers = path;
    ci.scheme = std::make_unique<LevelScheme>(path);
    return;
  }
  for (const auto& c : node.children) BuildColumnInfo(c, path, name, out);
}

void Describe(const FieldNode& node, const std::string& prefix,
              std::vector<FieldDescription>* out) {
  FieldDescription d;
  d.id = node.id;
  d.parent_id = node.parent_id;
  d.path = prefix.empty() ? node.field->name() : prefix + "." + node.field->name();
  d.logical_type = node.logical_type;
  d.nullable = node.field->nullable();
  d.metadata = node.field->metadata();
  d.column = node.column;
  out->push_back(d);
  for (const auto& c : node.children) Describe(c, d.path, out);
}

}  // namespace

Result<FileReader> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                    ReaderOptions options) {
  if (!file) return Status::InvalidArgument("FileReader::Open: file is null");
  auto impl = std::make_shared<Impl>();
  impl->file = file;
  impl->options = options;
  const std::string name = "'" + file->path() + "'";
  LND_ASSIGN_OR_RETURN(impl->container, internal::ReadContainer(*file).WithContext(name));
  if (!impl->container.descriptor.has_schema()) {
    return Status::Corrupt(name + ": the FileDescriptor has no schema");
  }
  LND_ASSIGN_OR_RETURN(impl->tree, internal::SchemaFromProto(impl->container.descriptor.schema())
                                       .WithContext(name + ": schema"));
  if (static_cast<std::uint64_t>(impl->tree.num_columns) != impl->container.footer.num_columns) {
    return Status::Corrupt(name + ": the schema has " + std::to_string(impl->tree.num_columns) +
                           " leaf fields but the file has " +
                           std::to_string(impl->container.footer.num_columns) + " columns");
  }
  if (impl->container.descriptor.length() > static_cast<std::uint64_t>(INT64_MAX)) {
    return Status::Corrupt(name + ": implausible row count");
  }
  impl->columns.resize(static_cast<std::size_t>(impl->tree.num_columns));
  for (const auto& f : impl->tree.fields) BuildColumnInfo(f, {}, "", &impl->columns);
  return FileReader(std::move(impl));
}

const array::SchemaPtr& FileReader::schema() const { return impl_->tree.schema; }
std::int64_t FileReader::num_rows() const {
  return static_cast<std::int64_t>(impl_->container.descriptor.length());
}
FileVersion FileReader::version() const {
  return {impl_->container.footer.major, impl_->container.footer.minor};
}

FileDescription FileReader::Describe() const {
  const auto& c = impl_->container;
  FileDescription d;
  d.version = version();
  d.file_size = c.file_size;
  d.num_rows = c.descriptor.length();
  d.column_meta_start = c.footer.column_meta_start;
  d.cmo_table_start = c.footer.cmo_table_start;
  d.gbo_table_start = c.footer.gbo_table_start;
  for (const auto& g : c.global_buffers) d.global_buffers.emplace_back(g.position, g.size);
  d.schema_metadata = impl_->tree.schema->metadata();
  for (const auto& f : impl_->tree.fields) file::Describe(f, "", &d.fields);
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    ColumnDescription cd;
    cd.index = static_cast<int>(i);
    cd.path = impl_->columns[i].path;
    cd.field_id = impl_->columns[i].node->id;
    cd.encoding_type_url = c.columns[i].encoding_type_url;
    cd.metadata_position = c.columns[i].location.position;
    cd.metadata_size = c.columns[i].location.size;
    for (const auto& p : c.columns[i].pages) {
      PageDescription pd;
      pd.first_row = p.first_row;
      pd.num_rows = p.num_rows;
      pd.layout = internal::DescribeLayout(p.layout, p.buffers.size());
      for (const auto& b : p.buffers) {
        pd.buffers.emplace_back(b.position, b.size);
        pd.num_bytes += b.size;
      }
      cd.pages.push_back(std::move(pd));
    }
    d.columns.push_back(std::move(cd));
  }
  return d;
}

Result<array::SchemaPtr> FileReader::ProjectedSchema(
    const std::vector<std::string>& projection) const {
  LND_ASSIGN_OR_RETURN(auto proj, impl_->Project(projection));
  std::vector<array::FieldPtr> fields;
  for (const auto& pn : proj) fields.push_back(Impl::ProjField(pn));
  return array::MakeSchema(std::move(fields), impl_->tree.schema->metadata());
}

Result<array::RecordBatchPtr> FileReader::ReadAll(
    const std::vector<std::string>& projection) const {
  return ReadRange(0, num_rows(), projection);
}

Result<array::RecordBatchPtr> FileReader::ReadRange(
    std::int64_t offset, std::int64_t length, const std::vector<std::string>& projection) const {
  if (offset < 0 || length < 0 || offset > num_rows() || length > num_rows() - offset) {
    return Status::InvalidArgument("row range [" + std::to_string(offset) + ", " +
                                   std::to_string(offset + length) + ") is outside the file's " +
                                   std::to_string(num_rows()) + " rows");
  }
  Impl::Runs runs;
  if (length > 0) {
    runs.emplace_back(static_cast<std::uint64_t>(offset),
                      static_cast<std::uint64_t>(offset + length));
  }
  return impl_->Read(runs, projection);
}

Result<array::RecordBatchPtr> FileReader::Take(std::span<const std::uint64_t> indices,
                                               const std::vector<std::string>& projection) const {
  Impl::Runs runs;
  for (std::uint64_t i : indices) {
    if (i >= static_cast<std::uint64_t>(num_rows())) {
      return Status::InvalidArgument("row index " + std::to_string(i) +
                                     " is out of range; the file has " +
                                     std::to_string(num_rows()) + " rows");
    }
    if (!runs.empty() && runs.back().second == i) {
      runs.back().second = i + 1;
    } else {
      runs.emplace_back(i, i + 1);
    }
  }
  return impl_->Read(runs, projection, /*take=*/true);
}

Result<BatchReader> FileReader::Scan(const std::vector<std::string>& projection,
                                     ScanOptions options) const {
  LND_ASSIGN_OR_RETURN(auto schema, ProjectedSchema(projection));
  LND_ASSIGN_OR_RETURN(auto proj, impl_->Project(projection));
  std::vector<int> leaves;
  for (const auto& pn : proj) Impl::CollectLeaves(pn, &leaves);
  std::uint64_t bytes = 0;
  for (int c : leaves) {
    for (const auto& p : impl_->container.columns[static_cast<std::size_t>(c)].pages) {
      for (const auto& b : p.buffers) bytes += b.size;
    }
  }
  std::int64_t rows = std::max<std::int64_t>(1, options.max_rows);
  if (num_rows() > 0 && bytes > 0 && options.max_bytes > 0) {
    const double per_row = static_cast<double>(bytes) / static_cast<double>(num_rows());
    const auto by_bytes =
        static_cast<std::int64_t>(static_cast<double>(options.max_bytes) / per_row);
    rows = std::max<std::int64_t>(1, std::min(rows, by_bytes));
  }
  return BatchReader(*this, projection, std::move(schema), rows);
}

Result<array::RecordBatchPtr> BatchReader::Next() {
  const std::int64_t total = reader_.num_rows();
  if (next_row_ >= total) return array::RecordBatchPtr();
  const std::int64_t n = std::min(rows_per_batch_, total - next_row_);
  LND_ASSIGN_OR_RETURN(auto batch, reader_.ReadRange(next_row_, n, projection_));
  next_row_ += n;
  return batch;
}

}  // namespace lance_nd::file
