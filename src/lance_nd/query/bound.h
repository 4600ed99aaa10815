// A filter bound to a schema: every node knows its result type, every column its resolved
// path (top-level name first, then struct child names).
#pragma once

#include <memory>
#include <vector>

#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::query {

struct BoundNode {
  const Expr* expr = nullptr;  // kept alive by the Filter held next to the tree
  array::DataTypePtr type;     // the node's result type
  ColumnPath path;             // kColumn: the resolved path
  std::vector<std::shared_ptr<const BoundNode>> args;
};

/// \brief Resolve and type-check `filter` against `schema` (Filter::Bind).
Result<std::shared_ptr<const BoundNode>> BindTree(const Filter& filter, const array::Schema& schema,
                                                  std::vector<ColumnPath>* paths);

}  // namespace lance_nd::query
