// JSON Lines values: one JSON value -> one array slot.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/json_values.h"

namespace lance_nd::json_lines {
namespace {

using array::ArrayBuilder;
using array::DataType;
using array::TypeId;

Status Expected(std::string_view what, const Json& v, const std::string& where) {
  return Status::InvalidArgument("expected ", what, ", found ", ShortJson(v), " at ", where);
}

template <typename T>
Status AppendInteger(ArrayBuilder& builder, const DataType& type, const Json& v,
                     const std::string& where) {
  using Limits = std::numeric_limits<T>;
  const auto out_of_range = [&] {
    return Status::InvalidArgument(ShortJson(v), " is out of the range of ",
                                   JsonDtypeName(type).ValueOr(type.ToString()), " (",
                                   +Limits::min(), "..", +Limits::max(), ") at ", where);
  };
  T value{};
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(Limits::max())) return out_of_range();
    value = static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto s = v.get<std::int64_t>();
    if constexpr (std::is_signed_v<T>) {
      if (s < Limits::min() || s > Limits::max()) return out_of_range();
    } else {
      if (s < 0 || static_cast<std::uint64_t>(s) > Limits::max()) return out_of_range();
    }
    value = static_cast<T>(s);
  } else {
    return Expected("an integer", v, where);
  }
  static_cast<array::PrimitiveBuilder<T>&>(builder).Append(value);
  return Status::OK();
}

/// A JSON number or one of the strings "NaN", "Infinity", "-Infinity".
Result<double> FloatValue(const Json& v, const std::string& where) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return Expected("a number, \"NaN\", \"Infinity\" or \"-Infinity\"", v, where);
}

// A finite number that the type can only hold as an infinity is refused: infinities are
// written as "Infinity" / "-Infinity", so storing one silently would change the value.
Status OutOfFloatRange(const Json& v, std::string_view dtype, std::string_view max,
                       const std::string& where) {
  return Status::InvalidArgument(ShortJson(v), " is out of the range of ", dtype, " (largest ", max,
                                 ") at ", where,
                                 "; use dtype float64, or write \"Infinity\" / \"-Infinity\" "
                                 "for an infinite value");
}

Status AppendFloatSlot(ArrayBuilder& builder, TypeId id, const Json& v, const std::string& where) {
  LND_ASSIGN_OR_RETURN(const double d, FloatValue(v, where));
  if (id == TypeId::kFloat16) {
    const uint16_t half = DoubleToHalf(d);
    if (std::isfinite(d) && (half & 0x7FFFu) == 0x7C00u) {
      return OutOfFloatRange(v, "float16", "65504", where);
    }
    static_cast<array::PrimitiveBuilder<uint16_t>&>(builder).Append(half);
  } else if (id == TypeId::kFloat32) {
    const auto f = static_cast<float>(d);
    if (std::isfinite(d) && !std::isfinite(f)) {
      return OutOfFloatRange(v, "float32", "3.4028235e38", where);
    }
    static_cast<array::PrimitiveBuilder<float>&>(builder).Append(f);
  } else {
    static_cast<array::PrimitiveBuilder<double>&>(builder).Append(d);
  }
  return Status::OK();
}

Status AppendString(ArrayBuilder& builder, bool base64, const Json& v, const std::string& where) {
  if (!v.is_string()) return Expected(base64 ? "a base64 string" : "a string", v, where);
  const auto& s = v.get_ref<const std::string&>();
  auto& b = static_cast<array::BinaryBuilder&>(builder);
  if (!base64) {
    b.Append(s);
    return Status::OK();
  }
  const std::optional<std::string> bytes = Base64Decode(s);
  if (!bytes) return Expected("base64 (standard alphabet, with padding)", v, where);
  b.Append(*bytes);
  return Status::OK();
}

Status AppendListSlot(ArrayBuilder& builder, const DataType& type, const Json& v,
                      const std::string& where) {
  if (!v.is_array()) return Expected("a JSON array (a list value)", v, where);
  auto& b = static_cast<array::ListBuilder&>(builder);
  b.Append(true);
  for (std::size_t k = 0; k < v.size(); ++k) {
    LND_RETURN_NOT_OK(AppendJson(*b.value_builder(), *type.value_type(), v[k],
                                 where + "[" + std::to_string(k) + "]"));
  }
  return Status::OK();
}

}  // namespace

Status AppendJson(ArrayBuilder& builder, const DataType& type, const Json& v,
                  const std::string& where) {
  if (v.is_null()) {
    builder.AppendNull();
    return Status::OK();
  }
  switch (type.id()) {
    case TypeId::kBool:
      if (!v.is_boolean()) return Expected("true or false", v, where);
      static_cast<array::BoolBuilder&>(builder).Append(v.get<bool>());
      return Status::OK();
    case TypeId::kInt8:
      return AppendInteger<int8_t>(builder, type, v, where);
    case TypeId::kInt16:
      return AppendInteger<int16_t>(builder, type, v, where);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return AppendInteger<int32_t>(builder, type, v, where);
    case TypeId::kInt64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      return AppendInteger<int64_t>(builder, type, v, where);
    case TypeId::kUInt8:
      return AppendInteger<uint8_t>(builder, type, v, where);
    case TypeId::kUInt16:
      return AppendInteger<uint16_t>(builder, type, v, where);
    case TypeId::kUInt32:
      return AppendInteger<uint32_t>(builder, type, v, where);
    case TypeId::kUInt64:
      return AppendInteger<uint64_t>(builder, type, v, where);
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return AppendFloatSlot(builder, type.id(), v, where);
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      return AppendString(builder, /*base64=*/false, v, where);
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return AppendString(builder, /*base64=*/true, v, where);
    case TypeId::kList:
      return AppendListSlot(builder, type, v, where);
    default:
      return JsonDtypeName(type).status();
  }
}

}  // namespace lance_nd::json_lines
