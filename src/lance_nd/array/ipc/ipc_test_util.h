// Test-only helpers for the IPC tests: random arrays of every supported type built directly in
// the Arrow layout, and a schema covering every type.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"

namespace lance_nd::array::ipc::testing {

class RandomArrayMaker {
 public:
  explicit RandomArrayMaker(uint64_t seed, double null_prob = 0.2)
      : rng_(seed), null_prob_(null_prob) {}

  ArrayPtr Make(const DataTypePtr& type, int64_t length) {
    const DataType& t = *type;
    if (t.id() == TypeId::kNull) return MakeArrayData(type, length, {}, {}, length);
    BufferPtr validity = Validity(length);
    std::vector<BufferPtr> buffers{validity};
    std::vector<ArrayPtr> children;
    switch (t.id()) {
      case TypeId::kBool:
        buffers.push_back(RandomBits(length, 0.5));
        break;
      case TypeId::kUtf8:
      case TypeId::kBinary:
      case TypeId::kLargeUtf8:
      case TypeId::kLargeBinary: {
        const bool large = t.id() == TypeId::kLargeUtf8 || t.id() == TypeId::kLargeBinary;
        const bool text = t.id() == TypeId::kUtf8 || t.id() == TypeId::kLargeUtf8;
        int64_t total = 0;
        buffers.push_back(Offsets(length, large, 6, &total));
        std::vector<std::uint8_t> data(static_cast<std::size_t>(total));
        for (auto& c : data) {
          c = text ? static_cast<std::uint8_t>('a' + Uniform(0, 25))
                   : static_cast<std::uint8_t>(Uniform(0, 255));
        }
        buffers.push_back(Buffer::Copy(data));
        break;
      }
      case TypeId::kList:
      case TypeId::kLargeList: {
        int64_t total = 0;
        buffers.push_back(Offsets(length, t.id() == TypeId::kLargeList, 3, &total));
        children.push_back(Make(t.value_type(), total));
        break;
      }
      case TypeId::kFixedSizeList:
        children.push_back(Make(t.value_type(), length * t.fixed_size()));
        break;
      case TypeId::kStruct:
        for (const FieldPtr& f : t.children()) children.push_back(Make(f->type(), length));
        break;
      case TypeId::kFixedSizeBinary:
        buffers.push_back(RandomBytes(length * t.fixed_size()));
        break;
      case TypeId::kFloat16: {
        std::vector<std::uint16_t> v(static_cast<std::size_t>(length));
        for (auto& x : v) x = static_cast<std::uint16_t>(Uniform(0, 0xFFFF) & 0x3BFF);  // finite
        buffers.push_back(Buffer::Copy(v.data(), length * 2));
        break;
      }
      case TypeId::kFloat32: {
        std::vector<float> v(static_cast<std::size_t>(length));
        for (auto& x : v) x = static_cast<float>(Uniform(-1000, 1000)) / 8.0f;
        buffers.push_back(Buffer::Copy(v.data(), length * 4));
        break;
      }
      case TypeId::kFloat64: {
        std::vector<double> v(static_cast<std::size_t>(length));
        for (auto& x : v) x = static_cast<double>(Uniform(-100000, 100000)) / 16.0;
        buffers.push_back(Buffer::Copy(v.data(), length * 8));
        break;
      }
      default:
        buffers.push_back(RandomBytes(length * t.byte_width()));
        break;
    }
    return MakeArrayData(type, length, std::move(buffers), std::move(children));
  }

  /// \brief A random type, nested at most `depth` levels.
  DataTypePtr RandomType(int depth) {
    static const TypeId kLeaves[] = {
        TypeId::kNull,        TypeId::kBool,   TypeId::kInt8,      TypeId::kInt16,
        TypeId::kInt32,       TypeId::kInt64,  TypeId::kUInt8,     TypeId::kUInt16,
        TypeId::kUInt32,      TypeId::kUInt64, TypeId::kFloat16,   TypeId::kFloat32,
        TypeId::kFloat64,     TypeId::kUtf8,   TypeId::kLargeUtf8, TypeId::kBinary,
        TypeId::kLargeBinary, TypeId::kDate32, TypeId::kDate64};
    const int64_t n_leaves = static_cast<int64_t>(std::size(kLeaves));
    const int64_t pick = Uniform(0, depth > 0 ? n_leaves + 8 : n_leaves + 3);
    if (pick < n_leaves) return TypeForId(kLeaves[pick]);
    const auto unit = static_cast<TimeUnit>(Uniform(0, 3));
    auto child = [&](std::string name) {
      return MakeField(std::move(name), RandomType(depth - 1), Uniform(0, 3) != 0);
    };
    switch (pick - n_leaves) {
      case 0:
        return FixedSizeBinary(static_cast<int32_t>(Uniform(1, 9)));
      case 1:
        return Timestamp(unit, Uniform(0, 1) == 0 ? "" : "UTC");
      case 2:
        return Duration(unit);
      case 3:
      case 4:
        return List(child("item"));
      case 5:
        return LargeList(child("item"));
      case 6:
        return FixedSizeList(child("item"), static_cast<int32_t>(Uniform(0, 4)));
      default: {
        std::vector<FieldPtr> fields;
        const int64_t n = Uniform(0, 3);
        for (int64_t i = 0; i < n; ++i) fields.push_back(child("f" + std::to_string(i)));
        return Struct(std::move(fields));
      }
    }
  }

  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

 private:
  BufferPtr Validity(int64_t length) {
    if (null_prob_ <= 0.0 || Uniform(0, 3) == 0) return nullptr;  // sometimes no bitmap at all
    return RandomBits(length, 1.0 - null_prob_);
  }
  BufferPtr RandomBits(int64_t length, double p_set) {
    std::uint8_t* data = nullptr;
    BufferPtr out = Buffer::AllocateZeroed(BytesForBits(length), &data);
    std::bernoulli_distribution d(p_set);
    for (int64_t i = 0; i < length; ++i) {
      if (d(rng_)) SetBit(data, i);
    }
    return out;
  }
  BufferPtr RandomBytes(int64_t n) {
    std::uint8_t* data = nullptr;
    BufferPtr out = Buffer::AllocateZeroed(n, &data);
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<std::uint8_t>(Uniform(0, 255));
    return out;
  }
  BufferPtr Offsets(int64_t length, bool large, int64_t max_len, int64_t* total) {
    std::vector<int64_t> offs(static_cast<std::size_t>(length + 1), 0);
    for (int64_t i = 0; i < length; ++i) {
      offs[static_cast<std::size_t>(i + 1)] =
          offs[static_cast<std::size_t>(i)] + Uniform(0, max_len);
    }
    *total = offs.back();
    if (large) return Buffer::Copy(offs.data(), (length + 1) * 8);
    std::vector<int32_t> o32(offs.begin(), offs.end());
    return Buffer::Copy(o32.data(), (length + 1) * 4);
  }

  std::mt19937_64 rng_;
  double null_prob_;
};

/// \brief One field of every supported type, including nested ones and metadata.
inline SchemaPtr AllTypesSchema() {
  std::vector<FieldPtr> fields = {
      MakeField("null", Null()),
      MakeField("bool", Bool()),
      MakeField("i8", Int8()),
      MakeField("i16", Int16(), false),
      MakeField("i32", Int32()),
      MakeField("i64", Int64()),
      MakeField("u8", UInt8()),
      MakeField("u16", UInt16()),
      MakeField("u32", UInt32()),
      MakeField("u64", UInt64()),
      MakeField("f16", Float16()),
      MakeField("f32", Float32()),
      MakeField("f64", Float64()),
      MakeField("utf8", Utf8()),
      MakeField("large_utf8", LargeUtf8()),
      MakeField("binary", Binary()),
      MakeField("large_binary", LargeBinary()),
      MakeField("fsb", FixedSizeBinary(5)),
      MakeField("date32", Date32()),
      MakeField("date64", Date64()),
      MakeField("ts_s", Timestamp(TimeUnit::kSecond)),
      MakeField("ts_ms_utc", Timestamp(TimeUnit::kMilli, "UTC")),
      MakeField("ts_us_tz", Timestamp(TimeUnit::kMicro, "Europe/Paris")),
      MakeField("ts_ns", Timestamp(TimeUnit::kNano)),
      MakeField("dur_s", Duration(TimeUnit::kSecond)),
      MakeField("dur_ns", Duration(TimeUnit::kNano)),
      MakeField("list_i32", List(Int32())),
      MakeField("large_list_utf8", LargeList(Utf8())),
      MakeField("fsl_f32", FixedSizeList(Float32(), 3)),
      MakeField("fsl_fsl", FixedSizeList(FixedSizeList(Int16(), 2), 2)),
      MakeField("list_struct",
                List(Struct({MakeField("a", Int64()), MakeField("b", Utf8(), false)}))),
      MakeField("struct", Struct({MakeField("x", Float64()), MakeField("y", List(Bool())),
                                  MakeField("z", Struct({MakeField("deep", Binary())}), true,
                                            Metadata({{"inner", "1"}}))})),
      MakeField("empty_struct", Struct({})),
      MakeField(
          "ext", FixedSizeBinary(16), true,
          Metadata({{"ARROW:extension:name", "arrow.uuid"}, {"ARROW:extension:metadata", ""}})),
  };
  return MakeSchema(std::move(fields), Metadata({{"lance_nd:format", "1"}, {"k", "v"}}));
}

inline RecordBatchPtr RandomBatch(const SchemaPtr& schema, int64_t length, uint64_t seed,
                                  double null_prob = 0.2) {
  RandomArrayMaker maker(seed, null_prob);
  std::vector<ArrayPtr> cols;
  for (const FieldPtr& f : schema->fields()) cols.push_back(maker.Make(f->type(), length));
  return std::make_shared<const RecordBatch>(schema, length, std::move(cols));
}

}  // namespace lance_nd::array::ipc::testing
