// The fast path of RowDecoder::ValidateRows: the per-row rules checked straight from the
// batch's buffers, column after column, for the common layout (int32 list offsets, utf8 names,
// uint32 sizes, no nulls below a valid row). It only says yes or no: on no, the caller runs the
// row-by-row checks, which name the first broken rule exactly as before.
#include "row_validator_fast.h"

#include <algorithm>
#include <atomic>

#include "lance_nd/array/buffer.h"
#include "lance_nd/core/internal/thread_pool.h"

namespace lance_nd::nd::internal {

namespace {

using array::ArrayData;
using array::TypeId;

// `a` holds int32 list offsets and one item array of type `item` (kNull: any type).
bool IsPlainList(const ArrayData& a, TypeId item) {
  if (a.type->id() != TypeId::kList || a.children.size() != 1 || !a.children[0]) return false;
  if (a.buffers.size() < 2 || !a.buffers[1]) return false;
  return item == TypeId::kNull || a.children[0]->type->id() == item;
}

// An attribute struct (or the global column) whose every slot in [b, b + n) passes the
// per-row check: as many children as fields, each long enough.
bool AttributesFit(const ArrayData& attrs, std::size_t num_fields, int64_t b, int64_t n) {
  if (attrs.children.size() != num_fields) return false;
  for (const array::ArrayPtr& child : attrs.children) {
    if (!child || child->length < attrs.offset + b + n) return false;
  }
  return true;
}

// One nd column's lists as raw pointers, checked once for the whole batch.
struct ColumnView {
  const ArrayData* column = nullptr;
  const std::int32_t* values = nullptr;
  const std::int32_t* names = nullptr;  // list offsets into the name items
  const std::int32_t* sizes = nullptr;
  const std::int32_t* name_offsets = nullptr;  // utf8 offsets of the name items
  const char* name_data = nullptr;
  const std::uint32_t* size_data = nullptr;
  std::int64_t values_items = 0, names_items = 0, sizes_items = 0;
};

bool MakeView(const FastColumn& c, int64_t rows, ColumnView* v) {
  const ArrayData& col = *c.column;
  const std::size_t expected = c.has_attrs ? 4 : 3;
  if (col.children.size() != expected) return false;
  for (const array::ArrayPtr& child : col.children) {
    if (!child || child->length < col.offset + rows) return false;
  }
  const ArrayData& values = *col.children[0];
  const ArrayData& names = *col.children[1];
  const ArrayData& sizes = *col.children[2];
  if (!IsPlainList(values, TypeId::kNull) || !IsPlainList(names, TypeId::kUtf8) ||
      !IsPlainList(sizes, TypeId::kUInt32)) {
    return false;
  }
  // A null list under a valid row is an error the slow path names.
  for (const ArrayData* list : {&values, &names, &sizes}) {
    if (!list->AllValid(col.offset, rows)) return false;
  }
  const ArrayData& name_items = *names.children[0];
  const ArrayData& size_items = *sizes.children[0];
  if (!name_items.AllValid(0, name_items.length) || !size_items.AllValid(0, size_items.length)) {
    return false;
  }
  if (name_items.length > 0 && (name_items.buffers.size() < 3 || !name_items.buffers[1])) {
    return false;
  }
  if (size_items.length > 0 && (size_items.buffers.size() < 2 || !size_items.buffers[1])) {
    return false;
  }
  if (c.has_attrs && c.num_attrs > 0 &&
      !AttributesFit(*col.children[3], c.num_attrs, col.offset, rows)) {
    return false;
  }
  auto offsets = [](const ArrayData& list) {
    return reinterpret_cast<const std::int32_t*>(list.buffers[1]->data()) + list.offset;
  };
  v->column = &col;
  v->values = offsets(values) + col.offset;
  v->names = offsets(names) + col.offset;
  v->sizes = offsets(sizes) + col.offset;
  v->name_offsets = name_items.length > 0 ? offsets(name_items) : nullptr;
  v->name_data = name_items.length > 0 && name_items.buffers[2]
                     ? reinterpret_cast<const char*>(name_items.buffers[2]->data())
                     : nullptr;
  v->size_data = size_items.length > 0 ? size_items.values<std::uint32_t>() : nullptr;
  v->values_items = values.children[0]->length;
  v->names_items = name_items.length;
  v->sizes_items = size_items.length;
  return true;
}

// Row `row` of column `v`: appends its axes, false when a rule is broken.
bool RowFits(const ColumnView& v, int64_t row, std::vector<FastAxis>* axes) {
  const std::int64_t vb = v.values[row], ve = v.values[row + 1];
  const std::int64_t nb = v.names[row], ne = v.names[row + 1];
  const std::int64_t sb = v.sizes[row], se = v.sizes[row + 1];
  if (vb < 0 || ve < vb || ve > v.values_items || nb < 0 || ne < nb || ne > v.names_items ||
      sb < 0 || se < sb || se > v.sizes_items || ne - nb != se - sb) {
    return false;
  }
  const std::size_t first_axis = axes->size();
  std::uint64_t elements = 1;
  bool zero = false;
  for (std::int64_t k = 0; k < ne - nb; ++k) {
    const std::int32_t o0 = v.name_offsets[nb + k], o1 = v.name_offsets[nb + k + 1];
    if (o1 <= o0) return false;  // empty name (or broken offsets)
    const FastAxis axis{std::string_view(v.name_data + o0, static_cast<std::size_t>(o1 - o0)),
                        v.size_data[sb + k]};
    for (std::size_t j = first_axis; j < axes->size(); ++j) {
      if ((*axes)[j].name == axis.name) return false;
    }
    zero = zero || axis.size == 0;
    if (axis.size != 0) {
      if (elements > static_cast<std::uint64_t>(INT64_MAX) / axis.size) return false;
      elements *= axis.size;
    }
    axes->push_back(axis);
  }
  if (zero) elements = 0;
  return static_cast<std::uint64_t>(ve - vb) == elements;
}

bool GridShared(const std::vector<FastAxis>& axes) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = i + 1; j < axes.size(); ++j) {
      const FastAxis& a = axes[i];
      const FastAxis& b = axes[j];
      if (a.name == b.name && a.size != b.size && a.size != 1 && b.size != 1) return false;
    }
  }
  return true;
}

// Rows [begin, end) of the viewed columns.
bool RangeFits(const std::vector<ColumnView>& views, int64_t begin, int64_t end) {
  std::vector<FastAxis> axes;
  for (int64_t row = begin; row < end; ++row) {
    axes.clear();
    for (const ColumnView& v : views) {
      const std::uint8_t* bits = v.column->validity();
      if (bits != nullptr && !array::GetBit(bits, v.column->offset + row)) continue;
      if (!RowFits(v, row, &axes)) return false;
    }
    if (axes.size() > 1 && !GridShared(axes)) return false;
  }
  return true;
}

constexpr std::uint64_t kRowsPerTask = 16384;
constexpr int kThreads = 4;

}  // namespace

bool RowsFitFast(std::span<const FastColumn> columns, const ArrayData* globals,
                 std::size_t num_global_fields, int64_t rows) {
  if (globals != nullptr && !AttributesFit(*globals, num_global_fields, 0, rows)) return false;
  std::vector<ColumnView> views(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!MakeView(columns[c], rows, &views[c])) return false;
  }
  // Rows are independent: ranges of them are checked on the pool, and any failure says no.
  std::atomic<bool> fits{true};
  ParallelRanges(static_cast<std::uint64_t>(rows), kRowsPerTask, kThreads,
                 [&](std::uint64_t begin, std::uint64_t end) {
                   if (!fits.load(std::memory_order_relaxed)) return;
                   if (!RangeFits(views, static_cast<int64_t>(begin), static_cast<int64_t>(end))) {
                     fits.store(false, std::memory_order_relaxed);
                   }
                 });
  return fits.load();
}

}  // namespace lance_nd::nd::internal
