// What region reads learn about a table version before reading any variable, kept per version:
// every row's global attributes (one scan of that column), the datasets found in them and the
// dimension names of their variables. A version never changes, so an index never goes stale;
// the indexes of a few versions are kept, the least recently used dropped.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/api/dataset_rows.h"
#include "lance_nd/api/region.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"

namespace lance_nd::api_internal {

/// \brief One version's index. Thread-safe.
class DatasetIndex {
 public:
  using DimNames = std::optional<std::vector<std::string>>;

  explicit DatasetIndex(std::vector<GlobalRow> rows) : rows_(std::move(rows)) {}

  /// \brief Every row's global attributes, in table order.
  const std::vector<GlobalRow>& rows() const { return rows_; }

  /// \brief The dataset `id`: remembered, or made by `collect` and remembered when it succeeds.
  Result<std::shared_ptr<const DatasetRows>> Dataset(
      std::string_view id, const std::function<Result<DatasetRows>()>& collect) const;

  /// \brief The table's datasets (ListDatasets): remembered, or made by `list` and remembered
  /// when it succeeds.
  Result<std::vector<DatasetInfo>> Datasets(
      const std::function<Result<std::vector<DatasetInfo>>()>& list) const;

  /// \brief The dimension names of `variable` in dataset `id`: remembered, or read by `read`
  /// and remembered when it succeeds.
  Result<DimNames> VariableDims(const std::string& id, const std::string& variable,
                                const std::function<Result<DimNames>()>& read) const;

 private:
  const std::vector<GlobalRow> rows_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::shared_ptr<const DatasetRows>, std::less<>> datasets_;
  mutable std::map<std::pair<std::string, std::string>, DimNames> dims_;
  mutable std::optional<std::vector<DatasetInfo>> listing_;
};

/// \brief The index of `table`'s version: kept from an earlier read, or built by scanning the
/// global-attributes column. Keyed by the version's parsed manifest, which Table::Open shares
/// only between opens of identical manifest bytes at the same path.
Result<std::shared_ptr<const DatasetIndex>> IndexOf(const Table& table);

/// \brief Drop every kept index.
void ForgetIndexes();

}  // namespace lance_nd::api_internal
