// Deterministic random types and arrays for property tests (test-only, header-only).
//
//   auto type = lance_nd::testing::RandomType(seed, /*max_depth=*/2);
//   auto array = lance_nd::testing::RandomArray(type, 100, /*null_probability=*/0.2, seed);
//
// The same arguments give the same result on every platform (own PRNG, no std distributions).
// Arrays are valid (array::Validate passes): utf8 is valid UTF-8, lists have empty and null
// rows, floats include NaN/inf/-0, integers include their extremes. Fields declared not
// nullable get no nulls. With options.sliced the result is a slice of a longer array (non-zero
// offset; struct/fixed_size_list children are then read at an offset, list offsets do not
// start at 0).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/type.h"

namespace lance_nd::testing {

/// \brief splitmix64: small, fast, fully specified.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed ^ 0x6A09E667F3BCC909ull) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n > 0; negligible bias).
  std::uint64_t Below(std::uint64_t n) { return n == 0 ? 0 : Next() % n; }
  int64_t Range(int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(Below(static_cast<std::uint64_t>(hi - lo) + 1));
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  bool Chance(double p) { return p > 0 && Unit() < p; }

 private:
  std::uint64_t state_;
};

struct RandomArrayOptions {
  /// Return a slice of a longer array (random non-zero offset).
  bool sliced = false;
  /// Lists get 0..max_list_length items per row.
  int64_t max_list_length = 4;
  /// utf8/binary values get 0..max_binary_length code points / bytes.
  int64_t max_binary_length = 12;
};

struct RandomTypeOptions {
  bool null_type = false;
  bool float16 = true;
  bool temporal = true;  // date32/64, timestamp, duration
  bool large = true;     // large_utf8, large_binary, large_list
  bool fixed_size_binary = true;
};

namespace internal {

template <typename T>
T RandomInt(Rng& rng) {
  switch (rng.Below(8)) {
    case 0:
      return std::numeric_limits<T>::min();
    case 1:
      return std::numeric_limits<T>::max();
    case 2:
      return T{0};
    case 3:
    case 4:
      return static_cast<T>(rng.Range(-100, 100));
    default: {
      const std::uint64_t bits = rng.Next();
      T v;
      std::memcpy(&v, &bits, sizeof(T));
      return v;
    }
  }
}

inline double RandomDouble(Rng& rng) {
  switch (rng.Below(12)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return std::numeric_limits<double>::infinity();
    case 2:
      return -std::numeric_limits<double>::infinity();
    case 3:
      return -0.0;
    case 4:
      return 0.0;
    case 5: {  // any bit pattern
      const std::uint64_t bits = rng.Next();
      double v;
      std::memcpy(&v, &bits, sizeof(v));
      return v;
    }
    default:
      return static_cast<double>(rng.Range(-1000, 1000)) / 8.0;
  }
}

inline float RandomFloat(Rng& rng) {
  if (rng.Below(12) == 0) {
    const auto bits = static_cast<std::uint32_t>(rng.Next());
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  const double d = RandomDouble(rng);
  if (d != d) return std::numeric_limits<float>::quiet_NaN();
  if (d > 3e38) return std::numeric_limits<float>::infinity();
  if (d < -3e38) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(d);
}

inline void AppendUtf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

inline std::string RandomUtf8(Rng& rng, int64_t max_chars) {
  std::string s;
  const int64_t n = rng.Range(0, max_chars);
  for (int64_t i = 0; i < n; ++i) {
    std::uint32_t cp;
    switch (rng.Below(6)) {
      case 0:
        cp = static_cast<std::uint32_t>(rng.Range(0x80, 0x7FF));
        break;
      case 1:
        cp = static_cast<std::uint32_t>(rng.Range(0x800, 0xFFFD));
        if (cp >= 0xD800 && cp <= 0xDFFF) cp -= 0x800;  // no surrogates
        break;
      case 2:
        cp = static_cast<std::uint32_t>(rng.Range(0x10000, 0x10FFFF));
        break;
      default:
        cp = static_cast<std::uint32_t>(rng.Range(0x20, 0x7E));
        break;
    }
    AppendUtf8(s, cp);
  }
  return s;
}

inline std::string RandomBytes(Rng& rng, int64_t n) {
  std::string s(static_cast<std::size_t>(n), '\0');
  for (auto& c : s) c = static_cast<char>(rng.Next() & 0xFF);
  return s;
}

template <typename T>
void AppendPrimitive(array::ArrayBuilder* b, T v) {
  static_cast<array::PrimitiveBuilder<T>*>(b)->Append(v);
}

/// Append one random slot (null with probability `p`) of `type` to `b` (made by MakeBuilder).
inline void AppendRandom(array::ArrayBuilder* b, const array::DataType& type, double p, Rng& rng,
                         const RandomArrayOptions& o) {
  using array::TypeId;
  const bool is_null = type.id() == TypeId::kNull || rng.Chance(p);
  // Null struct / fixed-size-list rows still get (random) child slots, which also keeps
  // not-nullable child fields free of nulls.
  if (is_null && type.id() != TypeId::kStruct && type.id() != TypeId::kFixedSizeList) {
    b->AppendNull();
    return;
  }
  switch (type.id()) {
    case TypeId::kBool:
      static_cast<array::BoolBuilder*>(b)->Append((rng.Next() & 1) != 0);
      return;
    case TypeId::kInt8:
      AppendPrimitive<int8_t>(b, RandomInt<int8_t>(rng));
      return;
    case TypeId::kInt16:
      AppendPrimitive<int16_t>(b, RandomInt<int16_t>(rng));
      return;
    case TypeId::kInt32:
      AppendPrimitive<int32_t>(b, RandomInt<int32_t>(rng));
      return;
    case TypeId::kInt64:
      AppendPrimitive<int64_t>(b, RandomInt<int64_t>(rng));
      return;
    case TypeId::kUInt8:
      AppendPrimitive<uint8_t>(b, RandomInt<uint8_t>(rng));
      return;
    case TypeId::kUInt16:
      AppendPrimitive<uint16_t>(b, RandomInt<uint16_t>(rng));
      return;
    case TypeId::kUInt32:
      AppendPrimitive<uint32_t>(b, RandomInt<uint32_t>(rng));
      return;
    case TypeId::kUInt64:
      AppendPrimitive<uint64_t>(b, RandomInt<uint64_t>(rng));
      return;
    case TypeId::kFloat16:
      AppendPrimitive<uint16_t>(b, static_cast<uint16_t>(rng.Next()));
      return;
    case TypeId::kFloat32:
      AppendPrimitive<float>(b, RandomFloat(rng));
      return;
    case TypeId::kFloat64:
      AppendPrimitive<double>(b, RandomDouble(rng));
      return;
    case TypeId::kDate32:
      AppendPrimitive<int32_t>(b, static_cast<int32_t>(rng.Range(-800000, 800000)));
      return;
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      AppendPrimitive<int64_t>(b, rng.Range(-(int64_t{1} << 50), int64_t{1} << 50));
      return;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      static_cast<array::BinaryBuilder*>(b)->Append(RandomUtf8(rng, o.max_binary_length));
      return;
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      static_cast<array::BinaryBuilder*>(b)->Append(
          RandomBytes(rng, rng.Range(0, o.max_binary_length)));
      return;
    case TypeId::kFixedSizeBinary:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      (void)static_cast<array::FixedSizeBinaryBuilder*>(b)->Append(
          RandomBytes(rng, type.byte_width()));
      return;
    case TypeId::kList:
    case TypeId::kLargeList: {
      auto* lb = static_cast<array::ListBuilder*>(b);
      lb->Append(true);
      const int64_t n = rng.Range(0, o.max_list_length);
      const auto& f = *type.value_field();
      for (int64_t i = 0; i < n; ++i) {
        AppendRandom(lb->value_builder(), *f.type(), f.nullable() ? p : 0.0, rng, o);
      }
      return;
    }
    case TypeId::kFixedSizeList: {
      auto* lb = static_cast<array::FixedSizeListBuilder*>(b);
      lb->Append(!is_null);
      const auto& f = *type.value_field();
      for (int32_t i = 0; i < type.fixed_size(); ++i) {
        AppendRandom(lb->value_builder(), *f.type(), f.nullable() ? p : 0.0, rng, o);
      }
      return;
    }
    case TypeId::kStruct: {
      auto* sb = static_cast<array::StructBuilder*>(b);
      sb->Append(!is_null);
      for (int c = 0; c < sb->num_children(); ++c) {
        const auto& f = *type.children()[static_cast<std::size_t>(c)];
        AppendRandom(sb->child_builder(c), *f.type(), f.nullable() ? p : 0.0, rng, o);
      }
      return;
    }
    case TypeId::kNull:
      return;
  }
}

}  // namespace internal

/// \brief A valid random array of `type` with `length` slots, each null with probability
/// `null_probability` (recursively in nullable child fields). Deterministic in all arguments.
inline array::ArrayPtr RandomArray(const array::DataTypePtr& type, int64_t length,
                                   double null_probability, std::uint64_t seed,
                                   const RandomArrayOptions& options = {}) {
  Rng rng(seed);
  int64_t before = 0, after = 0;
  if (options.sliced) {
    before = rng.Range(1, 9);
    after = rng.Range(0, 5);
  }
  auto builder = array::MakeBuilder(type);
  for (int64_t i = 0; i < before + length + after; ++i) {
    internal::AppendRandom(builder.get(), *type, null_probability, rng, options);
  }
  auto full = builder->Finish();
  if (!full.ok()) return nullptr;
  if (!options.sliced) return *full;
  auto sliced = array::Slice(*full, before, length);
  return sliced.ok() ? *sliced : nullptr;
}

/// \brief Every parameter-free type plus a few parameterised leaves (no nested types).
inline std::vector<array::DataTypePtr> LeafTypes(const RandomTypeOptions& o = {}) {
  using namespace array;  // NOLINT
  std::vector<DataTypePtr> t = {Bool(),    Int8(),   Int16(),  Int32(),  Int64(),
                                UInt8(),   UInt16(), UInt32(), UInt64(), Float32(),
                                Float64(), Utf8(),   Binary()};
  if (o.null_type) t.push_back(Null());
  if (o.float16) t.push_back(Float16());
  if (o.large) {
    t.push_back(LargeUtf8());
    t.push_back(LargeBinary());
  }
  if (o.fixed_size_binary) {
    t.push_back(FixedSizeBinary(1));
    t.push_back(FixedSizeBinary(7));
  }
  if (o.temporal) {
    t.push_back(Date32());
    t.push_back(Date64());
    t.push_back(Timestamp(TimeUnit::kSecond));
    t.push_back(Timestamp(TimeUnit::kMilli, "UTC"));
    t.push_back(Timestamp(TimeUnit::kMicro, "+01:00"));
    t.push_back(Timestamp(TimeUnit::kNano));
    t.push_back(Duration(TimeUnit::kSecond));
    t.push_back(Duration(TimeUnit::kNano));
  }
  return t;
}

/// \brief A random type: a leaf, or (while `max_depth` > 0) a list, large_list,
/// fixed_size_list (size 1..4) or struct (1..3 fields "f0".., random nullability) of random
/// types of depth < max_depth. Deterministic in (seed, max_depth, options).
inline array::DataTypePtr RandomType(std::uint64_t seed, int max_depth,
                                     const RandomTypeOptions& options = {});

namespace internal {
inline array::DataTypePtr RandomTypeImpl(Rng& rng, int depth, const RandomTypeOptions& o) {
  using namespace array;  // NOLINT
  const std::vector<DataTypePtr> leaves = LeafTypes(o);
  if (depth <= 0 || rng.Below(2) == 0) return leaves[rng.Below(leaves.size())];
  auto child_field = [&](std::string name) {
    return MakeField(std::move(name), RandomTypeImpl(rng, depth - 1, o), rng.Below(4) != 0);
  };
  switch (rng.Below(o.large ? 4 : 3)) {
    case 0:
      return List(child_field("item"));
    case 1:
      return FixedSizeList(child_field("item"), static_cast<int32_t>(rng.Range(1, 4)));
    case 2: {
      std::vector<FieldPtr> fields;
      const int64_t n = rng.Range(1, 3);
      for (int64_t i = 0; i < n; ++i) fields.push_back(child_field("f" + std::to_string(i)));
      return Struct(std::move(fields));
    }
    default:
      return LargeList(child_field("item"));
  }
}
}  // namespace internal

inline array::DataTypePtr RandomType(std::uint64_t seed, int max_depth,
                                     const RandomTypeOptions& options) {
  Rng rng(seed * 0x2545F4914F6CDD1Dull + 17);
  return internal::RandomTypeImpl(rng, max_depth, options);
}

}  // namespace lance_nd::testing
