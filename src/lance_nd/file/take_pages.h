// Random access into one page: decode only the mini-block chunks (or full-zip rows) holding a
// set of rows, reading only their byte ranges (docs/lance-file-format.md §3.3, §3.4), and keep
// only those rows of the chunks (keep_rows.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/file/container.h"
#include "lance_nd/file/page_decoder.h"
#include "lance_nd/io/file.h"

namespace lance_nd::file::internal {

/// \brief A decoded part of a page: the page rows of `rows` (page-local [begin, end), sorted),
/// back to back.
struct PagePart {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> rows;
  DecodedPage page;  // levels as stored (not normalized), num_rows = the rows of `rows`
};

/// \brief Decode the parts of page `meta` covering `ranges` (page-local [begin, end) row
/// ranges, sorted, disjoint). Parts are sorted and disjoint and cover every requested row.
/// Returns std::nullopt when partial decoding does not apply (constant pages, unknown layouts,
/// metadata that does not add up, or when most of the page's rows are needed): the caller then
/// decodes the whole page, which also reports any corruption with its full message.
Result<std::optional<std::vector<PagePart>>> DecodePageParts(
    const io::RandomAccessFile& file, const PageMeta& meta, bool is_v2_2,
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges, const std::string& where);

}  // namespace lance_nd::file::internal
