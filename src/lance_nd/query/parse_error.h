// Errors that point into the filter text: position, line and column, the text around it and a
// caret under the offending spot.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lance_nd/core/status.h"

namespace lance_nd::query {

/// \brief "filter: at position P (line L, column C): <what>" followed by the line of `sql`
/// around P and a caret. Kind kParseError. `position` < 0: no location.
Status FilterError(std::string_view sql, std::int64_t position, const std::string& what);

}  // namespace lance_nd::query
