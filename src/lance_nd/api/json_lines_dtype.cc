// JSON Lines dtype names <-> array types.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/core/internal/untrusted_text.h"

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

/// The deepest list<...> nesting a dtype may have: types are walked recursively (printing,
/// building, comparing), so an untrusted name cannot make one as deep as it is long.
constexpr int kMaxListNesting = 64;

Status UnknownDtype(std::string_view name) {
  return Status::InvalidArgument("unknown dtype '", internal::TextPreview(name),
                                 "' (expected one of ", JsonDtypeNames(), ")");
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

/// A dtype without list<...> around it.
Result<DataTypePtr> ParseItemDtype(std::string_view full, std::string_view name) {
  for (const auto& [simple, factory] : kSimpleTypes) {
    if (simple == name) return factory();
  }
  if (name.starts_with("timestamp[") && name.ends_with("]")) {
    return ParseTimestamp(full, name.substr(10, name.size() - 11));
  }
  if (name.starts_with("duration[") && name.ends_with("]")) {
    if (auto unit = ParseUnit(name.substr(9, name.size() - 10))) return array::Duration(*unit);
  }
  return UnknownDtype(full);
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
  // The list<...> wrappers are peeled in a loop, not by recursion.
  std::string_view item = name;
  int lists = 0;
  while (item.starts_with("list<") && item.ends_with(">")) {
    if (++lists > kMaxListNesting) {
      return Status::InvalidArgument("dtype '", internal::TextPreview(name),
                                     "' nests list<...> more than ", kMaxListNesting,
                                     " levels deep; use at most ", kMaxListNesting,
                                     " (flatten the values into fewer list levels)");
    }
    item = item.substr(5, item.size() - 6);
  }
  LND_ASSIGN_OR_RETURN(DataTypePtr type, ParseItemDtype(name, item));
  for (int i = 0; i < lists; ++i) type = array::List(std::move(type));
  return type;
}

}  // namespace lance_nd
