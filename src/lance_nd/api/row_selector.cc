#include "lance_nd/api/row_selector.h"

#include <algorithm>
#include <iterator>

#include "lance_nd/api/scan_columns.h"

namespace lance_nd::api_internal {
namespace {

Result<query::BoundFilter> ParseAndBind(const array::Schema& schema, const std::string& sql) {
  LND_ASSIGN_OR_RETURN(query::Filter filter, query::Filter::Parse(sql));
  return filter.Bind(schema);
}

}  // namespace

std::vector<std::string> RowConditions::Columns(const array::Schema& table_schema) const {
  std::vector<query::ColumnPath> paths;
  for (const auto* f : {&exact, &prune}) {
    if (*f) paths.insert(paths.end(), (*f)->column_paths().begin(), (*f)->column_paths().end());
  }
  return FilterColumns(table_schema, paths);
}

Result<std::vector<std::int64_t>> RowConditions::Select(const array::RecordBatch& batch) const {
  std::optional<std::vector<std::int64_t>> rows;
  for (const auto* f : {&exact, &prune}) {
    if (!*f) continue;
    LND_ASSIGN_OR_RETURN(std::vector<std::int64_t> selected, (*f)->Select(batch));
    if (!rows) {
      rows = std::move(selected);
      continue;
    }
    std::vector<std::int64_t> both;
    std::set_intersection(rows->begin(), rows->end(), selected.begin(), selected.end(),
                          std::back_inserter(both));
    rows = std::move(both);
  }
  if (rows) return std::move(*rows);
  std::vector<std::int64_t> all(static_cast<std::size_t>(batch.num_rows()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
  return all;
}

Result<RowConditions> MakeRowConditions(const array::Schema& table_schema,
                                        const std::string& filter, const std::string& prune) {
  RowConditions out;
  if (!filter.empty()) {
    LND_ASSIGN_OR_RETURN_CTX(out.exact, ParseAndBind(table_schema, filter), "scan filter");
  }
  if (!prune.empty()) {
    LND_ASSIGN_OR_RETURN_CTX(query::Filter parsed, query::Filter::Parse(prune), "scan prune");
    LND_ASSIGN_OR_RETURN_CTX(std::optional<query::Filter> rewritten,
                             query::PruneFilter(parsed, table_schema), "scan prune");
    if (rewritten) {
      LND_ASSIGN_OR_RETURN_CTX(out.prune, rewritten->Bind(table_schema), "scan prune");
    }
  }
  return out;
}

Result<RowSelector> RowSelector::Open(const table::Dataset& ds, RowConditions conditions,
                                      std::int64_t batch_rows) {
  table::TableScanOptions options;
  options.projection = conditions.Columns(*ds.schema());
  options.batch_rows = batch_rows;
  LND_ASSIGN_OR_RETURN(table::TableBatchReader reader, table::ScanTable(ds, options));
  return RowSelector(std::move(conditions), std::move(reader));
}

Result<std::optional<std::vector<std::uint64_t>>> RowSelector::Next() {
  LND_ASSIGN_OR_RETURN(array::RecordBatchPtr batch, reader_.Next());
  if (!batch) return std::optional<std::vector<std::uint64_t>>();
  LND_ASSIGN_OR_RETURN(std::vector<std::int64_t> rows, conditions_.Select(*batch));
  std::vector<std::uint64_t> out;
  out.reserve(rows.size());
  for (std::int64_t r : rows) out.push_back(rows_seen_ + static_cast<std::uint64_t>(r));
  rows_seen_ += static_cast<std::uint64_t>(batch->num_rows());
  return std::optional<std::vector<std::uint64_t>>(std::move(out));
}

}  // namespace lance_nd::api_internal
