#include "bench_data.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <utility>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/type.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/nd/row_encoding.h"

namespace lance_nd::bench {
namespace {

struct SplitMix {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
};

void FillGrid(std::int64_t row, int lat, int lon, SplitMix& rng, float* out) {
  const double phase = 0.05 * static_cast<double>(row);
  for (int i = 0; i < lat; ++i) {
    const double la = -1.5 + 3.0 * i / lat;
    for (int j = 0; j < lon; ++j) {
      const double lo = 6.283185307179586 * j / lon;
      const double v = 15.0 + 12.0 * std::cos(la) * std::sin(lo + phase) + 0.3 * rng.Uniform();
      out[static_cast<std::size_t>(i) * static_cast<std::size_t>(lon) +
          static_cast<std::size_t>(j)] = static_cast<float>(std::round(v * 100.0) / 100.0);
    }
  }
}

array::ArrayPtr Float32Values(const float* data, std::int64_t count) {
  return array::MakeArrayData(array::Float32(), count,
                              {nullptr, array::Buffer::Copy(data, count * 4)}, {}, 0);
}

// `type` with `lance-encoding:compression=zstd` on its values item field.
array::DataTypePtr WithZstdValues(const array::DataTypePtr& struct_type) {
  std::vector<array::FieldPtr> children;
  for (const auto& child : struct_type->children()) {
    if (child->name() != "values") {
      children.push_back(child);
      continue;
    }
    array::Metadata meta = child->type()->value_field()->metadata();
    meta.Set("lance-encoding:compression", "zstd");
    children.push_back(
        child->WithType(array::List(child->type()->value_field()->WithMetadata(meta))));
  }
  return array::Struct(std::move(children));
}

}  // namespace

Result<array::RecordBatchPtr> MakeNdGrids(std::int64_t rows, int lat, int lon, bool zstd) {
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims, nd::Dimensions::Make(std::vector<nd::Dimension>{
                                                {"time", 1},
                                                {"lat", static_cast<std::uint64_t>(lat)},
                                                {"lon", static_cast<std::uint64_t>(lon)}}));
  const std::int64_t cells = std::int64_t{lat} * lon;
  std::vector<float> grid(static_cast<std::size_t>(cells));
  SplitMix rng{42};
  std::vector<nd::NdRecordBatch> batches;
  batches.reserve(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) {
    FillGrid(r, lat, lon, rng, grid.data());
    LND_ASSIGN_OR_RETURN(nd::NdArrowArray a,
                         nd::NdArrowArray::Make(Float32Values(grid.data(), cells), dims));
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch b, nd::NdRecordBatch::FromArrays({{"sst", a}}));
    batches.push_back(std::move(b));
  }
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr encoded, nd::EncodeRows(batches));
  if (!zstd) return encoded;
  // Same arrays, retyped with the compression key on the values item field.
  const array::FieldPtr& field = encoded->schema()->field(0);
  array::DataTypePtr type = WithZstdValues(field->type());
  auto column = std::make_shared<array::ArrayData>(*encoded->column(0));
  column->type = type;
  for (std::size_t i = 0; i < column->children.size(); ++i) {
    auto child = std::make_shared<array::ArrayData>(*column->children[i]);
    child->type = type->children()[i]->type();
    column->children[i] = std::move(child);
  }
  auto schema = std::make_shared<array::Schema>(std::vector<array::FieldPtr>{field->WithType(type)},
                                                encoded->schema()->metadata());
  return array::RecordBatch::Make(std::move(schema), encoded->num_rows(), {std::move(column)});
}

array::RecordBatchPtr MakeFlatFloat32(std::int64_t count, bool full_width) {
  std::vector<float> values(static_cast<std::size_t>(count));
  SplitMix rng{7};
  constexpr int kLat = 90;
  constexpr int kLon = 180;
  std::vector<float> grid(kLat * kLon);
  for (std::int64_t done = 0; done < count;) {
    FillGrid(done / (kLat * kLon), kLat, kLon, rng, grid.data());
    const std::int64_t n = std::min<std::int64_t>(kLat * kLon, count - done);
    std::copy(grid.begin(), grid.begin() + n, values.begin() + done);
    done += n;
  }
  if (full_width) {
    for (std::size_t i = 1; i < values.size(); i += 2) values[i] = -values[i];
  }
  auto schema = std::make_shared<array::Schema>(
      std::vector<array::FieldPtr>{array::MakeField("x", array::Float32(), false)});
  return std::make_shared<array::RecordBatch>(
      std::move(schema), count, std::vector<array::ArrayPtr>{Float32Values(values.data(), count)});
}

Result<double> SumNdValues(const array::RecordBatch& batch, int column) {
  const array::ArrayData& s = *batch.column(column);
  int values_child = -1;
  for (std::size_t i = 0; i < s.type->children().size(); ++i) {
    if (s.type->children()[i]->name() == "values") values_child = static_cast<int>(i);
  }
  if (values_child < 0 || s.children.size() != s.type->children().size()) {
    return Status::InvalidArgument("column " + std::to_string(column) +
                                   " is not an nd column (no 'values' child); expected the "
                                   "encoded nd layout");
  }
  const array::ArrayData& list = *s.children[static_cast<std::size_t>(values_child)];
  const std::int64_t list_offset = list.offset + s.offset;
  const auto* offsets =
      reinterpret_cast<const std::int32_t*>(list.buffers[1]->data()) + list_offset;
  const array::ArrayData& items = *list.children[0];
  const float* v = items.values<float>();
  double sum = 0.0;
  const std::int64_t begin = offsets[0];
  const std::int64_t end = offsets[s.length];
  for (std::int64_t i = begin; i < end; ++i) sum += static_cast<double>(v[i]);
  return sum;
}

std::vector<std::uint64_t> RandomRows(std::int64_t num_rows, int count, std::uint64_t seed) {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(num_rows));
  std::iota(all.begin(), all.end(), std::uint64_t{0});
  SplitMix rng{seed};
  const std::size_t n = std::min(all.size(), static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.Next() % (all.size() - i));
    std::swap(all[i], all[j]);
  }
  all.resize(n);
  return all;
}

}  // namespace lance_nd::bench
