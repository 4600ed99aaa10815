// Synthetic data shared by the lance-nd benchmarks: nd float32 grids in the encoded row layout.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"

namespace lance_nd::bench {

/// \brief `rows` nd rows of one nullable nd column "sst", each a float32 grid
/// (time=1, lat=`lat`, lon=`lon`) in the encoded layout {values: list<float32>,
/// dim_names: list<utf8>, dim_sizes: list<uint32>} (nd::EncodeRows). Values are a smooth field
/// plus noise, quantised to 0.01, deterministic. With `zstd`, the values item field carries
/// `lance-encoding:compression=zstd`.
Result<array::RecordBatchPtr> MakeNdGrids(std::int64_t rows, int lat, int lon, bool zstd);

/// \brief A one-column batch "x": non-nullable float32, `count` values of the same field.
/// The field is positive, so the sign bit is always clear and Lance (like lance-nd) bit-packs
/// the values to 31 bits. With `full_width`, every other value is negated: no bit-packing is
/// possible and the column is stored as plain (flat) float32.
array::RecordBatchPtr MakeFlatFloat32(std::int64_t count, bool full_width = false);

/// \brief Sum (in row order, as double) of the float values of the nd column `column` of
/// `batch` (its `values` child). A checksum both engines compute the same way.
Result<double> SumNdValues(const array::RecordBatch& batch, int column = 0);

/// \brief `count` distinct row indices in [0, num_rows), random order, from `seed`.
std::vector<std::uint64_t> RandomRows(std::int64_t num_rows, int count, std::uint64_t seed);

}  // namespace lance_nd::bench
