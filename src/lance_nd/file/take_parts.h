// Take: the pages of a take decoded only in the parts holding the taken rows (take_pages.h),
// each part normalized and indexed like a whole page.
#pragma once

#include "lance_nd/file/page_cache.h"
#include "lance_nd/file/read_plan.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file::internal {

/// \brief Decode the parts of `work`'s page (column `c`) holding `work->ranges` into
/// `work->parts`. Returns false, with nothing decoded, when the page is better read whole: it
/// is cached already, or partial decoding does not apply (take_pages.h).
Result<bool> DecodeTakeParts(const ReaderState& state, const PageCache& cache, int c,
                             PageWork* work);

}  // namespace lance_nd::file::internal
