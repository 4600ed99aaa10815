// Column encoding options (api/options.h ColumnOptions) as Lance field metadata
// (`lance-encoding:*`) and as the table's stored defaults (`lance_nd.column_defaults.*`).
#pragma once

#include <optional>

#include "lance_nd/api/options.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::internal {

/// \brief The schema-metadata entries that store `defaults` on a table:
/// `lance_nd.column_defaults.<lance-encoding key>` = value, one per set choice.
array::Metadata ColumnDefaultsMetadata(const ColumnOptions& defaults);

/// \brief The defaults stored in a table's schema metadata (nullopt when there are none).
/// InvalidArgument naming the key for a value lance-nd does not know.
Result<std::optional<ColumnOptions>> StoredColumnDefaults(const array::Metadata& metadata);

/// \brief `defaults` with every choice that `overrides` sets replaced.
ColumnOptions Overlay(const std::optional<ColumnOptions>& defaults, const ColumnOptions* overrides);

/// \brief `field` with `options` written as field metadata: the structural encoding on `field`
/// itself, compression, compression level, byte-stream split and RLE threshold on each leaf
/// (every field without children, e.g. list items and struct members).
array::FieldPtr ApplyColumnOptions(const array::FieldPtr& field, const ColumnOptions& options);

/// \brief True when no choice is set.
bool IsEmpty(const ColumnOptions& options);

}  // namespace lance_nd::internal
