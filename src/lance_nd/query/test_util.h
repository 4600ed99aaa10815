// Test helper: parse, bind and select in one call.
#pragma once

#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::query::testutil {

inline Result<std::vector<std::int64_t>> SelectRows(const array::RecordBatch& batch,
                                                    const std::string& sql) {
  LND_ASSIGN_OR_RETURN(Filter filter, Filter::Parse(sql));
  LND_ASSIGN_OR_RETURN(BoundFilter bound, filter.Bind(*batch.schema()));
  return bound.Select(batch);
}

}  // namespace lance_nd::query::testutil
