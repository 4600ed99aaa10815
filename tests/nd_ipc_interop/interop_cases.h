// The deterministic nd record batches lance-nd writes for the interop tests.
#pragma once

#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::interop {

/// \brief One set of rows encoded together (one table on the oracle side).
struct InteropCase {
  std::string name;
  /// true: Arrow IPC stream (`<name>.arrows`); false: IPC file (`<name>.arrow`).
  bool stream = false;
  std::vector<nd::NdRecordBatch> rows;
};

/// \brief Every case, built the same way on every call. Between them they cover float32,
/// float64, int16, int32, int64, uint16, utf8, bool and timestamp[ns] values; ranks 0 to 3 and a
/// zero-size axis; absent arrays; nulls inside values (and NaN, infinities, integer extremes);
/// scalar and list-valued attributes; global attributes; field and schema metadata; and a
/// table with no attributes at all.
Result<std::vector<InteropCase>> MakeInteropCases();

}  // namespace lance_nd::interop
