// Reading and writing the chunk convention's keys as typed global attributes.
#pragma once

#include "lance_nd/api/chunking.h"

namespace lance_nd::internal {

/// \brief InvalidArgument unless the offsets match the layout's rank, lie within the shape,
/// and the index is below the count.
Status CheckPosition(const DatasetLayout& layout, const ChunkPosition& position);

/// \brief Add the seven keys (none may be present).
Status PutChunkValues(const DatasetLayout& layout, const ChunkPosition& position,
                      nd::Attributes* attributes);

/// \brief The seven keys' values, type-checked (integers of any width that fit; utf8 or
/// large_utf8), naming the key and what was found.
Result<ChunkAttributes> GetChunkValues(const nd::Attributes& attributes);

}  // namespace lance_nd::internal
