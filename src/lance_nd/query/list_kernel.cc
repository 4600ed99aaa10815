// Functions on list columns: array_has and array_length.
#include "lance_nd/query/kernels.h"

namespace lance_nd::query {
namespace {

template <typename T>
void TakeInto(const std::vector<T>& from, const std::vector<std::int64_t>& idx,
              std::vector<T>* to) {
  if (from.empty()) return;
  to->resize(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) (*to)[i] = from[static_cast<std::size_t>(idx[i])];
}

// Rows `idx` of a column of scalars.
ColumnPtr Take(const Column& c, const std::vector<std::int64_t>& idx) {
  auto out = std::make_shared<Column>();
  out->kind = c.kind;
  out->type = c.type;
  out->length = static_cast<std::int64_t>(idx.size());
  out->arena = c.arena;
  TakeInto(c.valid, idx, &out->valid);
  TakeInto(c.bools, idx, &out->bools);
  TakeInto(c.ints, idx, &out->ints);
  TakeInto(c.uints, idx, &out->uints);
  TakeInto(c.floats, idx, &out->floats);
  TakeInto(c.strings, idx, &out->strings);
  if (out->valid.empty()) out->valid.assign(idx.size(), 0);
  return out;
}

}  // namespace

Result<ColumnPtr> ArrayHas(const Column& list, const ColumnPtr& value, bool zero_equal) {
  auto out = BoolColumn(list.length);
  if (list.kind != Kind::kList) {
    out->valid.assign(out->valid.size(), 0);
    return ColumnPtr(out);
  }
  // The needle repeated once per item of its row, compared with all items at once.
  std::vector<std::int64_t> owner;
  owner.reserve(static_cast<std::size_t>(list.items->length));
  for (std::int64_t r = 0; r < list.length; ++r) {
    for (std::int64_t k = list.offsets[static_cast<std::size_t>(r)];
         k < list.offsets[static_cast<std::size_t>(r + 1)]; ++k) {
      owner.push_back(r);
    }
  }
  const auto first = list.offsets.empty() ? 0 : list.offsets[0];
  std::vector<std::int64_t> item_rows(owner.size());
  for (std::size_t k = 0; k < owner.size(); ++k) {
    item_rows[k] = first + static_cast<std::int64_t>(k);
  }
  ColumnPtr items = Take(*list.items, item_rows);
  LND_ASSIGN_OR_RETURN(ColumnPtr eq,
                       Compare(BinaryOp::kEq, items, Take(*value, owner), zero_equal));
  for (std::int64_t r = 0; r < list.length; ++r) {
    const auto i = static_cast<std::size_t>(r);
    out->valid[i] = static_cast<std::uint8_t>(list.valid[i] & value->valid[i]);
  }
  for (std::size_t k = 0; k < owner.size(); ++k) {
    if (eq->valid[k] && eq->bools[k]) out->bools[static_cast<std::size_t>(owner[k])] = 1;
  }
  return ColumnPtr(out);
}

ColumnPtr ArrayLength(const Column& list) {
  auto out = std::make_shared<Column>();
  out->kind = Kind::kUInt;
  out->type = array::UInt64();
  out->length = list.length;
  out->valid = list.valid;
  out->uints.assign(static_cast<std::size_t>(list.length), 0);
  for (std::size_t i = 0; i < out->uints.size() && !list.offsets.empty(); ++i) {
    out->uints[i] = static_cast<std::uint64_t>(list.offsets[i + 1] - list.offsets[i]);
  }
  return out;
}

}  // namespace lance_nd::query
