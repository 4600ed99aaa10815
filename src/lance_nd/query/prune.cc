// PruneFilter: value comparisons rewritten onto per-row min/max stats columns.
#include "lance_nd/query/expr.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::query {

Result<std::optional<Filter>> PruneFilter(const Filter& /*filter*/,
                                          const array::Schema& /*table_schema*/) {
  return std::optional<Filter>();  // keep every row (first version)
}

}  // namespace lance_nd::query
