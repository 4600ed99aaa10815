// The table schema as JSON for `lance-nd schema` (docs/cli.md has the shape): variables with
// their value type, attribute keys and field metadata, global attribute keys, stats columns and
// schema metadata.
#pragma once

#include <nlohmann/json.hpp>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::cli {

/// \brief `schema` (a lance-nd table's encoded schema) as the JSON of `schema --json`; Corrupt
/// for an nd column whose storage layout is broken.
Result<nlohmann::ordered_json> SchemaJson(const array::Schema& schema);

}  // namespace lance_nd::cli
