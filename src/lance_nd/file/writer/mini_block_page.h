// Mini-block pages: value chunks with their slices of the rep/def levels, the chunk table and
// Lance's repetition index.
#pragma once

#include <optional>

#include "lance_nd/core/result.h"
#include "lance_nd/file/writer/page_encoder.h"
#include "lance_nd/file/writer/shred.h"

namespace lance_nd::file::internal::writer {

/// \brief Encode `page` (values, levels) as a mini-block page. When the chunk limits (u16 level
/// counts and sizes, the chunk word's size) cannot be met even with fewer values per chunk,
/// returns nullopt: the caller then writes the page as full-zip, which has no such limits.
Result<std::optional<EncodedPage>> EncodeMiniBlockPage(const ShreddedPage& page,
                                                       const ColumnOptions& options);

}  // namespace lance_nd::file::internal::writer
