// Assembly: a leaf's levels and values from its decoded segments, then the nested arrays of a
// projected field from its leaves.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/file/projected_fields.h"
#include "lance_nd/file/read_plan.h"
#include "lance_nd/file/reader_state.h"
#include "lance_nd/file/structure.h"

namespace lance_nd::file::internal {

/// \brief One leaf column of a read: validity / offsets of each layer on its path (outermost
/// first) and the leaf array.
struct LeafResult {
  std::vector<LayerArrays> layers;
  array::ArrayPtr leaf;
};

/// \brief Levels and values of leaf column `c` from `segs`; values are copied on `threads`
/// threads, or adopted from `column_values` when the pages decoded into it (read_plan.h).
Result<LeafResult> AssembleLeaf(const ReaderState& state, int c, const std::vector<Segment>& segs,
                                int threads, const array::BufferPtr& column_values = nullptr);

/// \brief The array of `node` (read as `field`, pruned as `pn` when not null) at nesting
/// `depth`, from the leaf results by column.
Result<array::ArrayPtr> AssembleField(const ReaderState& state, const FieldNode& node,
                                      const array::FieldPtr& field, const ProjNode* pn,
                                      std::size_t depth, const std::map<int, LeafResult>& leaves);

}  // namespace lance_nd::file::internal
