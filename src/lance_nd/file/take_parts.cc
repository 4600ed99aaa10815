#include "lance_nd/file/take_parts.h"

#include <string>
#include <utility>

#include "lance_nd/file/take_pages.h"

namespace lance_nd::file::internal {

Result<bool> DecodeTakeParts(const ReaderState& state, const PageCache& cache, int c,
                             PageWork* work) {
  if (cache.Contains(c, work->page)) return false;
  const std::string where = state.ColumnWhere(c) + " page " + std::to_string(work->page);
  LND_ASSIGN_OR_RETURN(auto parts,
                       DecodePageParts(*state.file, state.column_meta(c).pages[work->page],
                                       state.is_v2_2(), work->ranges, where));
  if (!parts) return false;
  const LevelScheme& scheme = *state.column(c).scheme;
  for (PagePart& part : *parts) {
    LND_ASSIGN_OR_RETURN(PagePtr page, IndexPage(std::move(part.page), scheme, where));
    std::uint64_t first = 0;
    for (const auto& [b, e] : part.rows) {
      work->parts.push_back(TakePart{b, e, page, first});
      first += e - b;
    }
  }
  return true;
}

}  // namespace lance_nd::file::internal
