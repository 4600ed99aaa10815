// Arrow arrays into evaluator Columns.
#include <cmath>
#include <cstring>

#include "lance_nd/array/view.h"
#include "lance_nd/query/column.h"

namespace lance_nd::query {

using array::ArrayData;
using array::TypeId;

float HalfToFloat(std::uint16_t bits) {
  const int sign = (bits >> 15) & 1;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  float v = 0;
  if (exponent == 0) {
    v = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    v = mantissa == 0 ? INFINITY : NAN;
  } else {
    v = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
  }
  return sign != 0 ? -v : v;
}

Kind KindOf(const array::DataType& type) {
  switch (type.id()) {
    case TypeId::kBool:
      return Kind::kBool;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
      return Kind::kInt;
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
      return Kind::kUInt;
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return Kind::kFloat;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      return Kind::kString;
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary:
      return Kind::kBinary;
    case TypeId::kDate32:
      return Kind::kDate;
    case TypeId::kDate64:
    case TypeId::kTimestamp:
      return Kind::kTimestamp;
    case TypeId::kDuration:
      return Kind::kDuration;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
      return Kind::kList;
    case TypeId::kStruct:
      return Kind::kStruct;
    default:
      return Kind::kNull;
  }
}

namespace {

template <typename T, typename Out>
void LoadValues(const ArrayData& a, std::int64_t base, std::int64_t n, std::vector<Out>* out) {
  const T* v = a.values<T>(1);
  out->resize(static_cast<std::size_t>(n));
  if (v == nullptr) return;
  for (std::int64_t i = 0; i < n; ++i) {
    // NOLINTNEXTLINE(bugprone-signed-char-misuse): int8 values are numbers, not characters
    (*out)[static_cast<std::size_t>(i)] = static_cast<Out>(v[base + i]);
  }
}

void LoadInts(const ArrayData& a, std::int64_t base, std::int64_t n, Column* c) {
  switch (a.type->id()) {
    case TypeId::kInt8:
      return LoadValues<std::int8_t>(a, base, n, &c->ints);
    case TypeId::kInt16:
      return LoadValues<std::int16_t>(a, base, n, &c->ints);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return LoadValues<std::int32_t>(a, base, n, &c->ints);
    default:
      return LoadValues<std::int64_t>(a, base, n, &c->ints);
  }
}

void LoadUInts(const ArrayData& a, std::int64_t base, std::int64_t n, Column* c) {
  switch (a.type->id()) {
    case TypeId::kUInt8:
      return LoadValues<std::uint8_t>(a, base, n, &c->uints);
    case TypeId::kUInt16:
      return LoadValues<std::uint16_t>(a, base, n, &c->uints);
    case TypeId::kUInt32:
      return LoadValues<std::uint32_t>(a, base, n, &c->uints);
    default:
      return LoadValues<std::uint64_t>(a, base, n, &c->uints);
  }
}

void LoadFloats(const ArrayData& a, std::int64_t base, std::int64_t n, Column* c) {
  if (a.type->id() == TypeId::kFloat64) return LoadValues<double>(a, base, n, &c->floats);
  if (a.type->id() == TypeId::kFloat32) return LoadValues<float>(a, base, n, &c->floats);
  std::vector<std::uint16_t> bits;
  LoadValues<std::uint16_t>(a, base, n, &bits);
  c->floats.resize(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) c->floats[i] = HalfToFloat(bits[i]);
}

void LoadStrings(const ArrayData& a, std::int64_t base, std::int64_t n, Column* c) {
  c->strings.resize(static_cast<std::size_t>(n));
  if (a.type->id() == TypeId::kFixedSizeBinary) {
    const auto width = static_cast<std::size_t>(a.type->fixed_size());
    const auto* data = a.buffers.size() > 1 && a.buffers[1] ? a.buffers[1]->data() : nullptr;
    if (data == nullptr) return;
    for (std::int64_t i = 0; i < n; ++i) {
      const auto slot = static_cast<std::size_t>(a.offset + base + i);
      c->strings[static_cast<std::size_t>(i)] = {reinterpret_cast<const char*>(data) + slot * width,
                                                 width};
    }
    return;
  }
  const array::BinaryView view(a);
  for (std::int64_t i = 0; i < n; ++i) {
    c->strings[static_cast<std::size_t>(i)] = view.Value(base + i);
  }
}

void LoadList(const ArrayData& a, std::int64_t base, std::int64_t n, Column* c) {
  const array::ListView view(a);
  c->offsets.resize(static_cast<std::size_t>(n + 1));
  const std::int64_t first = n > 0 ? view.ValueOffset(base) : 0;
  const std::int64_t last = n > 0 ? view.ValueOffset(base + n) : 0;
  for (std::int64_t i = 0; i <= n; ++i) {
    // Null rows keep their (possibly non-empty) range: their items are never read.
    c->offsets[static_cast<std::size_t>(i)] = (n > 0 ? view.ValueOffset(base + i) : 0) - first;
  }
  // List offsets index the child as it is, so the child's own offset is not added here.
  c->items = LoadColumn(*a.children[0], first, last - first, nullptr);
}

}  // namespace

std::shared_ptr<Column> LoadColumn(const ArrayData& a, std::int64_t base, std::int64_t n,
                                   const std::vector<std::uint8_t>* parent_valid) {
  auto c = std::make_shared<Column>();
  c->kind = KindOf(*a.type);
  c->type = a.type;
  c->length = n;
  c->valid.assign(static_cast<std::size_t>(n), 1);
  const std::uint8_t* bits = a.validity();
  if (a.type->id() == TypeId::kNull) {
    c->valid.assign(static_cast<std::size_t>(n), 0);
  } else if (bits != nullptr) {
    for (std::int64_t i = 0; i < n; ++i) {
      c->valid[static_cast<std::size_t>(i)] = array::GetBit(bits, a.offset + base + i) ? 1 : 0;
    }
  }
  if (parent_valid != nullptr) {
    for (std::size_t i = 0; i < c->valid.size(); ++i) c->valid[i] &= (*parent_valid)[i];
  }
  switch (c->kind) {
    case Kind::kBool: {
      c->bools.resize(static_cast<std::size_t>(n));
      const std::uint8_t* values =
          a.buffers.size() > 1 && a.buffers[1] ? a.buffers[1]->data() : nullptr;
      for (std::int64_t i = 0; values != nullptr && i < n; ++i) {
        c->bools[static_cast<std::size_t>(i)] = array::GetBit(values, a.offset + base + i) ? 1 : 0;
      }
      break;
    }
    case Kind::kInt:
    case Kind::kDate:
    case Kind::kTimestamp:
    case Kind::kDuration:
      LoadInts(a, base, n, c.get());
      if (a.type->id() == TypeId::kDate64) c->type = array::Timestamp(array::TimeUnit::kMilli);
      break;
    case Kind::kUInt:
      LoadUInts(a, base, n, c.get());
      break;
    case Kind::kFloat:
      LoadFloats(a, base, n, c.get());
      break;
    case Kind::kString:
    case Kind::kBinary:
      LoadStrings(a, base, n, c.get());
      break;
    case Kind::kList:
      LoadList(a, base, n, c.get());
      break;
    case Kind::kStruct:
    case Kind::kNull:
      break;
  }
  return c;
}

std::shared_ptr<Column> NullColumn(std::int64_t length) {
  auto c = std::make_shared<Column>();
  c->type = array::Null();
  c->length = length;
  c->valid.assign(static_cast<std::size_t>(length), 0);
  return c;
}

}  // namespace lance_nd::query
