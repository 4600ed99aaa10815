// A Projection resolved against the file's field tree: the chosen fields as a pruned tree in
// schema order, their leaf columns, and the Arrow fields a read returns.
#pragma once

#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/file/lance_schema_internal.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/file/reader_state.h"

namespace lance_nd::file::internal {

/// \brief A (possibly pruned) field of a projection.
struct ProjNode {
  const FieldNode* node = nullptr;
  std::vector<ProjNode> children;  // struct: the chosen children
  bool whole = true;               // all children chosen
};

/// \brief The top-level fields `projection` chooses, in schema order. InvalidArgument for
/// unknown names or ids, paths through non-structs, and ids of fields inside lists.
Result<std::vector<ProjNode>> ResolveProjection(const ReaderState& state,
                                                const Projection& projection);

/// \brief Leaf columns under `pn`, in schema order.
void CollectLeaves(const ProjNode& pn, std::vector<int>* out);
void CollectLeaves(const FieldNode& node, std::vector<int>* out);

/// \brief The Arrow field `pn` reads as (a struct keeps only its chosen children).
array::FieldPtr ProjectedField(const ProjNode& pn);

/// \brief NotImplemented, with the field's reason, if any chosen field cannot be read.
Status CheckReadable(const std::vector<ProjNode>& nodes);

}  // namespace lance_nd::file::internal
