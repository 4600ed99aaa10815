#include "schema_json.h"

#include <string>
#include <vector>

#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "term_values.h"

namespace lance_nd::cli {
namespace {

/// Metadata entries of `field` and its descendants, by path below it ("" for the field),
/// without the extension tags every nd column carries.
void CollectMetadata(const array::Field& field, const std::string& path,
                     nlohmann::ordered_json& out) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::object();
  for (const auto& [key, value] : field.metadata().entries()) {
    if (key == nd::kExtensionNameKey || key == nd::kExtensionMetadataKey) continue;
    entries[key] = value;
  }
  if (!entries.empty()) out[path] = std::move(entries);
  for (const array::FieldPtr& child : field.type()->children()) {
    CollectMetadata(*child, path.empty() ? child->name() : path + "." + child->name(), out);
  }
}

nlohmann::ordered_json KeysJson(const std::vector<array::FieldPtr>& fields) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& f : fields) {
    out.push_back({{"key", f->name()}, {"dtype", DtypeText(*f->type())}});
  }
  return out;
}

}  // namespace

Result<nlohmann::ordered_json> SchemaJson(const array::Schema& schema) {
  nlohmann::ordered_json j;
  j["variables"] = nlohmann::ordered_json::array();
  j["global_attrs"] = nlohmann::ordered_json::array();
  j["stats"] = nlohmann::ordered_json::array();
  for (const array::FieldPtr& field : schema.fields()) {
    if (nd::IsGlobalAttributesField(*field)) {
      j["global_attrs"] = KeysJson(field->type()->children());
    } else if (auto variable = nd::StatsVariable(field->name())) {
      const auto& children = field->type()->children();
      j["stats"].push_back({{"name", field->name()},
                            {"variable", *variable},
                            {"dtype", children.empty() ? "" : DtypeText(*children[0]->type())}});
    } else if (nd::IsNdField(*field)) {
      LND_ASSIGN_OR_RETURN(nd::NdStorageLayout layout, nd::ParseNdField(*field));
      nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
      CollectMetadata(*field, "", metadata);
      j["variables"].push_back({{"name", field->name()},
                                {"dtype", DtypeText(*layout.value_field->type())},
                                {"nullable_values", layout.value_field->nullable()},
                                {"attrs", KeysJson(layout.attribute_fields)},
                                {"field_metadata", std::move(metadata)}});
    }
  }
  j["metadata"] = nlohmann::ordered_json::object();
  for (const auto& [key, value] : schema.metadata().entries()) j["metadata"][key] = value;
  return j;
}

}  // namespace lance_nd::cli
