// JSON Lines dtype names <-> array types.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lance_nd/api/json_lines.h"

namespace lance_nd {
namespace {

using array::DataTypePtr;
using array::TimeUnit;
using array::TypeId;

constexpr std::pair<std::string_view, DataTypePtr (*)()> kSimpleTypes[] = {
    {"bool", &array::Bool},       {"int8", &array::Int8},
    {"int16", &array::Int16},     {"int32", &array::Int32},
    {"int64", &array::Int64},     {"uint8", &array::UInt8},
    {"uint16", &array::UInt16},   {"uint32", &array::UInt32},
    {"uint64", &array::UInt64},   {"float16", &array::Float16},
    {"float32", &array::Float32}, {"float64", &array::Float64},
    {"utf8", &array::Utf8},       {"large_utf8", &array::LargeUtf8},
    {"binary", &array::Binary},   {"large_binary", &array::LargeBinary},
    {"date32", &array::Date32},
};

constexpr TimeUnit kUnits[] = {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro,
                               TimeUnit::kNano};

std::optional<TimeUnit> ParseUnit(std::string_view name) {
  for (TimeUnit unit : kUnits) {
    if (array::TimeUnitName(unit) == name) return unit;
  }
  return std::nullopt;
}

Status UnknownDtype(std::string_view name) {
  return Status::InvalidArgument("unknown dtype '", name, "' (expected one of ", JsonDtypeNames(),
                                 ")");
}

/// "s]" / "ns, tz=UTC]" after "timestamp[": the unit and time zone.
Result<DataTypePtr> ParseTimestamp(std::string_view full, std::string_view inner) {
  std::string timezone;
  if (const auto comma = inner.find(','); comma != std::string_view::npos) {
    std::string_view rest = inner.substr(comma + 1);
    while (rest.starts_with(' ')) rest.remove_prefix(1);
    if (!rest.starts_with("tz=") || rest.size() == 3) return UnknownDtype(full);
    timezone = std::string(rest.substr(3));
    inner = inner.substr(0, comma);
  }
  const std::optional<TimeUnit> unit = ParseUnit(inner);
  if (!unit) return UnknownDtype(full);
  return array::Timestamp(*unit, std::move(timezone));
}

}  // namespace

std::string_view JsonDtypeNames() {
  return "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
         "float64, utf8, large_utf8, binary, large_binary, date32, timestamp[s|ms|us|ns], "
         "timestamp[s|ms|us|ns, tz=UTC], duration[s|ms|us|ns], list<T>";
}

Result<std::string> JsonDtypeName(const array::DataType& type) {
  for (const auto& [name, factory] : kSimpleTypes) {
    if (factory()->id() == type.id()) return std::string(name);
  }
  switch (type.id()) {
    case TypeId::kTimestamp: {
      std::string name = "timestamp[" + std::string(array::TimeUnitName(type.unit()));
      if (!type.timezone().empty()) name += ", tz=" + type.timezone();
      return name + "]";
    }
    case TypeId::kDuration:
      return "duration[" + std::string(array::TimeUnitName(type.unit())) + "]";
    case TypeId::kList: {
      LND_ASSIGN_OR_RETURN(std::string item, JsonDtypeName(*type.value_type()));
      return "list<" + item + ">";
    }
    default:
      return Status::NotImplemented("type ", type.ToString(),
                                    " has no JSON Lines dtype (JSON Lines has ", JsonDtypeNames(),
                                    ")")
          .WithKind(ErrorKind::kNotSupported);
  }
}

Result<DataTypePtr> ParseJsonDtype(std::string_view name) {
  for (const auto& [simple, factory] : kSimpleTypes) {
    if (simple == name) return factory();
  }
  if (name.starts_with("list<") && name.ends_with(">")) {
    auto item = ParseJsonDtype(name.substr(5, name.size() - 6));
    if (!item.ok()) return UnknownDtype(name);
    return array::List(*item);
  }
  if (name.starts_with("timestamp[") && name.ends_with("]")) {
    return ParseTimestamp(name, name.substr(10, name.size() - 11));
  }
  if (name.starts_with("duration[") && name.ends_with("]")) {
    if (auto unit = ParseUnit(name.substr(9, name.size() - 10))) return array::Duration(*unit);
  }
  return UnknownDtype(name);
}

}  // namespace lance_nd
