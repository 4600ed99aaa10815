// Checks shared by the Table operations: writes only on the latest version.
#pragma once

#include <string_view>

#include "lance_nd/api/table.h"
#include "lance_nd/core/status.h"

namespace lance_nd::api_internal {

/// \brief InvalidArgument when `table` was opened read-only by Checkout: `operation` needs the
/// latest version.
Status CheckWritable(const Table& table, std::string_view operation);

}  // namespace lance_nd::api_internal
