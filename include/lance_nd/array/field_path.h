#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::array {

/// \brief The names of the nested struct fields that a projection path selects, top level first.
///
/// Field names may hold dots (netCDF and xarray attribute names often do), so a path is matched
/// against the fields rather than split blindly:
/// - a part in backticks is one name taken literally (`` attrs.`a.b` ``; a doubled backtick
///   inside stands for one backtick);
/// - otherwise an exact top-level name wins, then the split whose names all exist in the schema
///   (the longest name first at each level);
/// - a path no split matches is split at every dot, so the caller's "no field named" error
///   names the first missing part.
/// An unterminated backtick or an empty part is InvalidArgument.
LANCE_ND_EXPORT Result<std::vector<std::string>> SplitFieldPath(const std::vector<FieldPtr>& fields,
                                                                std::string_view path);

/// \brief A path that SplitFieldPath turns back into `names` for any schema: names holding a
/// dot or a backtick are quoted in backticks, and so is the first of several names.
LANCE_ND_EXPORT std::string JoinFieldPath(const std::vector<std::string>& names);

}  // namespace lance_nd::array
