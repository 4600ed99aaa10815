// Private helpers of the api layer: the table errors (TableNotFound, TableExists) and opening a
// lance-nd table's dataset with its format checked.
#pragma once

#include <cstdint>
#include <optional>

#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"

namespace lance_nd::internal {

/// \brief NotFound + kTableNotFound: "no table at <root>".
Status TableNotFound(const table::TableLocation& location);
/// \brief AlreadyExists + kTableExists: "a table exists at <root>; ...".
Status TableExists(const table::TableLocation& location);
/// \brief Whether the location holds at least one committed version.
Result<bool> TableExistsAt(const table::TableLocation& location);
/// \brief The dataset at `version` (default latest), its format checked: TableNotFound when
/// nothing is there, InvalidTable when it is not a lance-nd table of format "1".
Result<table::Dataset> OpenDataset(const table::TableLocation& location,
                                   std::optional<std::uint64_t> version);

}  // namespace lance_nd::internal
