// Stats columns: per row, the smallest and largest counted value of a variable.
#include "lance_nd/api/stats.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/array/view.h"
#include "lance_nd/core/internal/thread_pool.h"
#include "lance_nd/nd/format.h"

namespace lance_nd::internal {
namespace {

using array::ArrayData;
using array::TypeId;

// The positions of the smallest and largest counted value (nullopt: none counted).
struct MinMax {
  std::optional<int64_t> min;
  std::optional<int64_t> max;
};

// One row's values of a variable: slots [begin, end) of `values`; `values` is null when the
// row lacks the variable.
struct RowSlice {
  const ArrayData* values = nullptr;
  int64_t begin = 0;
  int64_t end = 0;
};

// Scan with `less` over the values `key(i)` of the slice; `skip(i)` drops NaN. The first of equal
// extremes wins. The running extremes stay in locals: this loop runs once per stored value.
template <typename Key, typename Skip>
MinMax Scan(const RowSlice& slice, Key key, Skip skip) {
  const ArrayData& a = *slice.values;
  const std::uint8_t* bits = a.validity();
  auto counted = [&](int64_t i) {
    return (bits == nullptr || array::GetBit(bits, a.offset + i)) && !skip(i);
  };
  int64_t i = slice.begin;
  while (i < slice.end && !counted(i)) ++i;
  if (i == slice.end) return {};
  int64_t min_at = i, max_at = i;
  auto min = key(i), max = min;
  for (++i; i < slice.end; ++i) {
    if (!counted(i)) continue;
    const auto k = key(i);
    if (k < min) {
      min = k;
      min_at = i;
    }
    if (max < k) {
      max = k;
      max_at = i;
    }
  }
  return {min_at, max_at};
}

// The extremes of values without nulls, as Scan picks them: NaN fails every comparison and is
// skipped, and among equal extremes the first is kept (only 0.0 and -0.0 differ, so a zero
// extreme is taken from its first position). The lanes are independent, so the loop has no
// dependency chain and vectorises. nullopt when there is no value or every value is NaN.
template <typename T>
std::optional<std::pair<T, T>> DenseExtremes(const T* values, int64_t begin, int64_t end) {
  if (begin == end) return std::nullopt;
  constexpr int kLanes = 8;
  constexpr T kHigh = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                           : std::numeric_limits<T>::max();
  constexpr T kLow = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                          : std::numeric_limits<T>::lowest();
  T min[kLanes], max[kLanes];
  for (int k = 0; k < kLanes; ++k) min[k] = kHigh, max[k] = kLow;
  int64_t i = begin;
  for (; i + kLanes <= end; i += kLanes) {
    for (int k = 0; k < kLanes; ++k) {
      const T x = values[i + k];
      min[k] = x < min[k] ? x : min[k];
      max[k] = max[k] < x ? x : max[k];
    }
  }
  for (int k = 0; i < end; ++i, ++k) {
    min[k] = values[i] < min[k] ? values[i] : min[k];
    max[k] = max[k] < values[i] ? values[i] : max[k];
  }
  for (int k = 1; k < kLanes; ++k) {
    min[0] = min[k] < min[0] ? min[k] : min[0];
    max[0] = max[0] < max[k] ? max[k] : max[0];
  }
  if constexpr (std::numeric_limits<T>::has_infinity) {
    auto first_equal = [&](T v) {
      int64_t at = begin;
      while (at < end && !(values[at] == v)) ++at;
      return at;
    };
    // Untouched lanes leave min at +inf: a value +inf, or only NaN.
    if (min[0] == kHigh && first_equal(kHigh) == end) return std::nullopt;
    if (min[0] == 0) min[0] = values[first_equal(0)];
    if (max[0] == 0) max[0] = values[first_equal(0)];
  }
  return std::pair<T, T>(min[0], max[0]);
}

// Positions of the extremes of values without nulls.
template <typename T>
MinMax ScanDense(const T* values, int64_t begin, int64_t end) {
  const std::optional<std::pair<T, T>> extremes = DenseExtremes(values, begin, end);
  if (!extremes) return {};
  auto first_equal = [&](T v) {
    int64_t at = begin;
    while (!(values[at] == v)) ++at;
    return at;
  };
  return {first_equal(extremes->first), first_equal(extremes->second)};
}

// Whether the slice has no null: no validity buffer, a null count of 0, or every bit set.
bool AllValid(const RowSlice& a) {
  const ArrayData& values = *a.values;
  return values.null_count_hint == 0 || values.AllValid(a.begin, a.end - a.begin);
}

template <typename T>
MinMax ScanPrimitive(const RowSlice& a) {
  array::PrimitiveView<T> v(*a.values);
  if (AllValid(a)) return ScanDense(v.raw_values(), a.begin, a.end);
  if constexpr (std::is_floating_point_v<T>) {
    return Scan(
        a, [&](int64_t i) { return v.Value(i); },
        [&](int64_t i) { return std::isnan(v.Value(i)); });
  } else {
    return Scan(
        a, [&](int64_t i) { return v.Value(i); }, [](int64_t) { return false; });
  }
}

// IEEE 754 half precision -> float.
float HalfToFloat(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1FU;
  std::uint32_t mant = h & 0x3FFU;
  std::uint32_t bits = 0;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400U) == 0);
      bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFU) << 13);
    }
  } else if (exp == 0x1F) {
    bits = sign | 0x7F800000U | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(bits);
}

MinMax ScanHalf(const RowSlice& a) {
  array::PrimitiveView<std::uint16_t> v(*a.values);
  return Scan(
      a, [&](int64_t i) { return HalfToFloat(v.Value(i)); },
      [&](int64_t i) { return std::isnan(HalfToFloat(v.Value(i))); });
}

MinMax ScanStrings(const RowSlice& a) {
  array::BinaryView v(*a.values);
  return Scan(
      a, [&](int64_t i) { return v.Value(i); }, [](int64_t) { return false; });
}

// Calls f(T{}) with the C++ type of a primitive value type id (float16 aside, which has none);
// false when the id has none.
template <typename F>
bool WithPrimitiveType(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kInt8:
      return f(int8_t{}), true;
    case TypeId::kInt16:
      return f(int16_t{}), true;
    case TypeId::kInt32:
    case TypeId::kDate32:
      return f(int32_t{}), true;
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return f(int64_t{}), true;
    case TypeId::kUInt8:
      return f(uint8_t{}), true;
    case TypeId::kUInt16:
      return f(uint16_t{}), true;
    case TypeId::kUInt32:
      return f(uint32_t{}), true;
    case TypeId::kUInt64:
      return f(uint64_t{}), true;
    case TypeId::kFloat32:
      return f(float{}), true;
    case TypeId::kFloat64:
      return f(double{}), true;
    default:
      return false;
  }
}

Result<MinMax> ScanValues(const RowSlice& a) {
  const TypeId id = a.values->type->id();
  MinMax out;
  if (WithPrimitiveType(id, [&](auto t) { out = ScanPrimitive<decltype(t)>(a); })) return out;
  switch (id) {
    case TypeId::kFloat16:
      return ScanHalf(a);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      return ScanStrings(a);
    default:
      return Status::NotImplemented("no stats for values of type ", a.values->type->ToString());
  }
}

Status AppendMinMax(array::StructBuilder& b, const RowSlice& slice) {
  LND_ASSIGN_OR_RETURN(MinMax mm, ScanValues(slice));
  const ArrayData& values = *slice.values;
  b.Append(true);
  if (!mm.min) {
    b.child_builder(0)->AppendNull();
    b.child_builder(1)->AppendNull();
    return Status::OK();
  }
  LND_RETURN_NOT_OK(b.child_builder(0)->AppendArraySlice(values, *mm.min, 1));
  return b.child_builder(1)->AppendArraySlice(values, *mm.max, 1);
}

Status TypeMismatch(std::int64_t r, std::string_view variable, const array::DataType& found,
                    const array::DataType& stats) {
  return Status::SchemaMismatch("row ", r, ": variable '", variable, "' has values of type ",
                                found.ToString(), " but its stats column holds ", stats.ToString());
}

// Row slices of decoded rows: the whole values array of the row's column.
class DecodedRows {
 public:
  DecodedRows(std::span<const nd::NdRecordBatch> rows, std::string_view variable,
              const array::DataTypePtr& value_type)
      : rows_(rows), variable_(variable), value_type_(value_type) {}
  std::int64_t size() const { return static_cast<std::int64_t>(rows_.size()); }
  Result<RowSlice> At(std::int64_t r) const {
    const nd::NdArrowArray* column = rows_[static_cast<std::size_t>(r)].GetColumn(variable_);
    if (column == nullptr) return RowSlice{};
    if (!column->value_type()->Equals(*value_type_, /*check_metadata=*/false)) {
      return TypeMismatch(r, variable_, *column->value_type(), *value_type_);
    }
    return RowSlice{column->values().get(), 0, column->values()->length};
  }

 private:
  std::span<const nd::NdRecordBatch> rows_;
  std::string_view variable_;
  const array::DataTypePtr& value_type_;
};

// Row slices of an encoded nd column (rows checked by RowDecoder::ValidateRows): the row's
// range of the values list.
class EncodedRows {
 public:
  EncodedRows(const ArrayData& column, std::int64_t rows, std::string_view variable)
      : column_(column), rows_(rows), variable_(variable) {}
  std::int64_t size() const { return rows_; }
  Result<RowSlice> At(std::int64_t r) const {
    if (column_.IsNull(r)) return RowSlice{};
    const ArrayData& list = *column_.children.at(0);
    const array::ListView view(list);
    const std::int64_t slot = column_.offset + r;
    return RowSlice{list.children.at(0).get(), view.ValueOffset(slot), view.ValueOffset(slot + 1)};
  }

 private:
  const ArrayData& column_;
  std::int64_t rows_;
  std::string_view variable_;
};

// Min and max children and struct validity written directly, for fixed-width value types.
class FixedWidthStats {
 public:
  FixedWidthStats(const array::DataTypePtr& stats_type, std::size_t n)
      : type_(stats_type),
        n_(static_cast<int64_t>(n)),
        width_(stats_type->children().at(0)->type()->byte_width()),
        min_(array::Buffer::AllocateZeroed(n_ * width_, &min_data_)),
        max_(array::Buffer::AllocateZeroed(n_ * width_, &max_data_)),
        rows_valid_(array::Buffer::AllocateZeroed(array::BytesForBits(n_), &rows_bits_)),
        counted_(array::Buffer::AllocateZeroed(array::BytesForBits(n_), &counted_bits_)) {}

  // Row r of the output. Rows may be filled from several threads when each thread owns whole
  // bytes of the bitmaps (ranges of rows starting at multiples of 8).
  void Absent(int64_t /*r*/) {
    absent_.fetch_add(1, std::memory_order_relaxed);
    uncounted_.fetch_add(1, std::memory_order_relaxed);
  }
  template <typename T>
  void AddExtremes(int64_t r, const std::optional<std::pair<T, T>>& extremes) {
    array::SetBit(rows_bits_, r);
    if (extremes) {
      array::SetBit(counted_bits_, r);
      std::memcpy(min_data_ + r * width_, &extremes->first, sizeof(T));
      std::memcpy(max_data_ + r * width_, &extremes->second, sizeof(T));
    } else {
      uncounted_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void Add(int64_t r, const ArrayData& values, const MinMax& mm) {  // mm indexes `values`
    array::SetBit(rows_bits_, r);
    if (mm.min) {
      array::SetBit(counted_bits_, r);
      Copy(values, *mm.min, min_data_ + r * width_);
      Copy(values, *mm.max, max_data_ + r * width_);
    } else {
      uncounted_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  array::ArrayPtr Finish() {
    const auto& children = type_->children();
    const int64_t uncounted = uncounted_.load(), absent = absent_.load();
    const array::BufferPtr counted = uncounted == 0 ? nullptr : counted_;
    array::ArrayPtr min =
        array::MakeArrayData(children[0]->type(), n_, {counted, min_}, {}, uncounted);
    array::ArrayPtr max =
        array::MakeArrayData(children[1]->type(), n_, {counted, max_}, {}, uncounted);
    return array::MakeArrayData(type_, n_, {absent == 0 ? nullptr : rows_valid_},
                                {std::move(min), std::move(max)}, absent);
  }

 private:
  void Copy(const ArrayData& values, int64_t i, std::uint8_t* out) const {
    const std::uint8_t* src = values.buffers.at(1)->data() + (values.offset + i) * width_;
    std::memcpy(out, src, static_cast<std::size_t>(width_));
  }

  array::DataTypePtr type_;
  int64_t n_;
  int64_t width_;
  std::uint8_t* min_data_ = nullptr;
  std::uint8_t* max_data_ = nullptr;
  std::uint8_t* rows_bits_ = nullptr;
  std::uint8_t* counted_bits_ = nullptr;
  array::BufferPtr min_;
  array::BufferPtr max_;
  array::BufferPtr rows_valid_;
  array::BufferPtr counted_;
  std::atomic<int64_t> absent_{0};
  std::atomic<int64_t> uncounted_{0};
};

// Calls fill(r) for every row r in [0, n), ranges of rows on the pool; each range starts at a
// multiple of 8, so that it owns whole bytes of the output bitmaps. Returns the error of the
// first failing row, if any.
template <typename Fill>
Status FillRows(std::int64_t n, const Fill& fill) {
  constexpr std::uint64_t kRowsPerTask = 8192;  // a multiple of 8
  constexpr int kThreads = 4;
  std::mutex mu;
  std::int64_t failed_at = n;
  Status first;
  ParallelRanges(static_cast<std::uint64_t>(n), kRowsPerTask, kThreads,
                 [&](std::uint64_t begin, std::uint64_t end) {
                   for (auto r = static_cast<std::int64_t>(begin);
                        r < static_cast<std::int64_t>(end); ++r) {
                     Status st = fill(r);
                     if (st.ok()) continue;
                     std::lock_guard<std::mutex> lock(mu);
                     if (r < failed_at) failed_at = r, first = std::move(st);
                     return;
                   }
                 });
  return first;
}

bool HasFixedWidthStats(const array::DataType& stats_type) {
  const auto& children = stats_type.children();
  if (children.size() != 2) return false;
  const array::DataType& t = *children[0]->type();
  return t.id() != TypeId::kBool && t.byte_width() > 0 && t.Equals(*children[1]->type());
}

// StatsArray for fixed-width value types: one pass, no builders.
// Rows of a primitive type T (Rows::At checks each row's type): rows without nulls give their
// extremes as values, the others by position.
template <typename T, typename Rows>
Result<array::ArrayPtr> PrimitiveStatsArray(const Rows& rows,
                                            const array::DataTypePtr& stats_type) {
  FixedWidthStats out(stats_type, static_cast<std::size_t>(rows.size()));
  LND_RETURN_NOT_OK(FillRows(rows.size(), [&](std::int64_t r) -> Status {
    LND_ASSIGN_OR_RETURN(RowSlice slice, rows.At(r));
    if (slice.values == nullptr) {
      out.Absent(r);
    } else if (AllValid(slice)) {
      const T* values = array::PrimitiveView<T>(*slice.values).raw_values();
      out.AddExtremes(r, DenseExtremes(values, slice.begin, slice.end));
    } else {
      out.Add(r, *slice.values, ScanPrimitive<T>(slice));
    }
    return Status::OK();
  }));
  return out.Finish();
}

template <typename Rows>
Result<array::ArrayPtr> FixedWidthStatsArray(const Rows& rows, std::string_view variable,
                                             const array::DataTypePtr& stats_type) {
  std::optional<Result<array::ArrayPtr>> typed;
  WithPrimitiveType(stats_type->children().at(0)->type()->id(),
                    [&](auto t) { typed = PrimitiveStatsArray<decltype(t)>(rows, stats_type); });
  if (typed) return std::move(*typed);
  FixedWidthStats out(stats_type, static_cast<std::size_t>(rows.size()));
  LND_RETURN_NOT_OK(FillRows(rows.size(), [&](std::int64_t r) -> Status {
    LND_ASSIGN_OR_RETURN(RowSlice slice, rows.At(r));
    if (slice.values == nullptr) {
      out.Absent(r);
      return Status::OK();
    }
    LND_ASSIGN_OR_RETURN(
        MinMax mm, ScanValues(slice).WithContext("stats of variable '", variable, "' in row ", r));
    out.Add(r, *slice.values, mm);
    return Status::OK();
  }));
  return out.Finish();
}

template <typename Rows>
Result<array::ArrayPtr> StatsArrayOf(const Rows& rows, std::string_view variable,
                                     const array::DataTypePtr& stats_type) {
  if (HasFixedWidthStats(*stats_type)) return FixedWidthStatsArray(rows, variable, stats_type);
  array::StructBuilder builder(stats_type);
  for (std::int64_t r = 0; r < rows.size(); ++r) {
    LND_ASSIGN_OR_RETURN(RowSlice slice, rows.At(r));
    if (slice.values == nullptr) {
      builder.AppendNull();
      continue;
    }
    LND_RETURN_NOT_OK(
        AppendMinMax(builder, slice).WithContext("stats of variable '", variable, "' in row ", r));
  }
  return builder.Finish();
}

// The stats column `field` of a table, computed by `stats_of(variable, type)`; other columns
// taken from `encoded` by name.
template <typename StatsOf>
Result<array::RecordBatchPtr> CompleteWithStats(const array::RecordBatch& encoded,
                                                const array::SchemaPtr& table,
                                                const StatsOf& stats_of) {
  std::vector<array::ArrayPtr> columns;
  columns.reserve(static_cast<std::size_t>(table->num_fields()));
  for (const array::FieldPtr& field : table->fields()) {
    if (auto variable = nd::StatsVariable(field->name())) {
      LND_ASSIGN_OR_RETURN(auto stats, stats_of(*variable, field->type()));
      columns.push_back(std::move(stats));
      continue;
    }
    array::ArrayPtr column = encoded.GetColumnByName(field->name());
    if (column == nullptr) {
      return Status::Internal("the encoded rows lack the table column '", field->name(), "'");
    }
    columns.push_back(std::move(column));
  }
  return array::RecordBatch::Make(table, encoded.num_rows(), std::move(columns));
}

}  // namespace

Result<array::ArrayPtr> StatsArray(std::span<const nd::NdRecordBatch> rows,
                                   std::string_view variable,
                                   const array::DataTypePtr& stats_type) {
  const array::DataTypePtr& value_type = stats_type->children().at(0)->type();
  return StatsArrayOf(DecodedRows(rows, variable, value_type), variable, stats_type);
}

Result<array::RecordBatchPtr> WithStatsColumns(const array::RecordBatch& encoded,
                                               std::span<const nd::NdRecordBatch> rows,
                                               const array::SchemaPtr& table) {
  return CompleteWithStats(encoded, table,
                           [&](std::string_view variable, const array::DataTypePtr& type) {
                             return StatsArray(rows, variable, type);
                           });
}

Result<array::RecordBatchPtr> WithStatsColumnsOfEncoded(const array::RecordBatch& encoded,
                                                        const array::SchemaPtr& table) {
  return CompleteWithStats(
      encoded, table,
      [&](std::string_view variable, const array::DataTypePtr& type) -> Result<array::ArrayPtr> {
        const array::ArrayPtr column = encoded.GetColumnByName(variable);
        if (column == nullptr) {
          return Status::Internal("the encoded rows lack the variable '", variable, "'");
        }
        const array::DataTypePtr& item = column->children.at(0)->children.at(0)->type;
        if (!item->Equals(*type->children().at(0)->type(), /*check_metadata=*/false)) {
          return TypeMismatch(0, variable, *item, *type->children().at(0)->type());
        }
        return StatsArrayOf(EncodedRows(*column, encoded.num_rows(), variable), variable, type);
      });
}

}  // namespace lance_nd::internal
