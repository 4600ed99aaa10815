#include "lance_nd/query/coercion.h"

#include <algorithm>

namespace lance_nd::query {

using array::DataType;
using array::DataTypePtr;
using array::TimeUnit;
using array::TypeId;

bool IsNumberKind(Kind k) { return k == Kind::kInt || k == Kind::kUInt || k == Kind::kFloat; }

TimeUnit FinerUnit(TimeUnit a, TimeUnit b) {
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

std::int64_t TicksPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 1;
    case TimeUnit::kMilli:
      return 1000;
    case TimeUnit::kMicro:
      return 1000000;
    case TimeUnit::kNano:
      return 1000000000;
  }
  return 1;
}

namespace {

bool IsTextKind(Kind k) { return k == Kind::kString || k == Kind::kBinary; }
bool IsTemporalPoint(Kind k) { return k == Kind::kDate || k == Kind::kTimestamp; }

DataTypePtr TimestampType(const DataType& t) {
  return t.id() == TypeId::kTimestamp ? array::Timestamp(t.unit(), t.timezone())
                                      : array::Timestamp(TimeUnit::kMilli);
}

// Date or timestamp meeting date or timestamp.
DataTypePtr CommonPoint(const DataTypePtr& a, const DataTypePtr& b) {
  const Kind ka = KindOf(*a), kb = KindOf(*b);
  if (ka == Kind::kDate && kb == Kind::kDate) return array::Date32();
  if (ka == Kind::kDate) return TimestampType(*b);
  if (kb == Kind::kDate) return TimestampType(*a);
  const DataTypePtr ta = TimestampType(*a), tb = TimestampType(*b);
  return array::Timestamp(FinerUnit(ta->unit(), tb->unit()), ta->timezone());
}

int IntWidth(const DataType& t) { return t.bit_width(); }

DataTypePtr IntType(bool is_signed, int bits) {
  if (is_signed) {
    return bits <= 8    ? array::Int8()
           : bits <= 16 ? array::Int16()
           : bits <= 32 ? array::Int32()
                        : array::Int64();
  }
  return bits <= 8    ? array::UInt8()
         : bits <= 16 ? array::UInt16()
         : bits <= 32 ? array::UInt32()
                      : array::UInt64();
}

}  // namespace

DataTypePtr ComparisonType(const DataTypePtr& a, const DataTypePtr& b) {
  const Kind ka = KindOf(*a), kb = KindOf(*b);
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  if (IsNumberKind(ka) && IsNumberKind(kb)) return a;
  // A string meeting a number is read as a number of that type (DataFusion's coercion).
  if (IsNumberKind(ka) && kb == Kind::kString) return a;
  if (IsNumberKind(kb) && ka == Kind::kString) return b;
  if (IsTextKind(ka) && IsTextKind(kb)) return a;
  if (ka == Kind::kBool && kb == Kind::kBool) return a;
  if (IsTemporalPoint(ka) && IsTemporalPoint(kb)) return CommonPoint(a, b);
  if (IsTemporalPoint(ka) && kb == Kind::kString) return ka == Kind::kDate ? a : TimestampType(*a);
  if (IsTemporalPoint(kb) && ka == Kind::kString) return kb == Kind::kDate ? b : TimestampType(*b);
  if (ka == Kind::kDuration && kb == Kind::kDuration) {
    return array::Duration(FinerUnit(a->unit(), b->unit()));
  }
  return nullptr;
}

DataTypePtr ArithmeticType(const DataTypePtr& a, const DataTypePtr& b) {
  const Kind ka = KindOf(*a), kb = KindOf(*b);
  if (a->id() == TypeId::kNull && (IsNumberKind(kb) || b->id() == TypeId::kNull)) return b;
  if (b->id() == TypeId::kNull && IsNumberKind(ka)) return a;
  if (!IsNumberKind(ka) || !IsNumberKind(kb)) return nullptr;
  if (ka == Kind::kFloat || kb == Kind::kFloat) {
    const bool narrow = (ka != Kind::kFloat || a->id() != TypeId::kFloat64) &&
                        (kb != Kind::kFloat || b->id() != TypeId::kFloat64) &&
                        (ka == Kind::kFloat && kb == Kind::kFloat);
    return narrow ? array::Float32() : array::Float64();
  }
  if (ka == kb) return IntType(ka == Kind::kInt, std::max(IntWidth(*a), IntWidth(*b)));
  // Mixed signedness: a signed type wide enough for the unsigned side (capped at 64 bits).
  const int unsigned_bits = ka == Kind::kUInt ? IntWidth(*a) : IntWidth(*b);
  const int signed_bits = ka == Kind::kInt ? IntWidth(*a) : IntWidth(*b);
  return IntType(true, std::max(signed_bits, std::min(64, 2 * unsigned_bits)));
}

bool CanCastType(const DataType& from, const DataType& to) {
  const Kind kf = KindOf(from), kt = KindOf(to);
  if (from.id() == TypeId::kNull || from.Equals(to)) return true;
  const bool scalar_from = IsNumberKind(kf) || kf == Kind::kBool;
  const bool scalar_to = IsNumberKind(kt) || kt == Kind::kBool;
  if (scalar_from && scalar_to) return true;
  if (kf == Kind::kString && (scalar_to || kt == Kind::kString || IsTemporalPoint(kt))) return true;
  if (kt == Kind::kString && (scalar_from || kf == Kind::kString || IsTemporalPoint(kf))) {
    return true;
  }
  if (IsTemporalPoint(kf) && IsTemporalPoint(kt)) return true;
  if (kf == Kind::kBinary && kt == Kind::kBinary) return true;
  if (kf == Kind::kString && kt == Kind::kBinary) return true;
  if (kf == Kind::kDuration && kt == Kind::kDuration) return true;
  return false;
}

}  // namespace lance_nd::query
