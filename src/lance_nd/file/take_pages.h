// Random access into one page: decode only the mini-block chunks (or full-zip rows) holding a
// set of rows, reading only their byte ranges (docs/lance-file-format.md §3.3, §3.4).
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

/// \brief A decoded part of a page: page rows [row_begin, row_end) (page-local numbering).
struct PagePart {
  std::uint64_t row_begin = 0;
  std::uint64_t row_end = 0;
  DecodedPage page;  // levels as stored (not normalized), num_rows = row_end - row_begin
};

/// \brief Decode the parts of page `meta` covering `ranges` (page-local [begin, end) row
/// ranges, sorted, disjoint). Parts are sorted and disjoint and cover every requested row.
/// Returns std::nullopt when partial decoding does not apply (constant pages, unknown layouts,
/// metadata that does not add up, or when most of the page is needed): the caller then decodes
/// the whole page, which also reports any corruption with its full message.
Result<std::optional<std::vector<PagePart>>> DecodePageParts(
    const io::RandomAccessFile& file, const PageMeta& meta, bool is_v2_2,
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges, const std::string& where);

}  // namespace lance_nd::file::internal
