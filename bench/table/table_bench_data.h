// Data for the table benchmarks: rows of id int64, x float64, y float32, name utf8 (16 bytes),
// about 36 bytes of values per row, deterministic.
#pragma once

#include <cstdint>
#include <string>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"

namespace lance_nd::bench {

Result<array::RecordBatchPtr> MakeTableRows(std::int64_t first_id, std::int64_t rows);

/// \brief Write one batch as an Arrow IPC file (what both engines ingest in the comparison).
Status WriteIpc(const std::string& path, const array::RecordBatchPtr& batch);
Result<array::RecordBatchPtr> ReadIpc(const std::string& path);

}  // namespace lance_nd::bench
