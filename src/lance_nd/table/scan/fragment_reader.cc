#include "lance_nd/table/scan/fragment_reader.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "lance_nd/array/field_path.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/table/rowids/row_ids.h"
#include "lance_nd/table/scan/data_file_cache.h"

namespace lance_nd::table::internal {
namespace {

using array::ArrayPtr;
using array::TypeId;

// Run f(i) for i in `items` on the caller's thread and the shared pool's workers; the first
// failure in item order is returned.
template <typename F>
Status ParallelFor(const std::vector<std::size_t>& items, F&& f) {
  std::vector<Status> results(items.size());
  const int threads = static_cast<int>(ThreadPool::Shared().size()) + 1;
  ParallelEach(items.size(), threads, [&](std::uint64_t k) { results[k] = f(items[k]); });
  for (const Status& s : results) LND_RETURN_NOT_OK(s);
  return Status::OK();
}

void CollectIds(const TableNode& node, int depth, std::vector<std::pair<std::int32_t, int>>* out) {
  out->emplace_back(node.id, depth);
  for (const TableNode& c : node.children) CollectIds(c, depth + 1, out);
}

// Ids whose files a projection may read: everything under each projected top-level field (a
// struct's validity can come from a sibling of the projected children).
void NeededIds(const ProjNode& p, std::set<std::int32_t>* out) {
  std::vector<std::pair<std::int32_t, int>> ids;
  CollectIds(*p.node, 0, &ids);
  for (const auto& [id, depth] : ids) out->insert(id);
}

ProjNode Whole(const TableNode& node) {
  ProjNode p;
  p.node = &node;
  p.out_field = node.field;
  if (node.IsSplittableStruct()) {
    for (const TableNode& c : node.children) p.children.push_back(Whole(c));
  }
  return p;
}

struct FileFields {
  const file::FileLayout* layout = nullptr;   // owned by the file's reader
  std::map<std::int32_t, std::size_t> by_id;  // file field id -> index in layout->fields
  std::map<int, std::size_t> by_column;       // leaf column -> index in layout->fields
};

struct Provided {
  int file = -1;
  std::size_t field = 0;  // index into that file's layout->fields
};

class SourcePlanner {
 public:
  SourcePlanner(const Fragment& fragment, const std::vector<FileFields>& files,
                const std::map<std::int32_t, Provided>& provided,
                std::vector<std::vector<std::string>>* projections)
      : fragment_(fragment), files_(files), provided_(provided), projections_(projections) {}

  Result<NodeSource> Plan(const ProjNode& p) {
    NodeSource src;
    if (p.node->IsSplittableStruct()) {
      for (const ProjNode& c : p.children) {
        LND_ASSIGN_OR_RETURN(NodeSource cs, Plan(c));
        if (src.file < 0 && cs.file >= 0 && !cs.path.empty()) {
          src.file = cs.file;
          src.path.assign(cs.path.begin(), cs.path.end() - 1);
        }
        src.children.push_back(std::move(cs));
      }
      if (src.file < 0) {
        // No projected child is stored here, but the struct's validity may be: borrow it from
        // a stored child that was not asked for (that child is read, not returned).
        for (const TableNode& child : p.node->children) {
          ProjNode hidden = Whole(child);
          LND_ASSIGN_OR_RETURN(NodeSource hs, Plan(hidden));
          if (hs.file >= 0 && !hs.path.empty()) {
            src.file = hs.file;
            src.path.assign(hs.path.begin(), hs.path.end() - 1);
            break;
          }
        }
      }
      if (src.file >= 0 && src.path.empty()) {
        return Status::Corrupt(Where(src.file) + " stores a child of struct '" +
                               p.node->field->name() + "' as a top-level field");
      }
      return src;
    }
    std::vector<std::pair<std::int32_t, int>> ids;
    CollectIds(*p.node, 0, &ids);
    const Provided* best = nullptr;
    int best_depth = 0;
    for (const auto& [id, depth] : ids) {
      auto it = provided_.find(id);
      if (it == provided_.end()) continue;
      if (best == nullptr || it->second.file > best->file) {
        best = &it->second;
        best_depth = depth;
      }
    }
    if (best == nullptr) return src;  // all null in this fragment
    const FileFields& ff = files_[static_cast<std::size_t>(best->file)];
    std::size_t index = best->field;
    for (int k = 0; k < best_depth; ++k) {
      auto parent = ff.by_id.find(ff.layout->fields[index].parent_id);
      if (parent == ff.by_id.end()) {
        return Status::Corrupt(Where(best->file) + ": field '" +
                               ff.layout->fields[best->field].path +
                               "' does not nest like table field '" + p.node->field->name() +
                               "' (id " + std::to_string(p.node->id) + ")");
      }
      index = parent->second;
    }
    // Names from the top-level field down to `index`.
    std::vector<std::string> names;
    for (int guard = 0; guard < 128; ++guard) {
      const file::FieldLayout& fl = ff.layout->fields[index];
      names.push_back(fl.name);
      auto parent = ff.by_id.find(fl.parent_id);
      if (fl.parent_id < 0 || parent == ff.by_id.end()) break;
      index = parent->second;
    }
    std::reverse(names.begin(), names.end());
    src.file = best->file;
    src.path = names;
    const std::string dotted = array::JoinFieldPath(names);
    auto& proj = (*projections_)[static_cast<std::size_t>(best->file)];
    if (std::find(proj.begin(), proj.end(), dotted) == proj.end()) proj.push_back(dotted);
    return src;
  }

 private:
  std::string Where(int file) const {
    return "fragment " + std::to_string(fragment_.id) + " data file '" +
           fragment_.files[static_cast<std::size_t>(file)].path + "'";
  }
  const Fragment& fragment_;
  const std::vector<FileFields>& files_;
  const std::map<std::int32_t, Provided>& provided_;
  std::vector<std::vector<std::string>>* projections_;
};

// Same values with the table's type (names, nullability and metadata of nested fields may
// differ in old files); the type shapes must match.
Result<ArrayPtr> Retype(const ArrayPtr& a, const array::DataTypePtr& type,
                        const std::string& what) {
  if (a->type->Equals(*type)) return a;
  const array::DataType& from = *a->type;
  const bool nested = type->id() == TypeId::kStruct || type->is_list_like();
  if (from.id() != type->id() || !nested || from.fixed_size() != type->fixed_size() ||
      from.children().size() != type->children().size() ||
      a->children.size() != type->children().size()) {
    return Status::Corrupt(what + " holds type " + from.ToString() + " but the table says " +
                           type->ToString());
  }
  auto copy = std::make_shared<array::ArrayData>(*a);
  copy->type = type;
  for (std::size_t k = 0; k < copy->children.size(); ++k) {
    LND_ASSIGN_OR_RETURN(copy->children[k],
                         Retype(a->children[k], type->children()[k]->type(), what));
  }
  return ArrayPtr(std::move(copy));
}

Result<ArrayPtr> Navigate(const array::RecordBatch& batch, const std::vector<std::string>& path,
                          const std::string& what) {
  ArrayPtr arr = batch.GetColumnByName(path.at(0));
  if (arr == nullptr) return Status::Corrupt(what + " returned no column '" + path[0] + "'");
  for (std::size_t i = 1; i < path.size(); ++i) {
    const auto& kids = arr->type->children();
    std::size_t k = 0;
    while (k < kids.size() && kids[k]->name() != path[i]) ++k;
    if (arr->type->id() != TypeId::kStruct || k >= kids.size() || k >= arr->children.size()) {
      return Status::Corrupt(what + " returned no struct child '" + path[i] + "'");
    }
    LND_ASSIGN_OR_RETURN(arr, array::Slice(arr->children[k], arr->offset, arr->length));
  }
  return arr;
}

array::BufferPtr ValidityAtZero(const array::ArrayData& a) {
  if (a.validity() == nullptr) return nullptr;
  if (a.offset == 0) return a.buffers[0];
  std::vector<std::uint8_t> bits(static_cast<std::size_t>((a.length + 7) / 8), 0);
  for (std::int64_t i = 0; i < a.length; ++i) {
    if (a.IsValid(i))
      bits[static_cast<std::size_t>(i / 8)] |= static_cast<std::uint8_t>(1u << (i % 8));
  }
  return array::Buffer::FromVector(std::move(bits));
}

Result<ArrayPtr> Build(const ProjNode& p, const NodeSource& src,
                       const std::vector<array::RecordBatchPtr>& batches, std::int64_t n,
                       const Fragment& fragment) {
  const array::DataTypePtr& type = p.out_field->type();
  if (src.file < 0) return array::MakeArrayOfNulls(type, n);
  const std::string what = "fragment " + std::to_string(fragment.id) + " data file '" +
                           fragment.files[static_cast<std::size_t>(src.file)].path + "' (field '" +
                           p.node->field->name() + "')";
  LND_ASSIGN_OR_RETURN(ArrayPtr arr,
                       Navigate(*batches[static_cast<std::size_t>(src.file)], src.path, what));
  if (arr->length != n) {
    return Status::Corrupt(what + " returned " + std::to_string(arr->length) + " rows, expected " +
                           std::to_string(n));
  }
  if (!p.node->IsSplittableStruct()) return Retype(arr, type, what);
  if (arr->type->id() != TypeId::kStruct) {
    return Status::Corrupt(what + " holds type " + arr->type->ToString() +
                           " where the table has a struct");
  }
  std::vector<ArrayPtr> kids;
  for (std::size_t k = 0; k < p.children.size(); ++k) {
    LND_ASSIGN_OR_RETURN(ArrayPtr kid, Build(p.children[k], src.children[k], batches, n, fragment));
    kids.push_back(std::move(kid));
  }
  return array::MakeArrayData(type, n, {ValidityAtZero(*arr)}, std::move(kids));
}

// Data files in the legacy (0.1) or 2.0 file formats belong to valid tables that lance-nd
// does not read; say so before their manifest entries (no column indices) look damaged.
Status CheckFileFormat(const std::string& frag, const DataFile& df) {
  if (df.file_major_version != 0) return Status::OK();
  const bool v2_0 = df.file_minor_version == 3;
  return Status::NotImplemented(
      frag + " data file '" + df.path + "' is in the " +
      (v2_0 ? std::string("Lance 2.0 file format")
            : std::string("legacy Lance file format (0.1)")) +
      ", which lance-nd does not read (it reads file formats 2.1 and 2.2); the table is valid: "
      "rewrite its data with Lance in file format 2.1 or later (for example, copy it into a new "
      "table with data_storage_version \"2.1\") to read it with lance-nd");
}

}  // namespace

RowSelection FragmentCursor::NextSelection(std::uint64_t max_rows) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;  // [begin, end)
  std::uint64_t taken = 0;
  const auto& dels = deletions.offsets();
  while (position < physical_rows && taken < max_rows) {
    const std::uint64_t next_del =
        deletion_index < dels.size() ? dels[deletion_index] : physical_rows;
    if (position == next_del) {
      ++position;
      ++deletion_index;
      continue;
    }
    const std::uint64_t end = std::min({next_del, physical_rows, position + (max_rows - taken)});
    runs.emplace_back(position, end);
    taken += end - position;
    position = end;
  }
  RowSelection sel;
  if (runs.size() == 1) {
    sel.start = runs[0].first;
    sel.count = runs[0].second - runs[0].first;
  } else {
    for (const auto& [b, e] : runs) {
      for (std::uint64_t r = b; r < e; ++r) sel.offsets.push_back(r);
    }
  }
  return sel;
}

std::uint64_t FragmentCursor::PhysicalOffset(std::uint64_t k) const {
  const auto& d = deletions.offsets();
  std::size_t lo = 0;
  std::size_t hi = d.size();
  while (lo < hi) {  // first i with d[i] - i > k
    const std::size_t mid = (lo + hi) / 2;
    if (d[mid] - mid <= k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return k + lo;
}

Result<std::unique_ptr<FragmentCursor>> OpenFragment(const Dataset& ds, const ScanPlan& plan,
                                                     const Fragment& fragment) {
  auto cursor = std::make_unique<FragmentCursor>();
  cursor->fragment = &fragment;
  cursor->physical_rows = fragment.physical_rows;
  const std::string frag = "fragment " + std::to_string(fragment.id);
  std::set<std::int32_t> needed;
  for (const ProjNode& c : plan.columns) NeededIds(c, &needed);
  const std::size_t num_files = fragment.files.size();
  std::vector<std::size_t> to_open;
  for (std::size_t i = 0; i < num_files; ++i) {
    const DataFile& df = fragment.files[i];
    LND_RETURN_NOT_OK(CheckFileFormat(frag, df));
    if (df.fields.size() != df.column_indices.size()) {
      return Status::Corrupt(frag + " data file '" + df.path + "' lists " +
                             std::to_string(df.fields.size()) + " field ids but " +
                             std::to_string(df.column_indices.size()) +
                             " column indices; they must be parallel");
    }
    bool use = false;
    for (std::size_t j = 0; j < df.fields.size(); ++j) {
      if (df.column_indices[j] >= 0 && needed.count(df.fields[j]) != 0) use = true;
    }
    if (use || (fragment.physical_rows == 0 && i == 0)) to_open.push_back(i);
  }
  cursor->readers.resize(num_files);
  std::vector<FileFields> files(num_files);
  const std::string data_dir = ds.location().DataDir();
  LND_RETURN_NOT_OK(ParallelFor(to_open, [&](std::size_t i) -> Status {
    const DataFile& df = fragment.files[i];
    if (df.base_id) {
      return Status::NotImplemented(frag + " data file '" + df.path + "' lives under base path " +
                                    std::to_string(*df.base_id) +
                                    "; base paths are not supported yet");
    }
    const std::string path = JoinPath(data_dir, df.path);
    auto opened = ds.file_system()->OpenForRead(path);
    if (!opened.ok()) {
      if (opened.status().code() == StatusCode::kNotFound) {
        return Status::NotFound(frag + ": data file '" + path +
                                "' does not exist; the table may be damaged (was it cleaned up "
                                "or deleted while version " +
                                std::to_string(ds.version()) + " still uses it?)");
      }
      return std::move(opened).status().WithContext(frag + " data file '" + path + "'");
    }
    LND_ASSIGN_OR_RETURN(file::FileReader reader,
                         ReadDataFile(ds.file_system(), path, std::move(opened).value())
                             .WithContext(frag + " data file '" + path + "'"));
    files[i].layout = &reader.layout();
    for (std::size_t k = 0; k < files[i].layout->fields.size(); ++k) {
      const file::FieldLayout& fl = files[i].layout->fields[k];
      files[i].by_id.emplace(fl.id, k);
      if (fl.column >= 0) files[i].by_column.emplace(fl.column, k);
    }
    cursor->readers[i] = std::move(reader);
    return Status::OK();
  }));
  for (std::size_t i : to_open) {
    const auto rows = static_cast<std::uint64_t>(cursor->readers[i]->num_rows());
    if (cursor->physical_rows == 0) cursor->physical_rows = rows;  // legacy: unknown
    if (rows != cursor->physical_rows) {
      return Status::Corrupt(
          frag + " data file '" + fragment.files[i].path + "' holds " + std::to_string(rows) +
          " rows but the fragment says physical_rows = " + std::to_string(cursor->physical_rows));
    }
  }
  std::map<std::int32_t, Provided> provided;
  for (std::size_t i : to_open) {
    const DataFile& df = fragment.files[i];
    for (std::size_t j = 0; j < df.fields.size(); ++j) {
      const std::int32_t id = df.fields[j];
      const std::int32_t col = df.column_indices[j];
      if (id < 0 || col < 0) continue;  // -2 tombstones; parents without a column
      auto it = files[i].by_column.find(col);
      if (it == files[i].by_column.end()) {
        return Status::Corrupt(frag + " data file '" + df.path + "' maps field id " +
                               std::to_string(id) + " to column " + std::to_string(col) +
                               " but the file has " +
                               std::to_string(files[i].layout->columns.size()) + " columns");
      }
      provided[id] = Provided{static_cast<int>(i), it->second};  // later files win
    }
  }
  cursor->projections.resize(num_files);
  SourcePlanner planner(fragment, files, provided, &cursor->projections);
  for (const ProjNode& c : plan.columns) {
    LND_ASSIGN_OR_RETURN(NodeSource src, planner.Plan(c));
    cursor->columns.push_back(std::move(src));
  }
  LND_ASSIGN_OR_RETURN(cursor->deletions, ReadFragmentDeletions(ds.location(), fragment));
  if (!cursor->deletions.empty() && cursor->deletions.offsets().back() >= cursor->physical_rows) {
    return Status::Corrupt(frag + " deletes row offset " +
                           std::to_string(cursor->deletions.offsets().back()) + " but holds only " +
                           std::to_string(cursor->physical_rows) + " rows");
  }
  if (plan.with_row_id) {
    LND_ASSIGN_OR_RETURN(FragmentRowIds ids, ReadFragmentRowIds(ds.location(), fragment));
    cursor->has_row_ids = ids.present;
    cursor->row_ids = std::move(ids.ids);
  }
  return cursor;
}

Result<array::RecordBatchPtr> ReadSelection(const ScanPlan& plan, const FragmentCursor& cursor,
                                            const RowSelection& rows) {
  const Fragment& fragment = *cursor.fragment;
  const auto n = static_cast<std::int64_t>(rows.size());
  std::vector<array::RecordBatchPtr> batches(cursor.readers.size());
  std::vector<std::size_t> to_read;
  for (std::size_t i = 0; i < cursor.readers.size(); ++i) {
    if (cursor.readers[i] && !cursor.projections[i].empty()) to_read.push_back(i);
  }
  LND_RETURN_NOT_OK(ParallelFor(to_read, [&](std::size_t i) -> Status {
    const file::FileReader& reader = *cursor.readers[i];
    auto read = rows.offsets.empty() ? reader.ReadRange(static_cast<std::int64_t>(rows.start), n,
                                                        cursor.projections[i])
                                     : reader.Take(rows.offsets, cursor.projections[i]);
    LND_ASSIGN_OR_RETURN(
        batches[i], std::move(read).WithContext("fragment " + std::to_string(fragment.id) +
                                                " data file '" + fragment.files[i].path + "'"));
    return Status::OK();
  }));
  std::vector<ArrayPtr> columns;
  for (std::size_t c = 0; c < plan.columns.size(); ++c) {
    LND_ASSIGN_OR_RETURN(ArrayPtr col,
                         Build(plan.columns[c], cursor.columns[c], batches, n, fragment));
    columns.push_back(std::move(col));
  }
  if (plan.with_row_id) {
    std::vector<std::uint64_t> ids(static_cast<std::size_t>(n));
    const std::uint64_t high = fragment.id << 32;
    for (std::size_t r = 0; r < ids.size(); ++r) {
      const std::uint64_t offset = rows.offsets.empty() ? rows.start + r : rows.offsets[r];
      if (!cursor.has_row_ids) {
        ids[r] = high | offset;
      } else if (offset < cursor.row_ids.size()) {
        ids[r] = cursor.row_ids[offset];
      } else {
        return Status::Corrupt("fragment " + std::to_string(fragment.id) + " has " +
                               std::to_string(cursor.row_ids.size()) + " row ids but row offset " +
                               std::to_string(offset) + " was read");
      }
    }
    auto buffer = array::Buffer::Copy(ids.data(), n * 8);
    columns.push_back(array::MakeArrayData(array::UInt64(), n, {nullptr, buffer}, {}, 0));
  }
  if (plan.with_row_address) {
    std::vector<std::uint64_t> addr(static_cast<std::size_t>(n));
    const std::uint64_t high = fragment.id << 32;
    for (std::size_t r = 0; r < addr.size(); ++r) {
      addr[r] = high | (rows.offsets.empty() ? rows.start + r : rows.offsets[r]);
    }
    auto buffer = array::Buffer::Copy(addr.data(), n * 8);
    columns.push_back(array::MakeArrayData(array::UInt64(), n, {nullptr, buffer}, {}, 0));
  }
  return array::RecordBatch::Make(plan.schema, n, std::move(columns));
}

Result<array::RecordBatchPtr> ConcatenateBatches(
    const array::SchemaPtr& schema, const std::vector<array::RecordBatchPtr>& batches) {
  if (batches.size() == 1) return batches[0];
  std::vector<ArrayPtr> columns;
  std::int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows();
  for (int c = 0; c < schema->num_fields(); ++c) {
    if (batches.empty()) {
      columns.push_back(array::MakeEmptyArray(schema->field(c)->type()));
      continue;
    }
    std::vector<ArrayPtr> parts;
    for (const auto& b : batches) parts.push_back(b->column(c));
    LND_ASSIGN_OR_RETURN(ArrayPtr col, array::Concatenate(parts));
    columns.push_back(std::move(col));
  }
  return array::RecordBatch::Make(schema, rows, std::move(columns));
}

}  // namespace lance_nd::table::internal
