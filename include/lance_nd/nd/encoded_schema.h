// The encoded (storage) schema of nd columns: logical field <-> nd_arrow.array field.
#pragma once

#include <string_view>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::nd {

/// \brief True when `field` carries ARROW:extension:name = nd_arrow.array (the storage type
/// is not checked; ParseNdStorage does that).
LANCE_ND_EXPORT bool IsNdField(const array::Field& field);
/// \brief True when `field` carries ARROW:extension:name = nd_arrow.global_attributes.
LANCE_ND_EXPORT bool IsGlobalAttributesField(const array::Field& field);

/// \brief `metadata` plus the extension name `extension_name` and {"version":1}.
LANCE_ND_EXPORT array::Metadata WithExtensionTag(array::Metadata metadata,
                                                 std::string_view extension_name);

/// \brief The storage type of an nd column:
///   Struct{values: List<item: value_type, nullable> not null,
///          dim_names: List<item: utf8 not null> not null,
///          dim_sizes: List<item: uint32 not null> not null,
///          [attrs: Struct{one nullable field per key} (nullable, but never null when written)]}
/// `attrs` is present only when `attribute_fields` is non-empty.
LANCE_ND_EXPORT array::DataTypePtr NdStorageType(
    const array::DataTypePtr& value_type,
    const std::vector<array::FieldPtr>& attribute_fields = {});

/// \brief The nd field of a logical field: same name, the logical metadata plus the extension
/// tags, storage NdStorageType(logical type, attribute_fields), nullable.
LANCE_ND_EXPORT array::FieldPtr EncodedField(
    const array::Field& logical, const std::vector<array::FieldPtr>& attribute_fields = {});

/// \brief The `__global_attrs__` field: a nullable Struct of `fields` tagged
/// nd_arrow.global_attributes with {"version":1}.
LANCE_ND_EXPORT array::FieldPtr GlobalAttributesField(std::vector<array::FieldPtr> fields);

/// \brief The parts of a parsed nd storage type.
struct LANCE_ND_EXPORT NdStorageLayout {
  array::FieldPtr value_field;                    // the item field of `values`
  std::vector<array::FieldPtr> attribute_fields;  // empty when there are no attributes
  bool has_attrs_child = false;                   // true also for a zero-field attrs struct
};

/// \brief Parse and check the storage layout (field metadata is not looked at): a Struct with
/// children values: List<T>, dim_names: List<Utf8>, dim_sizes: List<UInt32> and optionally
/// attrs: Struct, in that order and with those names. Nullability is not checked. Errors are
/// Corrupt "invalid nd encoding: ...".
LANCE_ND_EXPORT Result<NdStorageLayout> ParseNdStorage(const array::DataType& storage);

/// \brief Check an nd field: the extension tag, the extension metadata (absent, or JSON with
/// "version": 1) and the storage layout. Errors are Corrupt "invalid nd encoding: ...".
LANCE_ND_EXPORT Result<NdStorageLayout> ParseNdField(const array::Field& field);

/// \brief The logical field of an nd field: same name, the values element type, the item
/// field's nullability and the field metadata without the extension keys.
LANCE_ND_EXPORT Result<array::FieldPtr> LogicalField(const array::Field& encoded);

/// \brief True when values of `value_type` get a stats column: integers, floats, utf8 and
/// large utf8, timestamps, dates and durations (not booleans, binaries or nested types).
LANCE_ND_EXPORT bool HasStatsType(const array::DataType& value_type);
/// \brief The stats column of `variable`: `__stats__:<variable>`, a nullable
/// Struct{min: T, max: T} with both children nullable.
LANCE_ND_EXPORT array::FieldPtr StatsField(std::string_view variable,
                                           const array::DataTypePtr& value_type);
/// \brief True when `schema` has at least one `__stats__:` column.
LANCE_ND_EXPORT bool HasStats(const array::Schema& schema);

/// \brief `field` without `lance-encoding:*` metadata keys, here and in every nested field.
LANCE_ND_EXPORT array::FieldPtr StripEncodingKeys(const array::FieldPtr& field);
LANCE_ND_EXPORT array::DataTypePtr StripEncodingKeys(const array::DataTypePtr& type);

}  // namespace lance_nd::nd
