// One read of a row selection: plan the pages, decode them in parallel (whole, or in parts for
// a take), assemble each leaf, then the projected fields into a record batch.
#pragma once

#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/file/page_cache.h"
#include "lance_nd/file/projected_fields.h"
#include "lance_nd/file/read_plan.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file::internal {

/// \brief The rows of `runs` (output order) for the fields of `proj`. `take` decodes only the
/// parts of pages holding the rows, where the page layout allows.
Result<array::RecordBatchPtr> ReadBatch(const ReaderState& state, PageCache& cache,
                                        const Runs& runs, const std::vector<ProjNode>& proj,
                                        bool take);

}  // namespace lance_nd::file::internal
