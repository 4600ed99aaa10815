#include "lance_nd/nd/format.h"

namespace lance_nd::nd {

std::string StatsColumn(std::string_view variable) {
  std::string out(kStatsColumnPrefix);
  out.append(variable);
  return out;
}

std::optional<std::string_view> StatsVariable(std::string_view column) {
  if (!column.starts_with(kStatsColumnPrefix)) return std::nullopt;
  return column.substr(kStatsColumnPrefix.size());
}

bool IsReservedName(std::string_view name) {
  return name == kGlobalAttributesField || name.starts_with(kStatsPrefix);
}

bool IsTableMetadataKey(std::string_view key) {
  return key == kFormatMetadataKey || key == kStatsMetadataKey ||
         key.starts_with(kColumnDefaultsPrefix);
}

}  // namespace lance_nd::nd
