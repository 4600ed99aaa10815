#include "nd_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lance_nd/array/builder.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;
using json = nlohmann::json;

template <typename T>
Status AppendInteger(la::ArrayBuilder* builder, const json& v, const std::string& where) {
  auto* b = dynamic_cast<la::PrimitiveBuilder<T>*>(builder);
  if (b == nullptr) return Status::InvalidArgument(where + ": internal: unexpected builder");
  T value{};
  if (v.is_string()) {  // 64-bit values are decimal strings
    const auto& s = v.get_ref<const std::string&>();
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) {
      return Status::InvalidArgument(where + ": '" + s + "' is not a valid integer of its type");
    }
  } else if (v.is_number_integer()) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
        return Status::InvalidArgument(where + ": " + v.dump() + " is out of range");
      }
      value = static_cast<T>(u);
    } else {
      const auto s = v.get<std::int64_t>();
      if constexpr (std::is_signed_v<T>) {
        if (s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max()) {
          return Status::InvalidArgument(where + ": " + v.dump() + " is out of range");
        }
      } else {
        if (s < 0 || static_cast<std::uint64_t>(s) > std::numeric_limits<T>::max()) {
          return Status::InvalidArgument(where + ": " + v.dump() + " is out of range");
        }
      }
      value = static_cast<T>(s);
    }
  } else {
    return Status::InvalidArgument(where + ": expected an integer, found " + v.dump());
  }
  b->Append(value);
  return Status::OK();
}

template <typename T>
Status AppendFloat(la::ArrayBuilder* builder, const json& v, const std::string& where) {
  auto* b = dynamic_cast<la::PrimitiveBuilder<T>*>(builder);
  if (b == nullptr) return Status::InvalidArgument(where + ": internal: unexpected builder");
  if (v.is_number()) {
    b->Append(static_cast<T>(v.get<double>()));
  } else if (v == "NaN") {
    b->Append(std::numeric_limits<T>::quiet_NaN());
  } else if (v == "Infinity") {
    b->Append(std::numeric_limits<T>::infinity());
  } else if (v == "-Infinity") {
    b->Append(-std::numeric_limits<T>::infinity());
  } else {
    return Status::InvalidArgument(where + ": expected a number, found " + v.dump());
  }
  return Status::OK();
}

/// \brief Binary values are written as lowercase hex digits, two per byte.
Result<std::string> FromHex(const std::string& hex, const std::string& where) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int hi = digit(hex[i]);
    const int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) break;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  if (out.size() * 2 != hex.size()) {
    return Status::InvalidArgument(where + ": '" + hex + "' is not lowercase hex");
  }
  return out;
}

/// \brief Append JSON value `v` (null = a null slot) to `builder`, of type `type`.
Status AppendJson(la::ArrayBuilder* builder, const la::DataType& type, const json& v,
                  const std::string& where) {
  if (v.is_null()) {
    builder->AppendNull();
    return Status::OK();
  }
  switch (type.id()) {
    case la::TypeId::kBool: {
      auto* b = dynamic_cast<la::BoolBuilder*>(builder);
      if (b == nullptr || !v.is_boolean()) {
        return Status::InvalidArgument(where + ": expected true or false, found " + v.dump());
      }
      b->Append(v.get<bool>());
      return Status::OK();
    }
    case la::TypeId::kInt8:
      return AppendInteger<int8_t>(builder, v, where);
    case la::TypeId::kInt16:
      return AppendInteger<int16_t>(builder, v, where);
    case la::TypeId::kInt32:
    case la::TypeId::kDate32:
      return AppendInteger<int32_t>(builder, v, where);
    case la::TypeId::kInt64:
    case la::TypeId::kTimestamp:
    case la::TypeId::kDate64:
    case la::TypeId::kDuration:
      return AppendInteger<int64_t>(builder, v, where);
    case la::TypeId::kUInt8:
      return AppendInteger<uint8_t>(builder, v, where);
    case la::TypeId::kUInt16:
      return AppendInteger<uint16_t>(builder, v, where);
    case la::TypeId::kUInt32:
      return AppendInteger<uint32_t>(builder, v, where);
    case la::TypeId::kUInt64:
      return AppendInteger<uint64_t>(builder, v, where);
    case la::TypeId::kFloat32:
      return AppendFloat<float>(builder, v, where);
    case la::TypeId::kFloat64:
      return AppendFloat<double>(builder, v, where);
    case la::TypeId::kUtf8:
    case la::TypeId::kLargeUtf8: {
      auto* b = dynamic_cast<la::BinaryBuilder*>(builder);
      if (b == nullptr || !v.is_string()) {
        return Status::InvalidArgument(where + ": expected a string, found " + v.dump());
      }
      b->Append(v.get_ref<const std::string&>());
      return Status::OK();
    }
    case la::TypeId::kBinary: {
      auto* b = dynamic_cast<la::BinaryBuilder*>(builder);
      if (b == nullptr || !v.is_string()) {
        return Status::InvalidArgument(where + ": expected a hex string, found " + v.dump());
      }
      LND_ASSIGN_OR_RETURN(std::string bytes, FromHex(v.get_ref<const std::string&>(), where));
      b->Append(bytes);
      return Status::OK();
    }
    case la::TypeId::kList: {
      auto* b = dynamic_cast<la::ListBuilder*>(builder);
      if (b == nullptr || !v.is_array()) {
        return Status::InvalidArgument(where + ": expected a list, found " + v.dump());
      }
      b->Append(true);
      for (const json& item : v) {
        LND_RETURN_NOT_OK(AppendJson(b->value_builder(), *type.value_type(), item, where));
      }
      return Status::OK();
    }
    default:
      return Status::InvalidArgument(where + ": type " + type.ToString() +
                                     " is not part of nd JSON");
  }
}

Result<la::ArrayPtr> ArrayFromJson(const la::DataTypePtr& type, const json& values,
                                   const std::string& where) {
  if (!values.is_array()) {
    return Status::InvalidArgument(where + ": expected a JSON array, found " + values.dump());
  }
  std::unique_ptr<la::ArrayBuilder> builder = la::MakeBuilder(type);
  for (const json& v : values) LND_RETURN_NOT_OK(AppendJson(builder.get(), *type, v, where));
  return builder->Finish();
}

/// \brief {"key": {"type": "...", "value": ...}, ...} as attributes.
Result<nd::Attributes> AttributesFromJson(const json& attrs, const std::string& where) {
  nd::Attributes out;
  if (attrs.is_null()) return out;
  if (!attrs.is_object()) return Status::InvalidArgument(where + ": expected an object");
  for (const auto& [key, a] : attrs.items()) {
    const std::string at = std::string(where).append(" attribute '").append(key).append("'");
    if (!a.is_object() || !a.contains("type") || !a["type"].is_string() || !a.contains("value")) {
      return Status::InvalidArgument(at + ": expected {\"type\": ..., \"value\": ...}");
    }
    LND_ASSIGN_OR_RETURN(la::DataTypePtr type, TypeFromName(a["type"].get<std::string>()));
    LND_ASSIGN_OR_RETURN(la::ArrayPtr value, ArrayFromJson(type, json::array({a["value"]}), at));
    LND_RETURN_NOT_OK(out.SetValue(key, std::move(value)));
  }
  return out;
}

Result<std::vector<std::string>> StringList(const json& v, const std::string& where) {
  std::vector<std::string> out;
  if (!v.is_array()) return Status::InvalidArgument(where + ": expected a list of strings");
  for (const json& s : v) {
    if (!s.is_string()) return Status::InvalidArgument(where + ": expected strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Result<std::vector<uint64_t>> SizeList(const json& v, const std::string& where) {
  std::vector<uint64_t> out;
  if (!v.is_array()) return Status::InvalidArgument(where + ": expected a list of sizes");
  for (const json& s : v) {
    if (!s.is_number_unsigned()) return Status::InvalidArgument(where + ": expected sizes >= 0");
    out.push_back(s.get<uint64_t>());
  }
  return out;
}

Result<nd::NdArrowArray> ArrayVariable(const json& var, const std::string& where) {
  if (!var.is_object() || !var.contains("type") || !var["type"].is_string()) {
    return Status::InvalidArgument(where + ": expected an object with a \"type\"");
  }
  LND_ASSIGN_OR_RETURN(la::DataTypePtr type, TypeFromName(var["type"].get<std::string>()));
  LND_ASSIGN_OR_RETURN(la::ArrayPtr values,
                       ArrayFromJson(type, var.value("values", json()), where + " values"));
  LND_ASSIGN_OR_RETURN(std::vector<std::string> names,
                       StringList(var.value("dim_names", json()), where + " dim_names"));
  LND_ASSIGN_OR_RETURN(std::vector<uint64_t> sizes,
                       SizeList(var.value("dim_sizes", json()), where + " dim_sizes"));
  LND_ASSIGN_OR_RETURN(nd::Dimensions dims, nd::Dimensions::Make(names, sizes));
  LND_ASSIGN_OR_RETURN(nd::Attributes attrs, AttributesFromJson(var.value("attrs", json()), where));
  return nd::NdArrowArray::Make(std::move(values), std::move(dims), std::move(attrs));
}

}  // namespace

Result<la::DataTypePtr> TypeFromName(const std::string& name) {
  const std::string_view n(name);
  if (n.starts_with("list<") && n.ends_with(">")) {
    LND_ASSIGN_OR_RETURN(la::DataTypePtr item, TypeFromName(name.substr(5, name.size() - 6)));
    return la::List(std::move(item));
  }
  if (n.starts_with("timestamp[") && n.ends_with("]")) {
    std::string_view inner = n.substr(10, n.size() - 11);
    std::string tz;
    if (auto comma = inner.find(", tz="); comma != std::string_view::npos) {
      tz = std::string(inner.substr(comma + 5));
      inner = inner.substr(0, comma);
    }
    for (la::TimeUnit unit :
         {la::TimeUnit::kSecond, la::TimeUnit::kMilli, la::TimeUnit::kMicro, la::TimeUnit::kNano}) {
      if (la::TimeUnitName(unit) == inner) return la::Timestamp(unit, tz);
    }
    return Status::InvalidArgument("unknown time unit in type name '" + name + "'");
  }
  if (n.starts_with("duration[") && n.ends_with("]")) {
    const std::string_view unit_name = n.substr(9, n.size() - 10);
    for (la::TimeUnit unit :
         {la::TimeUnit::kSecond, la::TimeUnit::kMilli, la::TimeUnit::kMicro, la::TimeUnit::kNano}) {
      if (la::TimeUnitName(unit) == unit_name) return la::Duration(unit);
    }
    return Status::InvalidArgument("unknown time unit in type name '" + name + "'");
  }
  static const std::pair<std::string_view, la::DataTypePtr (*)()> kSimple[] = {
      {"bool", &la::Bool},
      {"int8", &la::Int8},
      {"int16", &la::Int16},
      {"int32", &la::Int32},
      {"int64", &la::Int64},
      {"uint8", &la::UInt8},
      {"uint16", &la::UInt16},
      {"uint32", &la::UInt32},
      {"uint64", &la::UInt64},
      {"float32", &la::Float32},
      {"float64", &la::Float64},
      {"utf8", &la::Utf8},
      {"large_utf8", &la::LargeUtf8},
      {"binary", &la::Binary},
      {"date32", &la::Date32},
      {"date64", &la::Date64},
  };
  for (const auto& [simple_name, factory] : kSimple) {
    if (simple_name == n) return factory();
  }
  return Status::InvalidArgument("unknown type name '" + name +
                                 "': expected one of the names in interop/README.md");
}

Result<std::vector<nd::NdRecordBatch>> ParseNdJson(const std::string& text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("nd JSON: not valid JSON");
  if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array()) {
    return Status::InvalidArgument("nd JSON: expected an object with a \"rows\" list");
  }
  std::vector<nd::NdRecordBatch> rows;
  for (std::size_t r = 0; r < doc["rows"].size(); ++r) {
    const json& row = doc["rows"][r];
    const std::string where = "nd JSON row " + std::to_string(r);
    if (!row.is_object() || !row.contains("variables") || !row["variables"].is_object()) {
      return Status::InvalidArgument(where + ": expected {\"variables\": {...}, ...}");
    }
    std::vector<std::pair<std::string, nd::NdArrowArray>> arrays;
    for (const auto& [name, var] : row["variables"].items()) {
      LND_ASSIGN_OR_RETURN(
          nd::NdArrowArray a,
          ArrayVariable(var, std::string(where).append(" '").append(name).append("'")));
      arrays.emplace_back(name, std::move(a));
    }
    LND_ASSIGN_OR_RETURN(nd::Attributes globals,
                         AttributesFromJson(row.value("global_attrs", json()), where + " globals"));
    LND_ASSIGN_OR_RETURN(nd::NdRecordBatch batch,
                         nd::NdRecordBatch::FromArrays(std::move(arrays), std::move(globals)));
    rows.push_back(std::move(batch));
  }
  return rows;
}

}  // namespace lance_nd::interop
