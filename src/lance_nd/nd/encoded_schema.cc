#include "lance_nd/nd/encoded_schema.h"

#include <nlohmann/json.hpp>

#include "lance_nd/core/internal/untrusted_text.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"
#include "row_checks.h"

namespace lance_nd::nd {

using array::DataType;
using array::DataTypePtr;
using array::Field;
using array::FieldPtr;
using array::TypeId;

namespace {

bool HasTag(const Field& field, std::string_view name) {
  const auto tag = field.metadata().Get(kExtensionNameKey);
  return tag && *tag == name;
}

Status CheckExtensionVersion(const Field& field) {
  const auto meta = field.metadata().Get(kExtensionMetadataKey);
  if (!meta) return Status::OK();
  const std::string quoted = lance_nd::internal::TextPreview(*meta);
  if (const Status nesting = lance_nd::internal::CheckJsonNesting(*meta, "the extension metadata");
      !nesting.ok()) {
    return InvalidEncoding("column '" + field.name() + "': " + std::string(nesting.message()));
  }
  const nlohmann::json doc = nlohmann::json::parse(*meta, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return InvalidEncoding("column '" + field.name() + "' has extension metadata '" + quoted +
                           "', which is not a JSON object; expected " +
                           std::string(kExtensionMetadataValue));
  }
  const auto it = doc.find("version");
  if (it == doc.end() || !it->is_number_unsigned() || it->get<uint64_t>() != kEncodingVersion) {
    return InvalidEncoding("column '" + field.name() + "' has extension metadata '" + quoted +
                           "'; this reader supports only encoding version " +
                           std::to_string(kEncodingVersion) + " " +
                           std::string(kExtensionMetadataValue));
  }
  return Status::OK();
}

Status ExpectList(const Field& child, std::string_view name, std::size_t index,
                  const DataType* item_type) {
  if (child.name() != name) {
    return InvalidEncoding("storage child " + std::to_string(index) + " is named '" + child.name() +
                           "' but '" + std::string(name) +
                           "' was expected (children: values, dim_names, dim_sizes[, attrs])");
  }
  if (child.type()->id() != TypeId::kList) {
    return InvalidEncoding("storage child '" + child.name() + "' has type " +
                           child.type()->ToString() + " but a list was expected");
  }
  if (item_type != nullptr && child.type()->value_type()->id() != item_type->id()) {
    return InvalidEncoding("storage child '" + child.name() + "' has type " +
                           child.type()->ToString() + " but list<" + item_type->ToString() +
                           "> was expected");
  }
  return Status::OK();
}

}  // namespace

bool IsNdField(const Field& field) { return HasTag(field, kNdArrayExtensionName); }

bool IsGlobalAttributesField(const Field& field) {
  return HasTag(field, kGlobalAttributesExtensionName);
}

array::Metadata WithExtensionTag(array::Metadata metadata, std::string_view extension_name) {
  metadata.Set(std::string(kExtensionNameKey), std::string(extension_name));
  metadata.Set(std::string(kExtensionMetadataKey), std::string(kExtensionMetadataValue));
  return metadata;
}

DataTypePtr NdStorageType(const DataTypePtr& value_type,
                          const std::vector<FieldPtr>& attribute_fields) {
  std::vector<FieldPtr> children;
  children.push_back(array::MakeField(
      std::string(kValuesField),
      array::List(array::MakeField(std::string(kListItemField), value_type, true)), false));
  children.push_back(array::MakeField(
      std::string(kDimNamesField),
      array::List(array::MakeField(std::string(kListItemField), array::Utf8(), false)), false));
  children.push_back(array::MakeField(
      std::string(kDimSizesField),
      array::List(array::MakeField(std::string(kListItemField), array::UInt32(), false)), false));
  if (!attribute_fields.empty()) {
    children.push_back(
        array::MakeField(std::string(kAttrsField), array::Struct(attribute_fields), true));
  }
  return array::Struct(std::move(children));
}

FieldPtr EncodedField(const Field& logical, const std::vector<FieldPtr>& attribute_fields) {
  return array::MakeField(logical.name(), NdStorageType(logical.type(), attribute_fields), true,
                          WithExtensionTag(logical.metadata(), kNdArrayExtensionName));
}

FieldPtr GlobalAttributesField(std::vector<FieldPtr> fields) {
  return array::MakeField(std::string(kGlobalAttributesField), array::Struct(std::move(fields)),
                          true, WithExtensionTag({}, kGlobalAttributesExtensionName));
}

Result<NdStorageLayout> ParseNdStorage(const DataType& storage) {
  if (storage.id() != TypeId::kStruct) {
    return InvalidEncoding("the storage type is " + storage.ToString() +
                           " but a struct<values, dim_names, dim_sizes[, attrs]> was expected");
  }
  const auto& children = storage.children();
  if (children.size() != 3 && children.size() != 4) {
    return InvalidEncoding("the storage struct has " + std::to_string(children.size()) +
                           " children but 3 (values, dim_names, dim_sizes) or 4 (with attrs) "
                           "were expected");
  }
  const auto utf8 = array::Utf8();
  const auto uint32 = array::UInt32();
  LND_RETURN_NOT_OK(ExpectList(*children[0], kValuesField, 0, nullptr));
  LND_RETURN_NOT_OK(ExpectList(*children[1], kDimNamesField, 1, utf8.get()));
  LND_RETURN_NOT_OK(ExpectList(*children[2], kDimSizesField, 2, uint32.get()));
  NdStorageLayout layout;
  layout.value_field = children[0]->type()->value_field();
  if (children.size() == 4) {
    const Field& attrs = *children[3];
    if (attrs.name() != kAttrsField) {
      return InvalidEncoding("storage child 3 is named '" + attrs.name() +
                             "' but 'attrs' was expected");
    }
    if (attrs.type()->id() != TypeId::kStruct) {
      return InvalidEncoding("storage child 'attrs' has type " + attrs.type()->ToString() +
                             " but a struct was expected");
    }
    for (const FieldPtr& f : attrs.type()->children()) {
      if (f->name().empty()) {
        return InvalidEncoding("the attrs struct has a child with an empty name");
      }
    }
    LND_RETURN_NOT_OK(
        internal::CheckUniqueAttributeKeys(attrs.type()->children(), "the attrs struct"));
    layout.has_attrs_child = true;
    layout.attribute_fields = attrs.type()->children();
  }
  return layout;
}

Result<NdStorageLayout> ParseNdField(const Field& field) {
  if (!IsNdField(field)) {
    return InvalidEncoding("column '" + field.name() + "' does not carry " +
                           std::string(kExtensionNameKey) + " = " +
                           std::string(kNdArrayExtensionName));
  }
  LND_RETURN_NOT_OK(CheckExtensionVersion(field));
  auto layout = ParseNdStorage(*field.type());
  if (!layout.ok()) {
    return InvalidEncoding(
        "column '" + field.name() +
        "': " + std::string(layout.status().message().substr(kInvalidEncodingPrefix.size())));
  }
  return layout;
}

Result<FieldPtr> LogicalField(const Field& encoded) {
  LND_ASSIGN_OR_RETURN(NdStorageLayout layout, ParseNdField(encoded));
  array::Metadata metadata = encoded.metadata();
  metadata.Remove(kExtensionNameKey);
  metadata.Remove(kExtensionMetadataKey);
  return array::MakeField(encoded.name(), layout.value_field->type(),
                          layout.value_field->nullable(), std::move(metadata));
}

bool HasStatsType(const DataType& value_type) {
  switch (value_type.id()) {
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kTimestamp:
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kDuration:
      return true;
    default:
      return value_type.is_numeric();
  }
}

FieldPtr StatsField(std::string_view variable, const DataTypePtr& value_type) {
  return array::MakeField(
      StatsColumn(variable),
      array::Struct({array::MakeField(std::string(kStatsMinField), value_type, true),
                     array::MakeField(std::string(kStatsMaxField), value_type, true)}),
      true);
}

bool HasStats(const array::Schema& schema) {
  for (const FieldPtr& f : schema.fields()) {
    if (StatsVariable(f->name())) return true;
  }
  return false;
}

DataTypePtr StripEncodingKeys(const DataTypePtr& type) {
  if (type->children().empty()) return type;
  bool changed = false;
  std::vector<FieldPtr> children;
  children.reserve(type->children().size());
  for (const FieldPtr& c : type->children()) {
    children.push_back(StripEncodingKeys(c));
    changed = changed || children.back() != c;
  }
  if (!changed) return type;
  return std::make_shared<const DataType>(type->id(), type->fixed_size(), type->unit(),
                                          type->timezone(), std::move(children));
}

FieldPtr StripEncodingKeys(const FieldPtr& field) {
  array::Metadata metadata;
  bool changed = false;
  for (const auto& [k, v] : field->metadata().entries()) {
    if (std::string_view(k).starts_with(kEncodingKeyPrefix)) {
      changed = true;
    } else {
      metadata.Set(k, v);
    }
  }
  const DataTypePtr type = StripEncodingKeys(field->type());
  if (!changed && type == field->type()) return field;
  return array::MakeField(field->name(), type, field->nullable(), std::move(metadata));
}

}  // namespace lance_nd::nd
