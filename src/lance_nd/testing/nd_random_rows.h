// Test helper: a seeded generator of random nd record batches (ranks 0-4, sizes incl. 0,
// several value and attribute types, absent arrays, global attributes).
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/array/builder.h"
#include "lance_nd/testing/nd_test_util.h"

namespace lance_nd::nd::testing {

using array::ArrayPtr;
using array::DataTypePtr;
using Rng = std::mt19937_64;

enum class ValueKind { kF32, kF64, kI16, kI32, kI64, kU16, kUtf8, kBool, kTsNs, kTsMsUtc };
constexpr int kNumValueKinds = 10;
enum class AttrKind { kStr, kI32, kF64, kBool, kI8, kU64, kF32, kListF64, kListStr, kListI16 };
constexpr int kNumAttrKinds = 10;

inline int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {  // inclusive
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
inline bool Chance(Rng& rng, double p) { return std::bernoulli_distribution(p)(rng); }

inline std::string RandomString(Rng& rng) {
  static const char kChars[] = "abcxyzKm/ _-";
  std::string s;
  const int64_t n = Uniform(rng, 0, 6);
  for (int64_t i = 0; i < n; ++i) s += kChars[Uniform(rng, 0, 11)];  // ASCII part only
  return s;
}

template <typename T>
inline ArrayPtr RandomPrimitive(Rng& rng, const DataTypePtr& type, int64_t n, int64_t lo,
                                int64_t hi) {
  std::vector<std::optional<T>> v;
  for (int64_t i = 0; i < n; ++i) {
    if (Chance(rng, 0.1)) {
      v.emplace_back(std::nullopt);
    } else {
      v.emplace_back(static_cast<T>(Uniform(rng, lo, hi)));
    }
  }
  return array::MakePrimitiveArray<T>(type, v);
}

inline DataTypePtr ValueType(ValueKind k) {
  switch (k) {
    case ValueKind::kF32:
      return array::Float32();
    case ValueKind::kF64:
      return array::Float64();
    case ValueKind::kI16:
      return array::Int16();
    case ValueKind::kI32:
      return array::Int32();
    case ValueKind::kI64:
      return array::Int64();
    case ValueKind::kU16:
      return array::UInt16();
    case ValueKind::kUtf8:
      return array::Utf8();
    case ValueKind::kBool:
      return array::Bool();
    case ValueKind::kTsNs:
      return array::Timestamp(array::TimeUnit::kNano);
    case ValueKind::kTsMsUtc:
      return array::Timestamp(array::TimeUnit::kMilli, "UTC");
  }
  return nullptr;
}

inline ArrayPtr RandomValues(Rng& rng, ValueKind k, int64_t n) {
  switch (k) {
    case ValueKind::kF32:
      return RandomPrimitive<float>(rng, ValueType(k), n, -1000, 1000);
    case ValueKind::kF64:
      return RandomPrimitive<double>(rng, ValueType(k), n, -1000000, 1000000);
    case ValueKind::kI16:
      return RandomPrimitive<int16_t>(rng, ValueType(k), n, -32768, 32767);
    case ValueKind::kI32:
      return RandomPrimitive<int32_t>(rng, ValueType(k), n, -100000, 100000);
    case ValueKind::kI64:
    case ValueKind::kTsNs:
    case ValueKind::kTsMsUtc:
      return RandomPrimitive<int64_t>(rng, ValueType(k), n, -(int64_t{1} << 50), int64_t{1} << 50);
    case ValueKind::kU16:
      return RandomPrimitive<uint16_t>(rng, ValueType(k), n, 0, 65535);
    case ValueKind::kUtf8: {
      std::vector<std::optional<std::string>> v;
      for (int64_t i = 0; i < n; ++i) {
        v.push_back(Chance(rng, 0.1) ? std::nullopt
                                     : std::optional<std::string>(RandomString(rng)));
      }
      return array::MakeStringArray(v);
    }
    case ValueKind::kBool: {
      std::vector<std::optional<bool>> v;
      for (int64_t i = 0; i < n; ++i) {
        v.push_back(Chance(rng, 0.1) ? std::nullopt : std::optional<bool>(Chance(rng, 0.5)));
      }
      return array::MakeBoolArray(v);
    }
  }
  return nullptr;
}

inline void SetRandomAttr(Rng& rng, Attributes& a, const std::string& key, AttrKind k) {
  switch (k) {
    case AttrKind::kStr:
      a.Set(key, RandomString(rng));
      break;
    case AttrKind::kI32:
      a.Set(key, static_cast<int32_t>(Uniform(rng, -99, 99)));
      break;
    case AttrKind::kF64:
      a.Set(key, static_cast<double>(Uniform(rng, -99, 99)) / 4);
      break;
    case AttrKind::kBool:
      a.Set(key, Chance(rng, 0.5));
      break;
    case AttrKind::kI8:
      a.Set(key, static_cast<int8_t>(Uniform(rng, -128, 127)));
      break;
    case AttrKind::kU64:
      a.Set(key, static_cast<uint64_t>(Uniform(rng, 0, 1 << 30)));
      break;
    case AttrKind::kF32:
      a.Set(key, static_cast<float>(Uniform(rng, -99, 99)) / 2);
      break;
    case AttrKind::kListF64: {
      std::vector<double> v;
      for (int64_t i = Uniform(rng, 0, 3); i > 0; --i) v.push_back(static_cast<double>(i) / 3);
      a.Set(key, v);
      break;
    }
    case AttrKind::kListStr: {
      std::vector<std::string> v;
      for (int64_t i = Uniform(rng, 0, 3); i > 0; --i) v.push_back(RandomString(rng));
      a.Set(key, v);
      break;
    }
    case AttrKind::kListI16: {
      std::vector<int16_t> v;
      for (int64_t i = Uniform(rng, 0, 4); i > 0; --i) {
        v.push_back(static_cast<int16_t>(Uniform(rng, -5, 5)));
      }
      a.Set(key, v);
      break;
    }
  }
}

inline std::vector<NdRecordBatch> RandomRows(Rng& rng) {
  std::vector<std::string> var_pool = {"temp", "lat", "lon",      "time", "name",
                                       "flag", "a.b", "pressure", "x"};
  std::shuffle(var_pool.begin(), var_pool.end(), rng);
  const auto num_vars = static_cast<std::size_t>(Uniform(rng, 1, 6));
  std::vector<std::pair<std::string, ValueKind>> vars;
  for (std::size_t i = 0; i < num_vars; ++i) {
    vars.emplace_back(var_pool[i], static_cast<ValueKind>(Uniform(rng, 0, kNumValueKinds - 1)));
  }
  // Keys with dots and other characters netCDF and xarray allow are stored and read as any other.
  const std::vector<std::string> attr_keys = {"units", "long_name",  "scale",     "valid_range",
                                              "flags", "_FillValue", "valid.min", "a b-c+d"};
  // One attribute type per (variable, key) and per global key.
  std::vector<std::vector<AttrKind>> attr_kind(num_vars);
  for (auto& kinds : attr_kind) {
    for (std::size_t k = 0; k < attr_keys.size(); ++k) {
      kinds.push_back(static_cast<AttrKind>(Uniform(rng, 0, kNumAttrKinds - 1)));
    }
  }
  const std::vector<std::string> global_keys = {"id", "title", "chunk_offset", "history",
                                                "source.file"};
  std::vector<AttrKind> global_kind;
  for (std::size_t k = 0; k < global_keys.size(); ++k) {
    global_kind.push_back(static_cast<AttrKind>(Uniform(rng, 0, kNumAttrKinds - 1)));
  }
  const std::vector<std::string> dim_pool = {"x", "y", "z", "time", "station"};

  std::vector<NdRecordBatch> rows;
  const int64_t num_rows = Uniform(rng, 0, 6);
  for (int64_t r = 0; r < num_rows; ++r) {
    std::vector<uint64_t> row_size;
    for (std::size_t d = 0; d < dim_pool.size(); ++d) {
      row_size.push_back(static_cast<uint64_t>(Uniform(rng, 0, 4)));
    }
    std::vector<std::pair<std::string, NdArrowArray>> arrays;
    std::vector<std::size_t> order(num_vars);
    for (std::size_t i = 0; i < num_vars; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);  // rows list arrays in any order
    for (std::size_t v : order) {
      if (!Chance(rng, 0.6)) continue;
      std::vector<std::size_t> axes(dim_pool.size());
      for (std::size_t d = 0; d < axes.size(); ++d) axes[d] = d;
      std::shuffle(axes.begin(), axes.end(), rng);
      const auto rank = static_cast<std::size_t>(Uniform(rng, 0, 4));
      std::vector<Dimension> dims;
      for (std::size_t k = 0; k < rank; ++k) {
        const std::size_t d = axes[k];
        dims.push_back(Dimension{dim_pool[d], Chance(rng, 0.15) ? 1 : row_size[d]});
      }
      Dimensions dimensions = testing::Unwrap(Dimensions::Make(std::move(dims)));
      ArrayPtr values = RandomValues(rng, vars[v].second, dimensions.num_elements());
      Attributes attrs;
      for (std::size_t k = 0; k < attr_keys.size(); ++k) {
        if (Chance(rng, 0.3)) SetRandomAttr(rng, attrs, attr_keys[k], attr_kind[v][k]);
      }
      arrays.emplace_back(vars[v].first,
                          testing::Unwrap(NdArrowArray::Make(
                              std::move(values), std::move(dimensions), std::move(attrs))));
    }
    Attributes globals;
    if (Chance(rng, 0.5)) {
      for (std::size_t k = 0; k < global_keys.size(); ++k) {
        if (Chance(rng, 0.5)) SetRandomAttr(rng, globals, global_keys[k], global_kind[k]);
      }
    }
    rows.push_back(
        testing::Unwrap(NdRecordBatch::FromArrays(std::move(arrays), std::move(globals))));
  }
  return rows;
}

}  // namespace lance_nd::nd::testing
