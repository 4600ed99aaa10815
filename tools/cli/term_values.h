// Values and attributes as short readable text, through their JSON Lines form (so every dtype
// JSON Lines knows is shown as `cat` would write it): `280.5`, `NaN`, `"K"`, `[1, 2]`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lance_nd/array/array_data.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd::cli {

/// \brief The JSON Lines dtype of `type` ("float32"), or its Arrow name when JSON Lines has none.
std::string DtypeText(const array::DataType& type);

/// \brief One JSON Lines value as text: numbers as written, the float strings NaN / Infinity
/// bare when `floating`, other strings quoted, lists in brackets.
std::string ValueText(const nlohmann::json& value, bool floating);

/// \brief The values as "[280.5, 281.0, null, NaN]"; more than `max_items` show the first and
/// last few around "…". A single value of a scalar (`scalar`) is shown without brackets.
std::string PreviewValues(const array::ArrayPtr& values, std::size_t max_items, bool scalar);

/// \brief `attributes` as JSON Lines typed values {KEY: {"dtype": T, "value": V}}; a value of
/// a type JSON Lines cannot write becomes {"dtype": ARROW TYPE, "value": null}.
nlohmann::ordered_json AttributesJson(const nd::Attributes& attributes);

/// \brief `key=value` pairs, comma-separated: `units="K", valid_range=[0, 1]`.
std::string AttributesText(const nd::Attributes& attributes);

}  // namespace lance_nd::cli
