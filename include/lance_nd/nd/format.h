// Names and keys of the nd_arrow.array encoding (nd-arrow-array 0.5.0) and of the lance-nd
// table format v1. docs/FORMAT.md states the rules these names take part in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/export.h"

namespace lance_nd::nd {

// --- Arrow extension tags (field metadata) ---
inline constexpr std::string_view kExtensionNameKey = "ARROW:extension:name";
inline constexpr std::string_view kExtensionMetadataKey = "ARROW:extension:metadata";
/// Extension name of an nd column (one N-dimensional array per row).
inline constexpr std::string_view kNdArrayExtensionName = "nd_arrow.array";
/// Extension name of the `__global_attrs__` column.
inline constexpr std::string_view kGlobalAttributesExtensionName = "nd_arrow.global_attributes";
/// The only encoding version written and read.
inline constexpr uint32_t kEncodingVersion = 1;
/// The extension metadata written on both extension fields.
inline constexpr std::string_view kExtensionMetadataValue = R"({"version":1})";

// --- Storage children of an nd column, in this order ---
inline constexpr std::string_view kValuesField = "values";
inline constexpr std::string_view kDimNamesField = "dim_names";
inline constexpr std::string_view kDimSizesField = "dim_sizes";
inline constexpr std::string_view kAttrsField = "attrs";
/// Name of the item field of every list child.
inline constexpr std::string_view kListItemField = "item";

// --- Reserved column names ---
/// The column holding each row's global (batch-level) attributes.
inline constexpr std::string_view kGlobalAttributesField = "__global_attrs__";
/// Variable names starting with this are reserved; stats columns are `__stats__:<variable>`.
inline constexpr std::string_view kStatsPrefix = "__stats__";
inline constexpr std::string_view kStatsColumnPrefix = "__stats__:";
inline constexpr std::string_view kStatsMinField = "min";
inline constexpr std::string_view kStatsMaxField = "max";

// --- lance-nd table schema metadata ---
inline constexpr std::string_view kFormatMetadataKey = "lance_nd:format";
inline constexpr std::string_view kFormatVersion = "1";
/// Marker of a table that has stats columns (value kStatsMetadataValue).
inline constexpr std::string_view kStatsMetadataKey = "lance_nd:stats";
inline constexpr std::string_view kStatsMetadataValue = "1";
/// Column-encoding defaults: `lance_nd.column_defaults.<lance-encoding key>`.
inline constexpr std::string_view kColumnDefaultsPrefix = "lance_nd.column_defaults.";
/// Lance encoding options in field metadata; the row decoder strips them from logical fields.
inline constexpr std::string_view kEncodingKeyPrefix = "lance-encoding:";

/// \brief `__stats__:<variable>`.
LANCE_ND_EXPORT std::string StatsColumn(std::string_view variable);
/// \brief The variable of a stats column name, or nullopt when `column` is not one.
LANCE_ND_EXPORT std::optional<std::string_view> StatsVariable(std::string_view column);
/// \brief True for `__global_attrs__` and every name starting with `__stats__`.
LANCE_ND_EXPORT bool IsReservedName(std::string_view name);
/// \brief True for schema-metadata keys owned by the table layer (format, stats marker,
/// column defaults). The row decoder leaves them out of the logical schemas it returns.
LANCE_ND_EXPORT bool IsTableMetadataKey(std::string_view key);

}  // namespace lance_nd::nd
