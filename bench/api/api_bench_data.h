// Rows of the facade benchmarks (bench/api/README.md): many small nd record batches with global
// attributes, one group in a hundred picked by a global key and about one row in seventy by the
// stats of its values.
#pragma once

#include <cstdint>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::bench {

/// \brief `rows` nd record batches: a float32 variable `sst` (time=1, lat=4, lon=4) whose values
/// lie in [b, b + 1) for a per-row base b spread evenly over [0, 100) in a shuffled order, with
/// attribute `units` = "K"; global attributes `id` ("r<row>"), `group` (int32, row % 100) and
/// `source` ("model-<row % 7>"). Deterministic.
Result<std::vector<nd::NdRecordBatch>> MakeFilterRows(std::int64_t rows);

/// \brief The nd record batches of MakeNdGrids (time=1, lat, lon float32 grids named `sst`).
Result<std::vector<nd::NdRecordBatch>> MakeGridRows(std::int64_t rows, int lat, int lon);

}  // namespace lance_nd::bench
