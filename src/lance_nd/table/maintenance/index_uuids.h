// The index directories (`_indices/<uuid>/`) a version's IndexSection references.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/core/result.h"

namespace lance_nd::table::internal {

/// \brief Hyphenated lowercase uuids of the indices in a raw IndexSection protobuf
/// (IndexSection.indices = 1 -> IndexMetadata.uuid = 1 -> UUID.uuid = 1, 16 bytes).
/// Corrupt when the bytes are not such a message.
Result<std::vector<std::string>> IndexUuids(std::string_view index_section,
                                            const std::string& manifest_name);

}  // namespace lance_nd::table::internal
