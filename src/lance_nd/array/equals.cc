// Logical array equality.
#include <cmath>
#include <cstring>

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
      return GetBit(a.buffers[1]->data(), a.offset + i) == GetBit(b.buffers[1]->data(), b.offset + j);
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
                         b.buffers[1]->data() + (b.offset + j) * w, static_cast<std::size_t>(w)) == 0;
    }
  }
}

bool RangeEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi, int64_t n) {
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
