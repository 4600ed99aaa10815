// Logical array equality.
#include <cmath>
#include <cstring>
#include <optional>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/view.h"

namespace lance_nd::array {
namespace {

template <typename F>
bool FloatEq(F x, F y) {
  if (std::isnan(x) && std::isnan(y)) return true;
  return std::memcmp(&x, &y, sizeof(F)) == 0;
}

bool HalfEq(std::uint16_t x, std::uint16_t y) {
  const auto is_nan = [](std::uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; };
  return x == y || (is_nan(x) && is_nan(y));
}

// Compare `n` slots: a[ai..ai+n) with b[bi..bi+n), indices relative to each array's offset.
bool RangeEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi, int64_t n);

bool SlotValuesEqual(const ArrayData& a, int64_t i, const ArrayData& b, int64_t j) {
  switch (a.type->id()) {
    case TypeId::kNull:
      return true;
    case TypeId::kBool:
      return GetBit(a.buffers[1]->data(), a.offset + i) ==
             GetBit(b.buffers[1]->data(), b.offset + j);
    case TypeId::kFloat16:
      return HalfEq(a.values<std::uint16_t>()[i], b.values<std::uint16_t>()[j]);
    case TypeId::kFloat32:
      return FloatEq(a.values<float>()[i], b.values<float>()[j]);
    case TypeId::kFloat64:
      return FloatEq(a.values<double>()[i], b.values<double>()[j]);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return BinaryView(a).Value(i) == BinaryView(b).Value(j);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      ListView la(a), lb(b);
      const int64_t n = la.ValueLength(i);
      if (n != lb.ValueLength(j)) return false;
      return RangeEquals(*la.values(), la.ValueOffset(i), *lb.values(), lb.ValueOffset(j), n);
    }
    case TypeId::kStruct:
      for (std::size_t c = 0; c < a.children.size(); ++c) {
        if (!RangeEquals(*a.children[c], a.offset + i, *b.children[c], b.offset + j, 1)) {
          return false;
        }
      }
      return true;
    default: {  // fixed-width: compare bytes
      const int64_t w = a.type->byte_width();
      return std::memcmp(a.buffers[1]->data() + (a.offset + i) * w,
                         b.buffers[1]->data() + (b.offset + j) * w,
                         static_cast<std::size_t>(w)) == 0;
    }
  }
}

// Without validity bitmaps, types whose slots hold no bytes of their own compare as whole ranges:
// a struct by its children, a fixed-size list by its child's range, fixed-width integers by one
// memcmp. The length of such an array is backed by no buffer of its own (a struct with no
// children can claim 2^40 rows in a few bytes of IPC), so a slot-by-slot loop could run forever.
std::optional<bool> BulkEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi,
                               int64_t n) {
  switch (a.type->id()) {
    case TypeId::kStruct:
      for (std::size_t c = 0; c < a.children.size(); ++c) {
        if (!RangeEquals(*a.children[c], a.offset + ai, *b.children[c], b.offset + bi, n)) {
          return false;
        }
      }
      return true;
    case TypeId::kFixedSizeList: {
      const int64_t size = a.type->fixed_size();
      return RangeEquals(*a.children[0], (a.offset + ai) * size, *b.children[0],
                         (b.offset + bi) * size, n * size);
    }
    case TypeId::kFixedSizeBinary:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: {
      const int64_t w = a.type->byte_width();
      if (w == 0 || n == 0) return true;
      return std::memcmp(a.buffers[1]->data() + (a.offset + ai) * w,
                         b.buffers[1]->data() + (b.offset + bi) * w,
                         static_cast<std::size_t>(n * w)) == 0;
    }
    default:
      return std::nullopt;
  }
}

bool RangeEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi, int64_t n) {
  if (a.type->id() == TypeId::kNull) return true;  // every slot is null
  if (a.validity() == nullptr && b.validity() == nullptr) {
    if (const std::optional<bool> bulk = BulkEquals(a, ai, b, bi, n)) return *bulk;
  }
  for (int64_t k = 0; k < n; ++k) {
    const bool va = a.IsValid(ai + k), vb = b.IsValid(bi + k);
    if (va != vb) return false;
    if (va && !SlotValuesEqual(a, ai + k, b, bi + k)) return false;
  }
  return true;
}

}  // namespace

bool ArrayEquals(const ArrayData& a, const ArrayData& b, bool check_metadata) {
  if (&a == &b) return true;
  if (!a.type || !b.type || !a.type->Equals(*b.type, check_metadata)) return false;
  if (a.length != b.length) return false;
  return RangeEquals(a, 0, b, 0, a.length);
}

}  // namespace lance_nd::array
