// Test helpers of region reads: seeded random datasets (ranks 0-4, coordinates ascending or
// descending, nulls, several dtypes), their split into chunk rows by ChunkGrid (docs/FORMAT.md
// §3.6), and hyperslabs cut element by element from the whole arrays in memory, written here
// independently of the code under test.
#pragma once

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/api/region.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/testing/nd_random_rows.h"

namespace lance_nd::region_testing {

using nd::testing::Chance;
using nd::testing::Rng;
using nd::testing::Uniform;
using nd::testing::Unwrap;
using nd::testing::ValueKind;

/// A whole dataset, its layout and how it is chunked.
struct TestDataset {
  DatasetLayout layout;
  nd::NdRecordBatch batch;  // global attributes hold the id
  std::vector<std::pair<std::string, std::uint64_t>> chunk_sizes;
  std::map<std::string, bool> descending;  // per coordinate variable
};

/// The element index (C order over `sizes`) of multi-index `idx`.
inline std::uint64_t FlatIndex(const std::vector<std::uint64_t>& idx,
                               const std::vector<std::uint64_t>& sizes) {
  std::uint64_t flat = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) flat = flat * sizes[k] + idx[k];
  return flat;
}

/// The sub-array of `a` at indices [lo[k], lo[k] + n[k]) along each of its dimensions, copied
/// one element at a time; dimensions in `drop` are left out of the result's dimensions.
inline nd::NdArrowArray Cut(const nd::NdArrowArray& a, const std::vector<std::uint64_t>& lo,
                            const std::vector<std::uint64_t>& n,
                            const std::vector<bool>& drop = {}) {
  const std::vector<std::uint64_t> sizes = a.shape();
  auto builder = array::MakeBuilder(a.value_type());
  std::uint64_t total = 1;
  for (std::uint64_t s : n) total *= s;
  std::vector<std::uint64_t> idx(n.size(), 0);
  for (std::uint64_t e = 0; e < total; ++e) {
    std::uint64_t rest = e;  // e as a multi-index over n (C order)
    for (std::size_t k = n.size(); k-- > 0;) {
      idx[k] = lo[k] + rest % n[k];
      rest /= n[k];
    }
    const auto flat = static_cast<int64_t>(FlatIndex(idx, sizes));
    EXPECT_TRUE(builder->AppendArraySlice(*a.values(), flat, 1).ok());
  }
  std::vector<nd::Dimension> dims;
  for (std::size_t k = 0; k < n.size(); ++k) {
    if (drop.empty() || !drop[k]) dims.push_back({a.dimensions()[k].name, n[k]});
  }
  return Unwrap(nd::NdArrowArray::Make(
      Unwrap(builder->Finish()), Unwrap(nd::Dimensions::Make(std::move(dims))), a.attributes()));
}

/// Strictly monotonic coordinate values with gaps of 1 to 4 (ascending or descending).
inline array::ArrayPtr Coordinates(Rng& rng, std::uint64_t n, bool descending) {
  std::vector<std::optional<double>> v;
  double x = static_cast<double>(Uniform(rng, -50, 50)) + 0.5;
  for (std::uint64_t i = 0; i < n; ++i) {
    v.emplace_back(x);
    x += (descending ? -1.0 : 1.0) * static_cast<double>(Uniform(rng, 1, 4));
  }
  return array::MakePrimitiveArray<double>(array::Float64(), v);
}

/// One value kind per variable name across all datasets of a test (one type per column).
inline ValueKind KindOf(const std::string& name) {
  const std::size_t h = std::hash<std::string>{}(name);
  return static_cast<ValueKind>(h % nd::testing::kNumValueKinds);
}

/// A random dataset `id`: rank 0-4 layout (sizes 0-7), 1-4 variables over random subsets of
/// the dimensions in random order, coordinates for some dimensions, attributes, nulls.
inline TestDataset RandomDataset(Rng& rng, const std::string& id) {
  static const std::vector<std::string> kDims = {"t", "y", "x", "z"};
  TestDataset d;
  d.layout.id = id;
  const auto rank = static_cast<std::size_t>(Uniform(rng, 0, 4));
  for (std::size_t k = 0; k < rank; ++k) {
    d.layout.dim_names.push_back(kDims[k]);
    d.layout.dim_sizes.push_back(
        static_cast<std::uint64_t>(Uniform(rng, Chance(rng, 0.1) ? 0 : 1, 7)));
  }
  if (rank > 0 && Chance(rng, 0.5)) d.layout.unlimited_dims.push_back(kDims[0]);
  std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
  for (std::size_t k = 0; k < rank; ++k) {
    if (!Chance(rng, 0.7)) continue;
    const bool desc = Chance(rng, 0.4);
    d.descending[kDims[k]] = desc;
    nd::Attributes attrs;
    attrs.Set("units", "m");
    arrays.emplace_back(kDims[k], nd::testing::Nd(Coordinates(rng, d.layout.dim_sizes[k], desc),
                                                  {{kDims[k], d.layout.dim_sizes[k]}}, attrs));
  }
  const int num_vars = static_cast<int>(Uniform(rng, 1, 4));
  for (int v = 0; v < num_vars; ++v) {
    const std::string name = "v" + std::to_string(Uniform(rng, 0, 9));
    if (std::any_of(arrays.begin(), arrays.end(), [&](auto& a) { return a.first == name; })) {
      continue;
    }
    std::vector<std::size_t> axes(rank);
    std::iota(axes.begin(), axes.end(), 0);
    std::shuffle(axes.begin(), axes.end(), rng);
    axes.resize(static_cast<std::size_t>(Uniform(rng, 0, static_cast<int64_t>(rank))));
    std::vector<std::pair<std::string, std::uint64_t>> dims;
    std::uint64_t n = 1;
    for (std::size_t k : axes) {
      dims.emplace_back(kDims[k], d.layout.dim_sizes[k]);
      n *= d.layout.dim_sizes[k];
    }
    nd::Attributes attrs;
    if (Chance(rng, 0.5)) attrs.Set("long_name", name + " of " + id);
    if (Chance(rng, 0.3)) attrs.Set("scale", 0.5);
    arrays.emplace_back(
        name, nd::testing::Nd(nd::testing::RandomValues(rng, KindOf(name), static_cast<int64_t>(n)),
                              dims, attrs));
  }
  nd::Attributes globals;
  globals.Set(std::string(chunk_keys::kId), id);
  if (Chance(rng, 0.5)) globals.Set("title", "dataset " + id);
  d.batch = Unwrap(nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals)));
  for (std::size_t k = 0; k < rank; ++k) {
    if (Chance(rng, 0.7)) {
      d.chunk_sizes.emplace_back(kDims[k], static_cast<std::uint64_t>(Uniform(rng, 1, 9)));
    }
  }
  return d;
}

inline ChunkGrid GridOf(const TestDataset& d) {
  return Unwrap(ChunkGrid::Make(d.layout, d.chunk_sizes));
}

/// True when `array` has a dimension that the grid splits.
inline bool HasSplitDim(const nd::NdArrowArray& array, const ChunkGrid& grid) {
  for (const auto& dim : array.dimensions().dims()) {
    if (grid.IsSplit(static_cast<std::size_t>(grid.layout().DimIndex(dim.name)))) return true;
  }
  return false;
}

/// The chunk rows of `d` in chunk_index order (§3.6: variables without a split dimension only
/// in chunk 0).
inline std::vector<nd::NdRecordBatch> SplitIntoChunks(const TestDataset& d) {
  const ChunkGrid grid = GridOf(d);
  std::vector<nd::NdRecordBatch> rows;
  for (std::uint64_t i = 0; i < grid.num_chunks(); ++i) {
    const ChunkPosition pos = grid.Position(i);
    const std::vector<std::uint64_t> extent = grid.Extent(i);
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    for (int c = 0; c < d.batch.num_columns(); ++c) {
      const nd::NdArrowArray& a = d.batch.column(c);
      if (!HasSplitDim(a, grid)) {
        if (i == 0) arrays.emplace_back(d.batch.column_name(c), a);
        continue;
      }
      std::vector<std::uint64_t> lo, n;
      for (const auto& dim : a.dimensions().dims()) {
        const auto k = static_cast<std::size_t>(grid.layout().DimIndex(dim.name));
        lo.push_back(pos.offset[k]);
        n.push_back(extent[k]);
      }
      arrays.emplace_back(d.batch.column_name(c), Cut(a, lo, n));
    }
    nd::Attributes globals = d.batch.attributes();
    EXPECT_TRUE(SetChunkAttributes(d.layout, pos, &globals).ok());
    rows.push_back(Unwrap(nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals))));
  }
  return rows;
}

}  // namespace lance_nd::region_testing
