// Casts: numeric (checked), temporal units, binary offsets/utf8, and through nested types.
#include "lance_nd/array/cast.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "lance_nd/array/builder.h"
#include "lance_nd/array/utf8.h"
#include "lance_nd/array/view.h"
#include "lance_nd/core/internal/checked_math.h"

namespace lance_nd::array {
namespace {

// ---- kinds and widths ----

enum class Kind { kBool = 0, kUnsigned = 1, kSigned = 2, kFloat = 3, kOther = 4 };

Kind KindOf(const DataType& t) {
  if (t.id() == TypeId::kBool) return Kind::kBool;
  if (t.is_unsigned_integer()) return Kind::kUnsigned;
  if (t.is_signed_integer()) return Kind::kSigned;
  if (t.is_floating()) return Kind::kFloat;
  return Kind::kOther;
}

bool IsNumberKind(Kind k) { return k != Kind::kOther; }

// Bits of magnitude an integer type needs (sign excluded), or bool: 1.
int MagnitudeBits(const DataType& t) {
  if (t.id() == TypeId::kBool) return 1;
  return t.bit_width() - (t.is_signed_integer() ? 1 : 0);
}

// Significand bits (incl. the implicit bit) of a float type.
int SignificandBits(TypeId id) {
  switch (id) {
    case TypeId::kFloat16:
      return 11;
    case TypeId::kFloat32:
      return 24;
    default:
      return 53;
  }
}

bool NumericSafe(const DataType& from, const DataType& to) {
  const Kind fk = KindOf(from), tk = KindOf(to);
  if (fk == Kind::kBool) return true;
  if (tk == Kind::kBool) return false;
  if (fk == Kind::kFloat) return tk == Kind::kFloat && to.bit_width() >= from.bit_width();
  if (tk == Kind::kFloat) return MagnitudeBits(from) <= SignificandBits(to.id());
  if (fk == Kind::kSigned && tk == Kind::kUnsigned) return false;
  if (fk == Kind::kUnsigned && tk == Kind::kSigned) return to.bit_width() > from.bit_width();
  return to.bit_width() >= from.bit_width();
}

bool NumericSameKind(const DataType& from, const DataType& to) {
  return static_cast<int>(KindOf(to)) >= static_cast<int>(KindOf(from));
}

bool IsTimeLike(TypeId id) { return id == TypeId::kTimestamp || id == TypeId::kDuration; }

bool IsLargeBinary(TypeId id) { return id == TypeId::kLargeUtf8 || id == TypeId::kLargeBinary; }
bool IsUtf8(TypeId id) { return id == TypeId::kUtf8 || id == TypeId::kLargeUtf8; }

bool Supported(const DataType& from, const DataType& to, CastMode mode) {
  if (from.Equals(to, /*check_metadata=*/false)) return true;
  const bool same_kind = mode == CastMode::kSameKind;
  const TypeId f = from.id(), t = to.id();
  if (f == TypeId::kNull) return true;
  const Kind fk = KindOf(from), tk = KindOf(to);
  if (IsNumberKind(fk) && IsNumberKind(tk)) {
    return NumericSafe(from, to) || (same_kind && NumericSameKind(from, to));
  }
  if (f == TypeId::kDate32 && t == TypeId::kDate64) return true;
  if (IsTimeLike(f) && f == t) {
    if (same_kind) return true;
    return from.unit() == to.unit() && from.timezone() == to.timezone();
  }
  if (from.is_binary_like() && to.is_binary_like()) {
    if (same_kind) return true;
    const bool offsets_ok = IsLargeBinary(t) || !IsLargeBinary(f);
    const bool content_ok = IsUtf8(f) || !IsUtf8(t);
    return offsets_ok && content_ok;
  }
  if (from.is_list_like() && to.is_list_like()) {
    if (t == TypeId::kFixedSizeList) {
      if (f != TypeId::kFixedSizeList || from.fixed_size() != to.fixed_size()) return false;
    }
    if (f == TypeId::kLargeList && t == TypeId::kList && !same_kind) return false;
    return Supported(*from.value_type(), *to.value_type(), mode);
  }
  if (f == TypeId::kStruct && t == TypeId::kStruct) {
    if (from.children().size() != to.children().size()) return false;
    for (std::size_t i = 0; i < from.children().size(); ++i) {
      if (from.children()[i]->name() != to.children()[i]->name()) return false;
      if (!Supported(*from.children()[i]->type(), *to.children()[i]->type(), mode)) return false;
    }
    return true;
  }
  return false;
}

// ---- helpers ----

template <typename T>
std::string NumStr(T v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

// Validity bits [offset, offset+length) copied to a new bitmap starting at bit 0 (null when the
// array has no bitmap).
BufferPtr RebaseValidity(const ArrayData& a) {
  const std::uint8_t* bits = a.validity();
  if (bits == nullptr) return nullptr;
  std::uint8_t* out = nullptr;
  BufferPtr buf = Buffer::AllocateZeroed(BytesForBits(a.length), &out);
  for (int64_t i = 0; i < a.length; ++i) {
    if (GetBit(bits, a.offset + i)) SetBit(out, i);
  }
  return buf;
}

Status OutOfRange(const DataType& from, const DataType& to, const std::string& value, int64_t row,
                  const char* why) {
  return Status::InvalidArgument("cannot cast " + from.ToString() + " to " + to.ToString() +
                                 ": value " + value + " at row " + std::to_string(row) + " " + why +
                                 "; use a wider type");
}

// ---- float16 ----

double HalfToDouble(std::uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exp = (h >> 10) & 0x1F;
  const int mant = h & 0x3FF;
  double v;
  if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), -24);
  } else if (exp == 31) {
    v = mant != 0 ? std::numeric_limits<double>::quiet_NaN()
                  : std::numeric_limits<double>::infinity();
  } else {
    v = std::ldexp(static_cast<double>(mant + 1024), exp - 25);
  }
  return sign ? -v : v;
}

// Round-to-nearest-even conversion; returns infinity (0x7C00 | sign) on overflow.
std::uint16_t DoubleToHalf(double d) {
  const std::uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  if (std::isnan(d)) return static_cast<std::uint16_t>(sign | 0x7E00);
  const double a = std::fabs(d);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | 0x7C00);
  if (a < std::ldexp(1.0, -14)) {  // subnormal (or zero): units of 2^-24
    const double r = std::nearbyint(std::ldexp(a, 24));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(r));
  }
  int e = 0;
  std::frexp(a, &e);                                 // a = m * 2^e, m in [0.5, 1)
  double r = std::nearbyint(std::ldexp(a, 11 - e));  // in [1024, 2048]
  int exp = e - 1;
  if (r >= 2048.0) {
    r = 1024.0;
    ++exp;
  }
  if (exp > 15) return static_cast<std::uint16_t>(sign | 0x7C00);
  return static_cast<std::uint16_t>(sign | ((exp + 15) << 10) | (static_cast<int>(r) - 1024));
}

// ---- numeric kernel ----

struct Num {
  enum class K { kInt, kUInt, kFloat } k;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
};

Num ReadNum(const ArrayData& a, int64_t row) {
  const int64_t j = a.offset + row;
  const std::uint8_t* p = a.buffers[1]->data();
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p + j * static_cast<int64_t>(sizeof(v)), sizeof(v));
    return v;
  };
  switch (a.type->id()) {
    case TypeId::kBool:
      return {Num::K::kUInt, 0, GetBit(p, j) ? 1u : 0u, 0};
    case TypeId::kInt8:
      return {Num::K::kInt, load(int8_t{}), 0, 0};
    case TypeId::kInt16:
      return {Num::K::kInt, load(int16_t{}), 0, 0};
    case TypeId::kInt32:
      return {Num::K::kInt, load(int32_t{}), 0, 0};
    case TypeId::kInt64:
      return {Num::K::kInt, load(int64_t{}), 0, 0};
    case TypeId::kUInt8:
      return {Num::K::kUInt, 0, load(uint8_t{}), 0};
    case TypeId::kUInt16:
      return {Num::K::kUInt, 0, load(uint16_t{}), 0};
    case TypeId::kUInt32:
      return {Num::K::kUInt, 0, load(uint32_t{}), 0};
    case TypeId::kUInt64:
      return {Num::K::kUInt, 0, load(uint64_t{}), 0};
    case TypeId::kFloat16:
      return {Num::K::kFloat, 0, 0, HalfToDouble(load(uint16_t{}))};
    case TypeId::kFloat32:
      return {Num::K::kFloat, 0, 0, static_cast<double>(load(float{}))};
    default:
      return {Num::K::kFloat, 0, 0, load(double{})};
  }
}

std::string NumToString(const Num& v) {
  switch (v.k) {
    case Num::K::kInt:
      return NumStr(v.i);
    case Num::K::kUInt:
      return NumStr(v.u);
    default:
      return std::isnan(v.f) ? "nan" : NumStr(v.f);
  }
}

double NumToDouble(const Num& v) {
  switch (v.k) {
    case Num::K::kInt:
      return static_cast<double>(v.i);
    case Num::K::kUInt:
      return static_cast<double>(v.u);
    default:
      return v.f;
  }
}

template <typename T>
bool StoreInt(const Num& v, std::uint8_t* out, int64_t row) {
  T x;
  if (v.k == Num::K::kInt) {
    if (!std::in_range<T>(v.i)) return false;
    x = static_cast<T>(v.i);
  } else if (v.k == Num::K::kUInt) {
    if (!std::in_range<T>(v.u)) return false;
    x = static_cast<T>(v.u);
  } else {
    return false;  // float -> integer is never supported
  }
  std::memcpy(out + row * static_cast<int64_t>(sizeof(T)), &x, sizeof(T));
  return true;
}

// Stores v into slot `row` of `out` (type `to`); false when it does not fit.
bool StoreNum(const Num& v, TypeId to, std::uint8_t* out, int64_t row) {
  switch (to) {
    case TypeId::kInt8:
      return StoreInt<int8_t>(v, out, row);
    case TypeId::kInt16:
      return StoreInt<int16_t>(v, out, row);
    case TypeId::kInt32:
      return StoreInt<int32_t>(v, out, row);
    case TypeId::kInt64:
      return StoreInt<int64_t>(v, out, row);
    case TypeId::kUInt8:
      return StoreInt<uint8_t>(v, out, row);
    case TypeId::kUInt16:
      return StoreInt<uint16_t>(v, out, row);
    case TypeId::kUInt32:
      return StoreInt<uint32_t>(v, out, row);
    case TypeId::kUInt64:
      return StoreInt<uint64_t>(v, out, row);
    case TypeId::kFloat16: {
      const double d = NumToDouble(v);
      const std::uint16_t h = DoubleToHalf(d);
      if (std::isfinite(d) && (h & 0x7FFF) == 0x7C00) return false;
      std::memcpy(out + row * 2, &h, 2);
      return true;
    }
    case TypeId::kFloat32: {
      const double d = NumToDouble(v);
      // Finite values at or past FLT_MAX + half an ulp would round to infinity.
      const double limit =
          static_cast<double>(std::numeric_limits<float>::max()) + std::ldexp(1.0, 103);
      if (std::isfinite(d) && std::fabs(d) >= limit) return false;
      const float x = std::isfinite(d) ? static_cast<float>(d)
                      : std::isnan(d)  ? std::numeric_limits<float>::quiet_NaN()
                      : d > 0          ? std::numeric_limits<float>::infinity()
                                       : -std::numeric_limits<float>::infinity();
      std::memcpy(out + row * 4, &x, 4);
      return true;
    }
    case TypeId::kFloat64: {
      const double d = NumToDouble(v);
      std::memcpy(out + row * 8, &d, 8);
      return true;
    }
    default:
      return false;
  }
}

Result<ArrayPtr> CastNumeric(const ArrayData& a, const DataTypePtr& to) {
  BufferPtr validity = RebaseValidity(a);
  if (to->id() == TypeId::kBool) {  // only bool -> bool reaches here, handled by identity
    return Status::InvalidArgument("cannot cast " + a.type->ToString() + " to bool");
  }
  std::uint8_t* out = nullptr;
  BufferPtr values = Buffer::AllocateZeroed(a.length * to->byte_width(), &out);
  for (int64_t row = 0; row < a.length; ++row) {
    if (!a.IsValid(row)) continue;
    const Num v = ReadNum(a, row);
    if (!StoreNum(v, to->id(), out, row)) {
      return OutOfRange(*a.type, *to, NumToString(v), row, "is out of range");
    }
  }
  return MakeArrayData(to, a.length, {std::move(validity), std::move(values)}, {}, a.null_count());
}

// ---- temporal ----

int64_t Pow10(int n) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

Result<ArrayPtr> CastTime(const ArrayData& a, const DataTypePtr& to, int64_t mul, int64_t div) {
  BufferPtr validity = RebaseValidity(a);
  std::uint8_t* out_bytes = nullptr;
  BufferPtr values = Buffer::AllocateZeroed(a.length * 8, &out_bytes);
  auto* out = reinterpret_cast<int64_t*>(out_bytes);
  const bool from32 = a.type->id() == TypeId::kDate32;
  const std::uint8_t* in = a.length == 0 ? nullptr : a.buffers[1]->data();
  for (int64_t row = 0; row < a.length; ++row) {
    if (!a.IsValid(row)) continue;
    int64_t v = from32 ? reinterpret_cast<const int32_t*>(in)[a.offset + row]
                       : reinterpret_cast<const int64_t*>(in)[a.offset + row];
    if (mul != 1) {
      const auto m = CheckedMul(v, mul);
      if (!m) {
        return OutOfRange(*a.type, *to, std::to_string(v), row,
                          "overflows int64 in the finer unit");
      }
      v = *m;
    }
    if (div != 1) {
      if (v % div != 0) {
        return Status::InvalidArgument(
            "cannot cast " + a.type->ToString() + " to " + to->ToString() + ": value " +
            std::to_string(v) + " at row " + std::to_string(row) + " is not a whole number of " +
            std::string(TimeUnitName(to->unit())) +
            "; keep the finer unit or round the values first");
      }
      v /= div;
    }
    out[row] = v;
  }
  return MakeArrayData(to, a.length, {std::move(validity), std::move(values)}, {}, a.null_count());
}

// ---- binary-like ----

Result<ArrayPtr> CastBinary(const ArrayData& a, const DataTypePtr& to) {
  BinaryView view(a);
  BinaryBuilder b(to);
  const bool check_utf8 = IsUtf8(to->id()) && !IsUtf8(a.type->id());
  for (int64_t row = 0; row < a.length; ++row) {
    if (view.IsNull(row)) {
      b.AppendNull();
      continue;
    }
    const std::string_view v = view.Value(row);
    if (check_utf8 && internal::FirstInvalidUtf8(reinterpret_cast<const std::uint8_t*>(v.data()),
                                                 static_cast<int64_t>(v.size())) >= 0) {
      return Status::InvalidArgument("cannot cast " + a.type->ToString() + " to " + to->ToString() +
                                     ": value at row " + std::to_string(row) +
                                     " is not valid UTF-8; keep it as binary");
    }
    b.Append(v);
  }
  return b.Finish().WithContext("cannot cast " + a.type->ToString() + " to " + to->ToString());
}

Result<ArrayPtr> CastImpl(const ArrayPtr& array, const DataTypePtr& to, CastMode mode);

// ---- nested ----

Result<ArrayPtr> CastList(const ArrayPtr& array, const DataTypePtr& to, CastMode mode) {
  const ArrayData& a = *array;
  ListView view(a);
  const int64_t begin = view.ValueOffset(0);
  const int64_t end = view.ValueOffset(a.length);
  LND_ASSIGN_OR_RETURN(ArrayPtr child, Slice(a.children[0], begin, end - begin));
  LND_ASSIGN_OR_RETURN_CTX(ArrayPtr cast_child, CastImpl(child, to->value_type(), mode),
                           "list values");
  BufferPtr validity = RebaseValidity(a);
  if (to->id() == TypeId::kFixedSizeList) {
    return MakeArrayData(to, a.length, {std::move(validity)}, {std::move(cast_child)},
                         a.null_count());
  }
  const bool large = to->id() == TypeId::kLargeList;
  if (!large && end - begin > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("cannot cast " + a.type->ToString() + " to " + to->ToString() +
                                   ": " + std::to_string(end - begin) +
                                   " list items exceed what int32 offsets can address");
  }
  const int64_t width = large ? 8 : 4;
  std::uint8_t* out = nullptr;
  BufferPtr offsets = Buffer::AllocateZeroed((a.length + 1) * width, &out);
  for (int64_t i = 0; i <= a.length; ++i) {
    const int64_t o = view.ValueOffset(i) - begin;
    if (large) {
      std::memcpy(out + i * 8, &o, 8);
    } else {
      const auto o32 = static_cast<int32_t>(o);
      std::memcpy(out + i * 4, &o32, 4);
    }
  }
  return MakeArrayData(to, a.length, {std::move(validity), std::move(offsets)},
                       {std::move(cast_child)}, a.null_count());
}

Result<ArrayPtr> CastStruct(const ArrayPtr& array, const DataTypePtr& to, CastMode mode) {
  const ArrayData& a = *array;
  std::vector<ArrayPtr> children;
  for (std::size_t i = 0; i < a.children.size(); ++i) {
    const Field& f = *to->children()[i];
    LND_ASSIGN_OR_RETURN(ArrayPtr child, Slice(a.children[i], a.offset, a.length));
    LND_ASSIGN_OR_RETURN_CTX(ArrayPtr cast_child, CastImpl(child, f.type(), mode),
                             "field '" + f.name() + "'");
    children.push_back(std::move(cast_child));
  }
  return MakeArrayData(to, a.length, {RebaseValidity(a)}, std::move(children), a.null_count());
}

Result<ArrayPtr> CastImpl(const ArrayPtr& array, const DataTypePtr& to, CastMode mode) {
  const ArrayData& a = *array;
  const DataType& from = *a.type;
  if (from.Equals(*to, /*check_metadata=*/true)) return array;
  if (!Supported(from, *to, mode)) {
    const bool safe_only = mode == CastMode::kSafe && Supported(from, *to, CastMode::kSameKind);
    return Status::InvalidArgument(
        "cannot cast " + from.ToString() + " to " + to->ToString() +
        (safe_only ? ": not every value is representable; use same_kind casting to check the "
                     "values"
                   : ": the types are of different kinds"));
  }
  const TypeId f = from.id(), t = to->id();
  if (f == TypeId::kNull) return MakeArrayOfNulls(to, a.length);
  if (IsNumberKind(KindOf(from)) && IsNumberKind(KindOf(*to))) {
    if (f == t) return MakeArrayData(to, a.length, a.buffers, {}, a.null_count_hint, a.offset);
    return CastNumeric(a, to);
  }
  if (f == TypeId::kDate32) return CastTime(a, to, 86'400'000, 1);
  if (IsTimeLike(f)) {
    const int d = 3 * (static_cast<int>(to->unit()) - static_cast<int>(from.unit()));
    if (d == 0) return MakeArrayData(to, a.length, a.buffers, {}, a.null_count_hint, a.offset);
    return d > 0 ? CastTime(a, to, Pow10(d), 1) : CastTime(a, to, 1, Pow10(-d));
  }
  if (from.is_binary_like()) {
    if (IsLargeBinary(f) == IsLargeBinary(t) && !(IsUtf8(t) && !IsUtf8(f))) {
      // Same offsets width, no UTF-8 check needed: reuse the buffers.
      return MakeArrayData(to, a.length, a.buffers, {}, a.null_count_hint, a.offset);
    }
    return CastBinary(a, to);
  }
  if (from.is_list_like()) return CastList(array, to, mode);
  if (f == TypeId::kStruct) return CastStruct(array, to, mode);
  return Status::InvalidArgument("cannot cast " + from.ToString() + " to " + to->ToString());
}

}  // namespace

bool CanRepresentAll(const DataType& from, const DataType& to) {
  return Supported(from, to, CastMode::kSafe);
}

bool CanCast(const DataType& from, const DataType& to, CastMode mode) {
  return Supported(from, to, mode);
}

Result<ArrayPtr> Cast(const ArrayPtr& array, const DataTypePtr& to, CastMode mode) {
  if (!array || !array->type || !to) return Status::InvalidArgument("cast of a null array or type");
  return CastImpl(array, to, mode);
}

}  // namespace lance_nd::array
