#include "lance_nd/file/writer/shred.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "lance_nd/array/view.h"

namespace lance_nd::file::internal::writer {
namespace {

using array::ArrayData;

constexpr std::uint16_t kNoLevel = 0xFFFF;

// ArrayData::IsValid without the call (it is out of line; these loops run per value).
inline bool IsValidAt(const ArrayData& a, int64_t i) {
  if (a.type->id() == array::TypeId::kNull) return false;
  const std::uint8_t* bits = a.validity();
  return bits == nullptr || array::GetBit(bits, a.offset + i);
}

class Shredder {
 public:
  Shredder(const LeafColumn& leaf, ShredMode mode)
      : leaf_(leaf),
        bulk_(mode == ShredMode::kBulk),
        n_(static_cast<int>(leaf.path.size())),
        has_null_(leaf.path.size(), 0),
        has_empty_(leaf.path.size(), 0),
        null_level_(leaf.path.size(), kNoLevel),
        empty_level_(leaf.path.size(), kNoLevel),
        list_level_(leaf.path.size(), 0) {
    int lists = 0;
    for (int j = 0; j < n_; ++j) {
      if (Kind(j) == PathNode::Kind::kList) {
        ++lists;
        innermost_list_ = j;
      }
    }
    max_rep_ = static_cast<std::uint16_t>(lists);
    int seen = 0;
    for (int j = 0; j < n_; ++j) {
      if (Kind(j) == PathNode::Kind::kList) {
        list_level_[static_cast<std::size_t>(j)] = static_cast<std::uint16_t>(lists - seen);
        ++seen;
      }
    }
  }

  Result<ShreddedPage> Run(std::span<const array::ArrayPtr> arrays) {
    for (const auto& a : arrays) {
      LND_RETURN_NOT_OK(CheckArray(*a, 0));
      ScanRange(*a, 0, a->length, 0);
      page_.num_rows += static_cast<std::uint64_t>(a->length);
    }
    AssignLevels();
    InitValues();
    Reserve();
    for (const auto& a : arrays) EmitRange(*a, 0, a->length, 0, max_rep_);
    FinishValues();
    return std::move(page_);
  }

 private:
  PathNode::Kind Kind(int j) const { return leaf_.path[static_cast<std::size_t>(j)].kind; }

  // Structural sanity of caller-provided arrays (types were checked against the schema).
  Status CheckArray(const ArrayData& a, int j) const {
    const PathNode& node = leaf_.path[static_cast<std::size_t>(j)];
    const std::string where = "column '" + leaf_.path[0].field->name() + "'";
    switch (node.kind) {
      case PathNode::Kind::kStruct:
        if (a.children.size() <= static_cast<std::size_t>(node.child_index) ||
            !a.children[static_cast<std::size_t>(node.child_index)]) {
          return Status::InvalidArgument(where, ": struct array '", node.field->name(),
                                         "' lacks child ", node.child_index,
                                         "; validate the batch before writing it");
        }
        return CheckArray(*a.children[static_cast<std::size_t>(node.child_index)], j + 1);
      case PathNode::Kind::kList:
        if (a.children.empty() || !a.children[0] ||
            (a.length > 0 && (a.buffers.size() < 2 || !a.buffers[1]))) {
          return Status::InvalidArgument(where, ": list array '", node.field->name(),
                                         "' lacks offsets or its child; validate the batch");
        }
        return CheckArray(*a.children[0], j + 1);
      case PathNode::Kind::kLeaf:
        break;
    }
    switch (leaf_.kind) {
      case LeafKind::kFixed:
      case LeafKind::kBool:
        if (a.length > 0 && (a.buffers.size() < 2 || !a.buffers[1])) {
          return Status::InvalidArgument(where, ": leaf '", node.field->name(),
                                         "' has no values buffer; validate the batch");
        }
        break;
      case LeafKind::kVariable:
        if (a.length > 0 && (a.buffers.size() < 3 || !a.buffers[1])) {
          return Status::InvalidArgument(where, ": leaf '", node.field->name(),
                                         "' has no offsets buffer; validate the batch");
        }
        break;
      case LeafKind::kFixedList: {
        const ArrayData* c = &a;
        for (std::size_t d = 0; d < leaf_.fsl_dims.size(); ++d) {
          if (c->children.empty() || !c->children[0]) {
            return Status::InvalidArgument(where, ": fixed_size_list '", node.field->name(),
                                           "' has no child array; validate the batch");
          }
          c = c->children[0].get();
        }
        if (c->length > 0 && (c->buffers.size() < 2 || !c->buffers[1])) {
          return Status::InvalidArgument(where, ": fixed_size_list '", node.field->name(),
                                         "' items have no values buffer; validate the batch");
        }
        break;
      }
      case LeafKind::kNull:
      case LeafKind::kEmptyStruct:
        break;
    }
    return Status::OK();
  }

  // The offsets of a list or large list node (null for other types: no bulk path).
  template <typename Fn>
  static bool WithListOffsets(const ArrayData& list, Fn&& fn) {
    const array::TypeId id = list.type->id();
    if (id != array::TypeId::kList && id != array::TypeId::kLargeList) return false;
    const std::uint8_t* raw = list.buffers[1]->data();
    if (id == array::TypeId::kList) {
      fn(reinterpret_cast<const int32_t*>(raw) + list.offset);
    } else {
      fn(reinterpret_cast<const int64_t*>(raw) + list.offset);
    }
    return true;
  }

  // True when offsets [b, e] never decrease (the bulk paths rely on it; the per-row walk treats
  // a decreasing pair as an empty list).
  template <typename O>
  static bool Monotonic(const O* offs, int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      if (offs[i + 1] < offs[i]) return false;
    }
    return true;
  }

  // Calls valid(b', e') on the maximal runs of valid rows of [b, e) of node `a` and null(i) on
  // each null row (all one run without a validity bitmap).
  template <typename Valid, typename Null>
  static void ForRuns(const ArrayData& a, int64_t b, int64_t e, Valid&& valid, Null&& null) {
    const std::uint8_t* bits = a.validity();
    if (bits == nullptr) {
      if (e > b) valid(b, e);
      return;
    }
    int64_t i = b;
    while (i < e) {
      if (!array::GetBit(bits, a.offset + i)) {
        null(i++);
        continue;
      }
      int64_t k = i + 1;
      while (k < e && array::GetBit(bits, a.offset + k)) ++k;
      valid(i, k);
      i = k;
    }
  }

  // Scan of rows [b, e) of `a` at path node j: runs of valid struct rows go down at once, runs
  // of lists of leaf values are scanned as one leaf run. Same counts as Scan() on each row.
  void ScanRange(const ArrayData& a, int64_t b, int64_t e, int j) {
    if (!bulk_ || (j == n_ - 1 && !BulkLeaf())) {
      for (int64_t i = b; i < e; ++i) Scan(a, i, j);
      return;
    }
    if (j == n_ - 1) {
      ScanLeafRun(a, b, e);
      return;
    }
    const PathNode& node = leaf_.path[static_cast<std::size_t>(j)];
    ForRuns(
        a, b, e,
        [&](int64_t rb, int64_t re) {
          if (node.kind == PathNode::Kind::kStruct) {
            const ArrayData& child = *a.children[static_cast<std::size_t>(node.child_index)];
            ScanRange(child, a.offset + rb, a.offset + re, j + 1);
          } else if (!(j + 2 == n_ && BulkLeaf() && ScanListRun(a, rb, re, j))) {
            for (int64_t i = rb; i < re; ++i) Scan(a, i, j);
          }
        },
        [&](int64_t i) { Scan(a, i, j); });
  }

  // Valid lists [b, e) of node j holding leaf values: false (nothing done) when not possible.
  bool ScanListRun(const ArrayData& list, int64_t b, int64_t e, int j) {
    bool done = false;
    WithListOffsets(list, [&](const auto* offs) {
      if (!Monotonic(offs, b, e)) return;
      std::uint64_t empties = 0;
      for (int64_t i = b; i < e; ++i) empties += offs[i + 1] == offs[i] ? 1 : 0;
      if (empties > 0) has_empty_[static_cast<std::size_t>(j)] = 1;
      count_levels_ += empties;
      ScanLeafRun(*list.children[0], static_cast<int64_t>(offs[b]), static_cast<int64_t>(offs[e]));
      done = true;
    });
    return done;
  }

  // Emit of rows [b, e) of `a` at path node j (every row's rep is `r`): the counterpart of
  // ScanRange, same output as Emit() on each row.
  void EmitRange(const ArrayData& a, int64_t b, int64_t e, int j, std::uint16_t r) {
    if (!bulk_ || (j == n_ - 1 && !BulkLeaf())) {
      for (int64_t i = b; i < e; ++i) Emit(a, i, j, r);
      return;
    }
    if (j == n_ - 1) {
      if (e > b) EmitLeafRun(a, b, e, r, r);
      return;
    }
    const PathNode& node = leaf_.path[static_cast<std::size_t>(j)];
    ForRuns(
        a, b, e,
        [&](int64_t rb, int64_t re) {
          if (node.kind == PathNode::Kind::kStruct) {
            const ArrayData& child = *a.children[static_cast<std::size_t>(node.child_index)];
            EmitRange(child, a.offset + rb, a.offset + re, j + 1, r);
          } else if (!(j + 2 == n_ && BulkLeaf() && EmitListRun(a, rb, re, j, r))) {
            for (int64_t i = rb; i < re; ++i) Emit(a, i, j, r);
          }
        },
        [&](int64_t i) { Emit(a, i, j, r); });
  }

  // Valid lists [b, e) of node j holding leaf values: their levels row by row, their values in
  // one run. False (nothing done) when not possible.
  bool EmitListRun(const ArrayData& list, int64_t b, int64_t e, int j, std::uint16_t r) {
    const auto uj = static_cast<std::size_t>(j);
    const ArrayData& child = *list.children[0];
    bool done = false;
    WithListOffsets(list, [&](const auto* offs) {
      if (!Monotonic(offs, b, e)) return;
      const auto inner_rep = static_cast<std::uint16_t>(list_level_[uj] - 1);
      const std::uint64_t before = page_.rep.size();
      for (int64_t i = b; i < e; ++i) {
        page_.rep.push_back(r);
        const auto len = static_cast<std::size_t>(offs[i + 1] - offs[i]);
        if (len > 1) page_.rep.insert(page_.rep.end(), len - 1, inner_rep);
      }
      const std::uint64_t levels = page_.rep.size() - before;
      const auto first = static_cast<int64_t>(offs[b]);
      const auto last = static_cast<int64_t>(offs[e]);
      if (WritesDef()) EmitListRunDefs(offs, b, e, child, empty_level_[uj]);
      page_.num_levels += levels;
      if (last > first) AppendLeafRun(child, first, last);
      done = true;
    });
    return done;
  }

  // The def levels of valid lists [b, e): empty lists get `empty_def`, leaf values 0 or the
  // leaf's null level.
  template <typename O>
  void EmitListRunDefs(const O* offs, int64_t b, int64_t e, const ArrayData& leaf,
                       std::uint16_t empty_def) {
    const std::uint8_t* bits = leaf.validity();
    const std::uint16_t null_def = null_level_[static_cast<std::size_t>(n_ - 1)];
    const bool empties = has_empty_[static_cast<std::size_t>(n_ - 2)] != 0;
    if (bits == nullptr && !empties) {
      page_.def.insert(page_.def.end(), static_cast<std::size_t>(offs[e] - offs[b]), 0);
      return;
    }
    for (int64_t i = b; i < e; ++i) {
      if (offs[i + 1] == offs[i]) {
        page_.def.push_back(empty_def);
        continue;
      }
      if (bits == nullptr) {
        page_.def.insert(page_.def.end(), static_cast<std::size_t>(offs[i + 1] - offs[i]), 0);
        continue;
      }
      for (auto k = static_cast<int64_t>(offs[i]); k < static_cast<int64_t>(offs[i + 1]); ++k) {
        page_.def.push_back(array::GetBit(bits, leaf.offset + k) ? 0 : null_def);
      }
    }
  }

  // Leaf kinds whose runs are shredded at once in bulk mode.
  bool BulkLeaf() const {
    return bulk_ && (leaf_.kind == LeafKind::kFixed || leaf_.kind == LeafKind::kVariable);
  }

  // Scan of leaf slots [b, e) of `a` (the leaf array): only nulls matter.
  void ScanLeafRun(const ArrayData& a, int64_t b, int64_t e) {
    if (e <= b) return;
    const auto count = static_cast<std::uint64_t>(e - b);
    count_levels_ += count;
    count_slots_ += count;
    const std::uint8_t* bits = a.validity();
    if (bits == nullptr || has_null_[static_cast<std::size_t>(n_ - 1)]) return;
    for (int64_t k = b; k < e; ++k) {
      if (!array::GetBit(bits, a.offset + k)) {
        MarkNull(n_ - 1);
        return;
      }
    }
  }

  void Reserve() {
    if (page_.has_rep) page_.rep.reserve(count_levels_);
    if (WritesDef()) page_.def.reserve(count_levels_);
    SlotValues& v = page_.values;
    if (leaf_.kind == LeafKind::kFixedList) {
      v.bytes.reserve(count_slots_ * static_cast<std::uint64_t>(v.slot_bytes));
    } else if (leaf_.kind == LeafKind::kVariable) {
      v.offsets.reserve(count_slots_ + 1);
    }
  }

  // Emits leaf slots [b, e) of `a` (the leaf array, count > 0): the first gets rep `r_first`,
  // the others `r_rest`. Same output as Emit() on each slot.
  void EmitLeafRun(const ArrayData& a, int64_t b, int64_t e, std::uint16_t r_first,
                   std::uint16_t r_rest) {
    const auto count = static_cast<std::size_t>(e - b);
    const std::uint8_t* bits = a.validity();
    const std::uint16_t null_def = null_level_[static_cast<std::size_t>(n_ - 1)];
    if (page_.has_rep) {
      page_.rep.push_back(r_first);
      page_.rep.insert(page_.rep.end(), count - 1, r_rest);
    }
    if (WritesDef()) {
      if (bits == nullptr) {
        page_.def.insert(page_.def.end(), count, 0);
      } else {
        for (int64_t k = b; k < e; ++k) {
          page_.def.push_back(array::GetBit(bits, a.offset + k) ? 0 : null_def);
        }
      }
    }
    if (page_.has_rep || page_.has_def) page_.num_levels += count;
    AppendLeafRun(a, b, e);
  }

  // The value slots of leaf slots [b, e) of `a` (count > 0).
  void AppendLeafRun(const ArrayData& a, int64_t b, int64_t e) {
    const auto count = static_cast<std::size_t>(e - b);
    const std::uint8_t* bits = a.validity();
    SlotValues& v = page_.values;
    std::uint64_t valid = count;
    if (leaf_.kind == LeafKind::kFixed) {
      const auto w = static_cast<std::size_t>(leaf_.byte_width);
      const std::uint64_t src_offset = static_cast<std::uint64_t>(a.offset + b) * w;
      if (v.bytes.empty() && a.AllValid(b, static_cast<int64_t>(count)) &&
          (!run_ || (run_.get() == a.buffers[1].get() && run_offset_ + run_bytes_ == src_offset))) {
        // Still one contiguous run of the input: no copy (yet).
        if (!run_) {
          run_ = a.buffers[1];
          run_offset_ = src_offset;
        }
        run_bytes_ += count * w;
        v.num_slots += count;
        v.num_valid += count;
        return;
      }
      MaterializeRun();
      const std::size_t at = v.bytes.size();
      const std::uint8_t* src = a.buffers[1]->data() + src_offset;
      v.bytes.insert(v.bytes.end(), src, src + count * w);
      if (bits != nullptr) {
        for (std::size_t k = 0; k < count; ++k) {
          if (!array::GetBit(bits, a.offset + b + static_cast<int64_t>(k))) {
            std::memset(v.bytes.data() + at + k * w, 0, w);
            --valid;
          }
        }
      }
    } else {  // kVariable
      array::BinaryView view(a);
      const std::uint64_t base = v.bytes.size();
      if (bits == nullptr) {
        const int64_t first = view.Offset(b);
        const int64_t last = view.Offset(e);
        const std::uint8_t* data = a.buffers[2] ? a.buffers[2]->data() : nullptr;
        if (last > first) v.bytes.insert(v.bytes.end(), data + first, data + last);
        int64_t prev = first;
        for (int64_t k = b; k < e; ++k) {
          const int64_t next = view.Offset(k + 1);
          v.offsets.push_back(base + static_cast<std::uint64_t>(next - first));
          v.max_value_bytes =
              std::max<std::uint64_t>(v.max_value_bytes, static_cast<std::uint64_t>(next - prev));
          prev = next;
        }
      } else {
        for (int64_t k = b; k < e; ++k) {
          if (array::GetBit(bits, a.offset + k)) {
            const std::string_view s = view.Value(k);
            v.bytes.insert(v.bytes.end(), s.begin(), s.end());
            v.max_value_bytes = std::max<std::uint64_t>(v.max_value_bytes, s.size());
          } else {
            --valid;
          }
          v.offsets.push_back(v.bytes.size());
        }
      }
    }
    v.num_slots += count;
    v.num_valid += valid;
  }

  // Copies the pending input run (if any) into the slot bytes; every other append of fixed-width
  // slots comes after this.
  void MaterializeRun() {
    SlotValues& v = page_.values;
    if (v.bytes.capacity() == 0) {
      v.bytes.reserve(count_slots_ * static_cast<std::uint64_t>(v.slot_bytes));
    }
    if (!run_) return;
    v.bytes.insert(v.bytes.end(), run_->data() + run_offset_,
                   run_->data() + run_offset_ + run_bytes_);
    run_.reset();
    run_bytes_ = 0;
  }

  bool IsNull(const ArrayData& a, int64_t i, int j) const {
    if (j == n_ - 1 && leaf_.kind == LeafKind::kNull) return true;
    return !IsValidAt(a, i);
  }

  // A struct null is pushed down through structs and the leaf, and into the first list (as
  // Lance's pushdown_nulls does); a list null hides its items.
  void MarkNull(int j) {
    has_null_[static_cast<std::size_t>(j)] = 1;
    if (Kind(j) == PathNode::Kind::kList) return;
    for (int k = j + 1; k < n_; ++k) {
      has_null_[static_cast<std::size_t>(k)] = 1;
      if (Kind(k) == PathNode::Kind::kList) break;
    }
  }

  void Scan(const ArrayData& a, int64_t i, int j) {
    if (IsNull(a, i, j)) {
      MarkNull(j);
      ++count_levels_;
      if (innermost_list_ < j) ++count_slots_;
      return;
    }
    const PathNode& node = leaf_.path[static_cast<std::size_t>(j)];
    switch (node.kind) {
      case PathNode::Kind::kStruct:
        Scan(*a.children[static_cast<std::size_t>(node.child_index)], a.offset + i, j + 1);
        return;
      case PathNode::Kind::kList: {
        array::ListView lv(a);
        const int64_t b = lv.ValueOffset(i), e = lv.ValueOffset(i + 1);
        if (b >= e) {
          has_empty_[static_cast<std::size_t>(j)] = 1;
          ++count_levels_;
          return;
        }
        const ArrayData& child = *a.children[0];
        if (j + 2 == n_ && BulkLeaf()) {
          ScanLeafRun(child, b, e);
          return;
        }
        for (int64_t k = b; k < e; ++k) Scan(child, k, j + 1);
        return;
      }
      case PathNode::Kind::kLeaf:
        ++count_levels_;
        ++count_slots_;
        return;
    }
  }

  // Lance 12 needs the layer of a struct that no list holds to agree between pages and between
  // the struct's leaf columns: when one page or one sibling column says nullable and another
  // all-valid, it miscounts the struct's validity ("Incorrect number of nulls for StructArray").
  // Its own writer takes the layers from the arrays' validity buffers. So a declared-nullable
  // struct outside any list, or such an item above a list, is a nullable layer in every leaf
  // column and on every page. Inside a list this is not done: Lance 12 misreads a nullable struct
  // layer of a page whose lists are all empty.
  bool ForcedNullable(int j, bool list_below) const {
    const array::Field* field = leaf_.path[static_cast<std::size_t>(j)].field;
    if (field == nullptr || !field->nullable()) return false;
    if (!list_below && Kind(j) != PathNode::Kind::kStruct) return false;
    for (int k = 0; k < j; ++k) {
      if (Kind(k) == PathNode::Kind::kList) return false;
    }
    return true;
  }

  void AssignLevels() {
    std::uint16_t next = 1;
    bool seen_list = false;
    std::uint16_t visible = 0;
    for (int j = n_ - 1; j >= 0; --j) {
      const auto uj = static_cast<std::size_t>(j);
      const bool list = Kind(j) == PathNode::Kind::kList;
      Layer layer;
      if (list) {
        if (has_null_[uj] && has_empty_[uj]) {
          layer = Layer::kNullAndEmptyList;
          null_level_[uj] = next;
          empty_level_[uj] = static_cast<std::uint16_t>(next + 1);
          next = static_cast<std::uint16_t>(next + 2);
        } else if (has_null_[uj]) {
          layer = Layer::kNullableList;
          null_level_[uj] = next++;
        } else if (has_empty_[uj]) {
          layer = Layer::kEmptyableList;
          empty_level_[uj] = next++;
        } else {
          layer = Layer::kAllValidList;
        }
        seen_list = true;
      } else if (has_null_[uj] || ForcedNullable(j, seen_list)) {
        layer = Layer::kNullableItem;
        null_level_[uj] = next++;
        if (!seen_list) ++visible;
      } else {
        layer = Layer::kAllValidItem;
      }
      page_.layers.push_back(layer);
    }
    page_.max_rep = max_rep_;
    page_.has_rep = max_rep_ > 0;
    page_.has_def = next > 1;
    // Without a null or an empty list anywhere, every def level is 0: none are written.
    const bool any_null_or_empty =
        std::find(has_null_.begin(), has_null_.end(), 1) != has_null_.end() ||
        std::find(has_empty_.begin(), has_empty_.end(), 1) != has_empty_.end();
    page_.def_zero = page_.has_def && !any_null_or_empty;
    page_.max_visible_def = visible;
  }

  void InitValues() {
    SlotValues& v = page_.values;
    v.kind = leaf_.kind;
    v.bits_per_offset = leaf_.bits_per_offset;
    switch (leaf_.kind) {
      case LeafKind::kFixed:
        v.slot_bytes = leaf_.byte_width;
        v.max_value_bytes = static_cast<std::uint64_t>(leaf_.byte_width);
        break;
      case LeafKind::kFixedList: {
        v.fsl_items = leaf_.items_per_value;
        v.fsl_item_bytes = leaf_.byte_width;
        v.slot_bytes = leaf_.items_per_value * leaf_.byte_width;
        v.max_value_bytes = static_cast<std::uint64_t>(v.slot_bytes);
        std::int64_t cum = 1;
        for (std::size_t d = 0; d < leaf_.fsl_dims.size(); ++d) {
          cum *= leaf_.fsl_dims[d];
          SlotValues::FslLayer layer;
          layer.items_per_value = cum;
          v.fsl_layers.push_back(std::move(layer));
        }
        break;
      }
      case LeafKind::kVariable:
        v.offsets.push_back(0);
        break;
      case LeafKind::kBool:
      case LeafKind::kNull:
      case LeafKind::kEmptyStruct:
        break;
    }
  }

  // Def levels are stored unless the page has none or they are all 0 (def_zero).
  bool WritesDef() const { return page_.has_def && !page_.def_zero; }

  void PushLevel(std::uint16_t r, std::uint16_t d) {
    if (page_.has_rep) page_.rep.push_back(r);
    if (WritesDef()) page_.def.push_back(d);
    if (page_.has_rep || page_.has_def) ++page_.num_levels;
  }

  template <typename Bytes>
  static void AppendBit(Bytes* bits, std::uint64_t index, bool value) {
    if ((index & 7) == 0) bits->push_back(0);
    if (value) bits->back() = static_cast<std::uint8_t>(bits->back() | (1u << (index & 7)));
  }

  void AppendNullSlot() {
    SlotValues& v = page_.values;
    switch (leaf_.kind) {
      case LeafKind::kFixed:
        MaterializeRun();
        v.bytes.resize(v.bytes.size() + static_cast<std::size_t>(v.slot_bytes), 0);
        break;
      case LeafKind::kFixedList:
        v.bytes.resize(v.bytes.size() + static_cast<std::size_t>(v.slot_bytes), 0);
        for (auto& layer : v.fsl_layers) {
          for (std::int64_t k = 0; k < layer.items_per_value; ++k) {
            AppendBit(&layer.bitmap, layer.num_bits++, true);
          }
        }
        break;
      case LeafKind::kBool:
        AppendBit(&v.bytes, v.num_slots, false);
        break;
      case LeafKind::kVariable:
        v.offsets.push_back(v.bytes.size());
        break;
      case LeafKind::kNull:
      case LeafKind::kEmptyStruct:
        break;
    }
    ++v.num_slots;
  }

  // Items of fixed-size-list layer `d` (0 = the leaf array itself) for `count` rows starting at
  // slot `start` of `a` (relative to a's offset).
  void AppendFslItems(const ArrayData& a, int64_t start, int64_t count, std::size_t d) {
    SlotValues& v = page_.values;
    if (d == leaf_.fsl_dims.size()) {
      // the items themselves
      const auto w = static_cast<std::size_t>(leaf_.byte_width);
      const std::uint8_t* src =
          a.buffers[1]->data() + static_cast<std::size_t>(a.offset + start) * w;
      v.bytes.insert(v.bytes.end(), src, src + static_cast<std::size_t>(count) * w);
      return;
    }
    const ArrayData& child = *a.children[0];
    const int64_t dim = leaf_.fsl_dims[d];
    const int64_t child_start = (a.offset + start) * dim;
    const int64_t child_count = count * dim;
    SlotValues::FslLayer& layer = v.fsl_layers[d];
    // validity of the child items (nested list rows or the leaf items)
    for (int64_t k = 0; k < child_count; ++k) {
      const bool valid = IsValidAt(child, child_start + k);
      if (!valid) layer.any_null = true;
      AppendBit(&layer.bitmap, layer.num_bits++, valid);
    }
    AppendFslItems(child, child_start, child_count, d + 1);
  }

  void AppendValue(const ArrayData& a, int64_t i) {
    SlotValues& v = page_.values;
    switch (leaf_.kind) {
      case LeafKind::kFixed: {
        MaterializeRun();
        const auto w = static_cast<std::size_t>(leaf_.byte_width);
        const std::uint8_t* src = a.buffers[1]->data() + static_cast<std::size_t>(a.offset + i) * w;
        v.bytes.insert(v.bytes.end(), src, src + w);
        break;
      }
      case LeafKind::kBool:
        AppendBit(&v.bytes, v.num_slots, array::GetBit(a.buffers[1]->data(), a.offset + i));
        break;
      case LeafKind::kVariable: {
        array::BinaryView view(a);
        const std::string_view s = view.Value(i);
        v.bytes.insert(v.bytes.end(), s.begin(), s.end());
        v.offsets.push_back(v.bytes.size());
        v.max_value_bytes = std::max<std::uint64_t>(v.max_value_bytes, s.size());
        break;
      }
      case LeafKind::kFixedList:
        AppendFslItems(a, i, 1, 0);
        break;
      case LeafKind::kNull:
      case LeafKind::kEmptyStruct:
        break;
    }
    ++v.num_valid;
    ++v.num_slots;
  }

  void Emit(const ArrayData& a, int64_t i, int j, std::uint16_t r) {
    const auto uj = static_cast<std::size_t>(j);
    if (IsNull(a, i, j)) {
      PushLevel(r, null_level_[uj]);
      // visible only when no list is at or inside this layer
      if (innermost_list_ < j) {
        AppendNullSlot();
      }
      return;
    }
    const PathNode& node = leaf_.path[uj];
    switch (node.kind) {
      case PathNode::Kind::kStruct:
        Emit(*a.children[static_cast<std::size_t>(node.child_index)], a.offset + i, j + 1, r);
        return;
      case PathNode::Kind::kList: {
        array::ListView lv(a);
        const int64_t b = lv.ValueOffset(i), e = lv.ValueOffset(i + 1);
        if (b >= e) {
          PushLevel(r, empty_level_[uj]);
          return;
        }
        const ArrayData& child = *a.children[0];
        const auto inner_rep = static_cast<std::uint16_t>(list_level_[uj] - 1);
        if (j + 2 == n_ && BulkLeaf()) {
          EmitLeafRun(child, b, e, r, inner_rep);
          return;
        }
        for (int64_t k = b; k < e; ++k) Emit(child, k, j + 1, k == b ? r : inner_rep);
        return;
      }
      case PathNode::Kind::kLeaf:
        PushLevel(r, 0);
        AppendValue(a, i);
        return;
    }
  }

  void FinishValues() {
    SlotValues& v = page_.values;
    if (!run_) return;
    if (v.bytes.empty()) {
      // The whole page is one run of an input buffer: view it (kept alive by the slice).
      v.external = std::make_shared<const array::Buffer>(run_->data() + run_offset_,
                                                         static_cast<int64_t>(run_bytes_),
                                                         std::shared_ptr<const void>(run_));
      run_.reset();
      return;
    }
    MaterializeRun();
  }

  const LeafColumn& leaf_;
  bool bulk_ = true;
  int n_;
  std::uint64_t count_levels_ = 0;  // level entries (with levels) or rows, found by Scan
  std::uint64_t count_slots_ = 0;   // value slots found by Scan
  // kFixed: leaf values not copied yet, bytes [run_offset_, + run_bytes_) of run_
  array::BufferPtr run_;
  std::uint64_t run_offset_ = 0;
  std::uint64_t run_bytes_ = 0;
  std::vector<char> has_null_, has_empty_;
  std::vector<std::uint16_t> null_level_, empty_level_, list_level_;
  int innermost_list_ = -1;
  std::uint16_t max_rep_ = 0;
  ShreddedPage page_;
};

}  // namespace

Result<ShreddedPage> ShredLeaf(const LeafColumn& leaf, std::span<const array::ArrayPtr> arrays,
                               ShredMode mode) {
  if (leaf.path.empty()) return Status::Internal("empty leaf path");
  Shredder shredder(leaf, mode);
  return shredder.Run(arrays);
}

std::vector<std::uint64_t> SlotLevelIndices(const ShreddedPage& page) {
  std::vector<std::uint64_t> out;
  if (!page.has_rep && !page.has_def) return out;
  out.reserve(page.values.num_slots);
  for (std::uint64_t e = 0; e < page.num_levels; ++e) {
    if (!page.has_def || page.IsVisible(page.DefAt(e))) out.push_back(e);
  }
  return out;
}

std::span<const std::uint16_t> DefLevels(const ShreddedPage& page, std::uint64_t begin,
                                         std::uint64_t count) {
  if (!page.def_zero) return std::span<const std::uint16_t>(page.def).subspan(begin, count);
  static const std::vector<std::uint16_t> kZeros(kMaxZeroDefLevels, 0);
  return std::span<const std::uint16_t>(kZeros).first(std::min(count, kMaxZeroDefLevels));
}

std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>> AllDefLevels(
    const ShreddedPage& page) {
  if (!page.def_zero) return page.def;
  return std::vector<std::uint16_t, HugePageAllocator<std::uint16_t>>(page.num_levels, 0);
}

std::uint64_t EstimateLeafBytes(const LeafColumn& leaf, const array::ArrayData& array) {
  // Walk down the path following the row ranges; cheap (no per-row work below lists other
  // than the first/last offsets).
  const ArrayData* a = &array;
  int64_t begin = 0, end = array.length;
  std::uint64_t bytes = 0;
  for (const PathNode& node : leaf.path) {
    if (end <= begin) return bytes;
    bytes += static_cast<std::uint64_t>(end - begin + 7) / 8;  // validity
    switch (node.kind) {
      case PathNode::Kind::kStruct: {
        const int64_t off = a->offset;
        a = a->children[static_cast<std::size_t>(node.child_index)].get();
        begin += off;
        end += off;
        break;
      }
      case PathNode::Kind::kList: {
        array::ListView lv(*a);
        const int64_t nb = lv.ValueOffset(begin), ne = lv.ValueOffset(end);
        bytes += static_cast<std::uint64_t>(end - begin) * 4;
        a = a->children[0].get();
        begin = nb;
        end = ne;
        break;
      }
      case PathNode::Kind::kLeaf:
        switch (leaf.kind) {
          case LeafKind::kFixed:
          case LeafKind::kFixedList:
            bytes += static_cast<std::uint64_t>(end - begin) *
                     static_cast<std::uint64_t>(leaf.byte_width * leaf.items_per_value);
            break;
          case LeafKind::kBool:
            bytes += static_cast<std::uint64_t>(end - begin + 7) / 8;
            break;
          case LeafKind::kVariable: {
            array::BinaryView view(*a);
            bytes += static_cast<std::uint64_t>(view.Offset(end) - view.Offset(begin)) +
                     static_cast<std::uint64_t>(end - begin) * (leaf.bits_per_offset / 8);
            break;
          }
          case LeafKind::kNull:
          case LeafKind::kEmptyStruct:
            break;
        }
        break;
    }
  }
  return bytes;
}

}  // namespace lance_nd::file::internal::writer
