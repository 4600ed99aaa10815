// Filters in the Lance SQL dialect users write (`__global_attrs__.id = 'a' AND sst.values > 3`):
// parsed into an expression tree, bound to an Arrow schema, evaluated on record batches with
// SQL's three-valued logic, and rewritten onto per-row min/max stats columns (pruning).
// This layer knows Arrow, not Lance tables nor the nd model beyond column names.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::query {

// The expression tree (query/expr.h).
struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// \brief A path to a column or a struct child: {"__global_attrs__", "id"}, {"sst", "values"},
/// {"depth"}. Names are whole names: a variable `a.b` is the one-element path {"a.b"}.
using ColumnPath = std::vector<std::string>;

class BoundFilter;

/// \brief A parsed filter. Parsing checks the syntax only; Bind resolves names and types.
class LANCE_ND_EXPORT Filter {
 public:
  /// \brief Parse `sql`. Errors: InvalidArgument (ErrorKind::kParseError) "filter: at position
  /// P (line:col): expected X, found Y" with the text around P.
  static Result<Filter> Parse(std::string_view sql);
  /// \brief A filter from a tree built in code (e.g. by PruneFilter).
  explicit Filter(ExprPtr root);

  const ExprPtr& root() const { return root_; }
  /// \brief The text this filter was parsed from (empty for a tree built in code); bind
  /// errors point into it.
  const std::string& sql() const;
  /// \brief The filter as Lance SQL text that Parse reads back to the same tree (identifiers
  /// quoted with backticks where needed); LanceDB accepts it too.
  std::string ToSql() const;
  /// \brief Every column path the filter reads, each once, in order of appearance.
  std::vector<ColumnPath> ColumnPaths() const;

  /// \brief Resolve names against `schema` and check types. Dotted names resolve to the
  /// longest matching top-level name first (`a.b.values` with a column `a.b`). Errors:
  /// InvalidArgument (kParseError) naming the unknown column at its position and listing the
  /// columns that exist; for a type error, the operator, both types and the position.
  Result<BoundFilter> Bind(const array::Schema& schema) const;

 private:
  ExprPtr root_;
  std::shared_ptr<const std::string> sql_;
};

/// \brief A filter bound to a schema. Evaluate takes batches that have the bound columns at the
/// same paths (the full schema, or a projection of it holding at least ColumnPaths()); struct
/// children are found by name.
class LANCE_ND_EXPORT BoundFilter {
 public:
  /// \brief The filter's value for every row: a Bool array of batch.num_rows, null where SQL
  /// says unknown (a comparison with a null, ...).
  Result<array::ArrayPtr> Evaluate(const array::RecordBatch& batch) const;
  /// \brief The rows for which the filter is TRUE (unknown and false rows are left out), in
  /// increasing order.
  Result<std::vector<std::int64_t>> Select(const array::RecordBatch& batch) const;
  /// \brief The column paths read (as Filter::ColumnPaths, resolved against the schema).
  const std::vector<ColumnPath>& column_paths() const;
  const Filter& filter() const;

 private:
  friend class Filter;
  struct Impl;
  explicit BoundFilter(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// \brief Rewrite `filter` so that comparisons on a variable's values (`v.values > 3`,
/// `v.values BETWEEN a AND b`, `v.values IN (...)`, `array_has(v.values, x)`) become tests on
/// the stats column `__stats__:v` (Struct{min, max}) of `table_schema`. The result keeps every
/// row that can match (never lossy): value parts without a stats form keep every row, AND drops
/// such a side, OR needs both sides, NOT only applies over parts without values; a row whose
/// stats struct is null (no such variable) is skipped, one with null min/max is kept. Parts on
/// attributes and global attributes stay exact. nullopt: keep every row.
LANCE_ND_EXPORT Result<std::optional<Filter>> PruneFilter(const Filter& filter,
                                                          const array::Schema& table_schema);

}  // namespace lance_nd::query
