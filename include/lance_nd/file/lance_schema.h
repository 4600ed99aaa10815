// The Lance schema (a list of fields in pre-order with ids, parent ids and logical type strings,
// as stored in data files and table manifests) <-> array::Schema. Public so the table layer
// shares the one mapping of logical types.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"

namespace lance_nd::file {

/// \brief One field of a Lance schema (lance.file.Field without the deprecated members).
struct LANCE_ND_EXPORT LanceSchemaField {
  std::string name;
  std::int32_t id = 0;
  std::int32_t parent_id = -1;  // -1 for top-level fields
  std::string logical_type;     // "int32", "struct", "list", "fixed_size_list:float:4", ...
  bool nullable = true;
  array::Metadata metadata;
  bool operator==(const LanceSchemaField&) const = default;
};

/// \brief Metadata key that marks a field of a type lance-nd cannot read (a Lance logical type
/// it does not know, a packed struct). Such a field appears in schemas with type null and this
/// key holding the reason; reading it is NotImplemented with that reason, while the other
/// fields of the file or table read normally.
inline constexpr std::string_view kUnsupportedFieldKey = "lance-nd:unsupported";

/// \brief The reason `field` cannot be read, if it carries kUnsupportedFieldKey.
inline std::optional<std::string_view> UnsupportedFieldReason(const array::Field& field) {
  return field.metadata().Get(kUnsupportedFieldKey);
}

/// \brief The Arrow schema of `fields` (tree rebuilt from parent ids, which must precede their
/// children; logical types mapped to Arrow types). Corrupt for a malformed tree (duplicate ids,
/// unknown parents, lists without exactly one child), NotImplemented for unsupported logical
/// types; both name the field.
LANCE_ND_EXPORT Result<array::SchemaPtr> SchemaFromLanceFields(
    std::span<const LanceSchemaField> fields, const array::Metadata& schema_metadata = {});

/// \brief The Lance fields of an Arrow schema: pre-order, ids from `first_id` upwards (structs,
/// lists and list items take ids; fixed-size-list items do not).
LANCE_ND_EXPORT Result<std::vector<LanceSchemaField>> LanceFieldsFromSchema(
    const array::Schema& schema, std::int32_t first_id = 0);

/// \brief A field as lance-nd writes it into a Lance schema: the modelled members, plus the
/// members of lance.file.Field that LanceSchemaField leaves out (the encoding hint and the
/// extension name the writer sets) as protobuf wire bytes. A table manifest stores both, so that
/// its fields match the data files' byte for byte.
struct LANCE_ND_EXPORT WrittenLanceField {
  LanceSchemaField field;
  std::string unmodelled_proto;  // a serialised lance.file.Field with the modelled members unset
  bool operator==(const WrittenLanceField&) const = default;
};

/// \brief LanceFieldsFromSchema, with each field's unmodelled members as the writer sets them.
LANCE_ND_EXPORT Result<std::vector<WrittenLanceField>> WrittenLanceFieldsFromSchema(
    const array::Schema& schema, std::int32_t first_id = 0);

/// \brief `type` as it reads back from a Lance schema: a fixed-size list's item is always
/// nullable there (its logical type "fixed_size_list:T:n" keeps no item nullability).
LANCE_ND_EXPORT array::DataTypePtr StoredType(const array::DataTypePtr& type);

/// \brief Whether data of type `data` can be written under the schema type `schema`: equal
/// types once both are in their stored form (metadata ignored).
LANCE_ND_EXPORT bool SameStoredType(const array::DataTypePtr& schema,
                                    const array::DataTypePtr& data);

/// \brief The Lance logical type string of `type` ("float", "timestamp:us:UTC", "list.struct",
/// "fixed_size_list:float:128", ...). NotImplemented for types Lance cannot store.
LANCE_ND_EXPORT Result<std::string> LanceLogicalType(const array::DataType& type);

}  // namespace lance_nd::file
