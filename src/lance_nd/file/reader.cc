#include "lance_nd/file/reader.h"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "lance_nd/file/container.h"
#include "lance_nd/file/lance_schema.h"
#include "lance_nd/file/page_decoder.h"
#include "lance_nd/file/structure.h"
#include "lance_nd/file/take_pages.h"
#include "lance_nd/file/value_builder.h"

namespace lance_nd::file {
namespace {

using internal::DecodedPage;
using internal::FieldNode;
using internal::LayerArrays;
using internal::LeafLevels;
using internal::LevelScheme;
using internal::PathLayer;
using internal::RowIndex;
using array::TypeId;

std::string N(std::uint64_t v) { return std::to_string(v); }

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

  Result<PagePtr> GetPage(int c, std::size_t p) const {
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
    // One read covering all buffers of the page, then zero-copy slices.
    std::uint64_t lo = UINT64_MAX, hi = 0, total = 0;
    for (const auto& b : meta.buffers) {
      if (b.size == 0) continue;
      lo = std::min(lo, b.position);
      hi = std::max(hi, b.position + b.size);
      total += b.size;
    }
    io::Bytes span;
    if (total > 0 && hi - lo <= 2 * total + 4096) {
      auto r = file->ReadAt(lo, hi - lo);
      if (!r.ok()) return std::move(r).status().WithContext(where);
      span = std::move(*r);
    }
    for (const auto& b : meta.buffers) {
      if (b.size == 0) {
        in.buffers.push_back(array::Buffer::Empty());
      } else if (span) {
        in.buffers.push_back(std::make_shared<const array::Buffer>(
            span->data() + (b.position - lo), static_cast<int64_t>(b.size), span));
      } else {
        auto r = file->ReadAt(b.position, b.size);
        if (!r.ok()) return std::move(r).status().WithContext(where);
        io::Bytes bytes = std::move(*r);
        in.buffers.push_back(std::make_shared<const array::Buffer>(
            bytes->data(), static_cast<int64_t>(bytes->size()), bytes));
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

  // Append values [from, to) of a page's value blocks.
  static Status AppendValues(const DecodedPage& page, std::uint64_t from, std::uint64_t to,
                             internal::ValueBuilder* vb) {
    std::uint64_t base = 0;
    for (const auto& block : page.values) {
      const std::uint64_t end = base + block.num_values;
      const std::uint64_t a = std::max(from, base), b = std::min(to, end);
      if (a < b) LND_RETURN_NOT_OK(vb->Append(block, a - base, b - a));
      base = end;
      if (base >= to) break;
    }
    return Status::OK();
  }

  // A row selection: consecutive runs [begin, end) in output order.
  using Runs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

  struct LeafResult {
    std::vector<LayerArrays> layers;
    array::ArrayPtr leaf;
  };

  // Take: pages decoded only in the parts holding the taken rows (take_pages.h), by page index.
  struct TakePart {
    std::uint64_t row_begin = 0, row_end = 0;  // page-local
    PagePtr page;
  };
  using TakeParts = std::map<std::size_t, std::vector<TakePart>>;

  Result<TakeParts> DecodeTakeParts(int c, const Runs& runs) const {
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    Runs sorted = runs;
    std::sort(sorted.begin(), sorted.end());
    std::map<std::size_t, Runs> wanted;  // page -> page-local ranges, sorted and merged
    for (const auto& [begin, end] : sorted) {
      auto it = std::upper_bound(col.pages.begin(), col.pages.end(), begin,
                                 [](std::uint64_t r, const internal::PageMeta& pm) { return r < pm.first_row; });
      std::size_t p = it == col.pages.begin() ? 0 : static_cast<std::size_t>(it - col.pages.begin()) - 1;
      for (std::uint64_t row = begin; row < end && p < col.pages.size(); ++p) {
        const internal::PageMeta& pm = col.pages[p];
        if (pm.first_row + pm.num_rows <= row) continue;
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
    }
    TakeParts out;
    const LevelScheme& scheme = *columns[static_cast<std::size_t>(c)].scheme;
    for (const auto& [p, ranges] : wanted) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (cache.count({c, p}) > 0) continue;  // the whole page is at hand
      }
      const std::string where = ColumnWhere(c) + " page " + std::to_string(p);
      LND_ASSIGN_OR_RETURN(auto parts, internal::DecodePageParts(*file, col.pages[p], container.footer.minor >= 2,
                                                                 ranges, where));
      if (!parts) continue;
      std::vector<TakePart>& v = out[p];
      for (auto& part : *parts) {
        auto ip = std::make_shared<IndexedPage>();
        ip->page = std::move(part.page);
        LND_RETURN_NOT_OK(scheme.Normalize(&ip->page, where));
        LND_ASSIGN_OR_RETURN(ip->index, internal::BuildRowIndex(ip->page, scheme, where));
        v.push_back(TakePart{part.row_begin, part.row_end, std::move(ip)});
      }
    }
    return out;
  }

  Result<LeafResult> ReadLeaf(int c, const Runs& runs, bool take = false) const {
    const ColumnInfo& info = columns[static_cast<std::size_t>(c)];
    const internal::ColumnMeta& col = container.columns[static_cast<std::size_t>(c)];
    const std::string where = ColumnWhere(c);
    if (col.num_rows != container.descriptor.length()) {
      return Status::Corrupt(where + " has " + N(col.num_rows) + " rows in its pages, but the file "
                             "has " + N(container.descriptor.length()));
    }
    LND_ASSIGN_OR_RETURN(internal::ValueBuilder vb,
                         internal::ValueBuilder::Make(info.node->field->type()));
    LeafLevels levels;
    const bool lists = info.scheme->num_lists() > 0;
    TakeParts take_parts;
    if (take) {
      LND_ASSIGN_OR_RETURN(take_parts, DecodeTakeParts(c, runs));
    }
    for (const auto& [begin, end] : runs) {
      std::uint64_t row = begin;
      // First page containing `row` (pages are sorted by first_row).
      auto it = std::upper_bound(col.pages.begin(), col.pages.end(), row,
                                 [](std::uint64_t r, const internal::PageMeta& p) { return r < p.first_row; });
      std::size_t p = static_cast<std::size_t>(it - col.pages.begin());
      p = p == 0 ? 0 : p - 1;
      while (row < end) {
        while (p < col.pages.size() && col.pages[p].first_row + col.pages[p].num_rows <= row) ++p;
        if (p >= col.pages.size()) return Status::Corrupt(where + ": row " + N(row) + " is in no page");
        const internal::PageMeta& meta = col.pages[p];
        if (auto tp = take_parts.find(p); tp != take_parts.end()) {
          const std::uint64_t local = row - meta.first_row;
          auto part = std::upper_bound(tp->second.begin(), tp->second.end(), local,
                                       [](std::uint64_t r, const TakePart& t) { return r < t.row_end; });
          if (part == tp->second.end() || part->row_begin > local) {
            return Status::Corrupt(where + ": taken row " + N(row) + " is in no decoded part");
          }
          const std::uint64_t rb = local - part->row_begin;
          const std::uint64_t re = std::min(end - meta.first_row, part->row_end) - part->row_begin;
          internal::AppendRowLevels(part->page->page, part->page->index, rb, re, lists, &levels);
          LND_RETURN_NOT_OK_CTX(AppendValues(part->page->page, part->page->index.value[rb],
                                             part->page->index.value[re], &vb),
                                where + " page " + std::to_string(p));
          row = meta.first_row + part->row_begin + re;
          continue;
        }
        LND_ASSIGN_OR_RETURN(PagePtr page, GetPage(c, p));
        const std::uint64_t rb = row - meta.first_row;
        const std::uint64_t re = std::min(end, meta.first_row + meta.num_rows) - meta.first_row;
        internal::AppendRowLevels(page->page, page->index, rb, re, lists, &levels);
        LND_RETURN_NOT_OK_CTX(AppendValues(page->page, page->index.value[rb], page->index.value[re], &vb),
                              where + " page " + std::to_string(p));
        row = meta.first_row + re;
      }
    }
    if (levels.def.size() == 0 && levels.num_rows > 0 && !lists) {
      // (cannot happen: normalized pages always carry def levels)
      return Status::Corrupt(where + ": no levels");
    }
    LeafResult out;
    LND_ASSIGN_OR_RETURN(out.layers, internal::Unravel(*info.scheme, levels, vb.length(), where));
    const LayerArrays& leaf = out.layers.back();
    LND_ASSIGN_OR_RETURN(out.leaf, vb.Finish(leaf.validity, leaf.null_count));
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
          parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
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
                                         "'" + (i == 0 ? "" : " in the struct") + "; the schema is " +
                                         tree.schema->ToString());
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
    if (pn != nullptr) CollectLeaves(*pn, &under); else CollectLeaves(node, &under);
    if (under.empty()) return Status::Corrupt("field '" + node.field->name() + "' has no leaf column");
    const LayerArrays& la = leaves.at(under[0]).layers.at(depth);
    const TypeId id = field->type()->id();
    if (id == TypeId::kStruct) {
      std::vector<array::ArrayPtr> kids;
      const auto& child_fields = field->type()->children();
      if (pn != nullptr && !pn->whole) {
        for (std::size_t i = 0; i < pn->children.size(); ++i) {
          LND_ASSIGN_OR_RETURN(auto a, Assemble(*pn->children[i].node, child_fields[i], &pn->children[i],
                                                depth + 1, leaves));
          kids.push_back(std::move(a));
        }
      } else {
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          LND_ASSIGN_OR_RETURN(auto a, Assemble(node.children[i], child_fields[i], nullptr, depth + 1, leaves));
          kids.push_back(std::move(a));
        }
      }
      for (const auto& k : kids) {
        if (k->length != la.length) {
          return Status::Corrupt("struct '" + node.field->name() + "' has " + N(static_cast<std::uint64_t>(la.length)) +
                                 " rows but a child has " + N(static_cast<std::uint64_t>(k->length)));
        }
      }
      return array::MakeArrayData(field->type(), la.length, {la.validity}, std::move(kids), la.null_count);
    }
    // list / large list
    LND_ASSIGN_OR_RETURN(auto child, Assemble(node.children[0], field->type()->value_field(), nullptr,
                                              depth + 1, leaves));
    return array::MakeArrayData(field->type(), la.length, {la.validity, la.offsets}, {std::move(child)},
                                la.null_count);
  }

  Result<array::RecordBatchPtr> Read(const Runs& runs, const std::vector<std::string>& projection,
                                      bool take = false) const {
    LND_ASSIGN_OR_RETURN(std::vector<ProjNode> proj, Project(projection));
    std::vector<int> leaves;
    for (const auto& pn : proj) CollectLeaves(pn, &leaves);
    std::map<int, LeafResult> results;
    std::vector<Result<LeafResult>> decoded(leaves.size(), Status::Corrupt("not decoded"));
    const int threads = std::max(1, std::min<int>(options.num_threads, static_cast<int>(leaves.size())));
    if (threads <= 1) {
      for (std::size_t i = 0; i < leaves.size(); ++i) decoded[i] = ReadLeaf(leaves[i], runs, take);
    } else {
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          for (std::size_t i = static_cast<std::size_t>(t); i < leaves.size(); i += static_cast<std::size_t>(threads)) {
            decoded[i] = ReadLeaf(leaves[i], runs, take);
          }
        });
      }
      for (auto& th : pool) th.join();
    }
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (!decoded[i].ok()) return decoded[i].status();
      results.emplace(leaves[i], std::move(*decoded[i]));
    }
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
    return array::RecordBatch::Make(std::move(schema), static_cast<int64_t>(num_rows), std::move(arrays));
  }
};

namespace {

void BuildColumnInfo(const FieldNode& node, std::vector<PathLayer> path, const std::string& prefix,
                     std::vector<ColumnInfo>* out) {
  const std::string name = prefix.empty() ? node.field->name() : prefix + "." + node.field->name();
  const TypeId id = node.field->type()->id();
  PathLayer layer;
  layer.kind = id == TypeId::kList ? PathLayer::Kind::kList
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

void Describe(const FieldNode& node, const std::string& prefix, std::vector<FieldDescription>* out) {
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

Result<FileReader> FileReader::Open(std::shared_ptr<io::RandomAccessFile> file, ReaderOptions options) {
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
      pd.layout = internal::DescribeLayout(p.layout);
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

Result<array::SchemaPtr> FileReader::ProjectedSchema(const std::vector<std::string>& projection) const {
  LND_ASSIGN_OR_RETURN(auto proj, impl_->Project(projection));
  std::vector<array::FieldPtr> fields;
  for (const auto& pn : proj) fields.push_back(Impl::ProjField(pn));
  return array::MakeSchema(std::move(fields), impl_->tree.schema->metadata());
}

Result<array::RecordBatchPtr> FileReader::ReadAll(const std::vector<std::string>& projection) const {
  return ReadRange(0, num_rows(), projection);
}

Result<array::RecordBatchPtr> FileReader::ReadRange(std::int64_t offset, std::int64_t length,
                                                    const std::vector<std::string>& projection) const {
  if (offset < 0 || length < 0 || offset > num_rows() || length > num_rows() - offset) {
    return Status::InvalidArgument("row range [" + std::to_string(offset) + ", " +
                                   std::to_string(offset + length) + ") is outside the file's " +
                                   std::to_string(num_rows()) + " rows");
  }
  Impl::Runs runs;
  if (length > 0) {
    runs.emplace_back(static_cast<std::uint64_t>(offset), static_cast<std::uint64_t>(offset + length));
  }
  return impl_->Read(runs, projection);
}

Result<array::RecordBatchPtr> FileReader::Take(std::span<const std::uint64_t> indices,
                                               const std::vector<std::string>& projection) const {
  Impl::Runs runs;
  for (std::uint64_t i : indices) {
    if (i >= static_cast<std::uint64_t>(num_rows())) {
      return Status::InvalidArgument("row index " + std::to_string(i) + " is out of range; the file has " +
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

Result<BatchReader> FileReader::Scan(const std::vector<std::string>& projection, ScanOptions options) const {
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
    const auto by_bytes = static_cast<std::int64_t>(static_cast<double>(options.max_bytes) / per_row);
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
