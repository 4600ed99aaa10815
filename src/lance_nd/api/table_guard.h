// Checks shared by the Table operations: writes only on the latest version, and the lance-nd
// format marker of a version's schema.
#pragma once

#include <string_view>

#include "lance_nd/api/table.h"
#include "lance_nd/core/status.h"

namespace lance_nd::api_internal {

/// \brief InvalidArgument when `table` was opened read-only by Checkout: `operation` needs the
/// latest version.
Status CheckWritable(const Table& table, std::string_view operation);

/// \brief InvalidTable unless `schema` has `lance_nd:format` = "1" (what was found, what is
/// expected). `what` names the table version in the message.
Status CheckNdFormat(const array::Schema& schema, std::string_view what);

}  // namespace lance_nd::api_internal
