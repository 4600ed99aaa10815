// JSON Lines values: one array slot <-> one JSON value, plus the text helpers they need
// (string escaping, float formatting, base64, float16 bits).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/builder.h"
#include "lance_nd/core/result.h"

namespace lance_nd::json_lines {

/// Objects keep the order of their keys as written (arrays in column order, attribute keys).
using Json = nlohmann::ordered_json;

/// \brief `v` as JSON text cut to about 40 characters, for messages.
std::string ShortJson(const Json& v);

/// \brief `s` as a JSON string literal (quotes, escapes; UTF-8 bytes kept as they are).
void AppendJsonString(std::string& out, std::string_view s);

/// \brief Slot `i` of `a` as JSON text: null, a number, "NaN" / "Infinity" / "-Infinity", a
/// string (base64 for binary), or a JSON array for a list. NotImplemented for a type without a
/// JSON Lines dtype.
Status AppendSlot(std::string& out, const array::ArrayData& a, int64_t i);

/// \brief Append JSON value `v` (null: a null slot) to `builder`, whose type is `type`. Errors
/// are InvalidArgument "<problem> at <where>".
Status AppendJson(array::ArrayBuilder& builder, const array::DataType& type, const Json& v,
                  const std::string& where);

/// \brief Standard base64 with padding.
std::string Base64Encode(std::string_view bytes);
/// \brief Strict standard base64 (padding required); nullopt when `text` is not base64.
std::optional<std::string> Base64Decode(std::string_view text);

/// \brief IEEE binary16 bits <-> double; DoubleToHalf rounds to nearest, ties to even.
double HalfToDouble(std::uint16_t bits);
std::uint16_t DoubleToHalf(double value);

}  // namespace lance_nd::json_lines
