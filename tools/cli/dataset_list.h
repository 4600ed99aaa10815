// The datasets of a table, for `lance-nd ls`: rows grouped by the global attribute `id` (the
// chunk convention of docs/FORMAT.md §3.6), each with its dimensions, chunk counts, global
// attributes and variables (dtype, dims with sizes, attributes). Only global attributes are
// read for every row; dims and attributes of the variables come from one row per dataset
// (chunk 0, which holds every variable, or the dataset's first row), without their values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd::cli {

struct VariableSummary {
  std::string name;
  std::string dtype;  // a JSON Lines dtype, or the Arrow name
  std::vector<std::string> dim_names;
  std::vector<std::uint64_t> dim_sizes;  // full dataset sizes for chunked datasets
  nd::Attributes attributes;
};

struct DatasetSummary {
  std::optional<std::string> id;  // nullopt: a row without an id, a dataset of its own
  std::uint64_t first_row = 0;    // table order, from 0
  std::uint64_t rows = 0;         // rows found
  bool chunked = false;           // rows carry the chunk keys
  std::uint64_t chunk_count = 0;  // chunked: the count the rows state
  std::vector<std::string> dim_names;
  std::vector<std::uint64_t> dim_sizes;
  std::vector<std::string> unlimited_dims;
  nd::Attributes global_attributes;  // of the row read, without the convention's keys
  std::vector<VariableSummary> variables;
};

/// \brief The datasets of `table`, in the order their first rows appear. Errors name the row
/// whose chunk keys are malformed.
Result<std::vector<DatasetSummary>> ListDatasets(const Table& table);

}  // namespace lance_nd::cli
