#include "lance_nd/nd/schema_merge.h"

#include <unordered_set>

#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/errors.h"
#include "lance_nd/nd/format.h"

namespace lance_nd::nd {

using array::FieldPtr;

namespace {

enum class Kind { kNd, kGlobal, kStats };

Kind KindOf(const array::Field& field) {
  if (field.name().starts_with(kStatsPrefix)) return Kind::kStats;
  if (IsGlobalAttributesField(field) || field.name() == kGlobalAttributesField) {
    return Kind::kGlobal;
  }
  return Kind::kNd;
}

/// `base` children plus the `extra` children it lacks; type conflicts are errors.
Result<std::vector<FieldPtr>> MergeKeys(const std::vector<FieldPtr>& base,
                                        const std::vector<FieldPtr>& extra,
                                        const std::string& owner) {
  std::vector<FieldPtr> out = base;
  for (const FieldPtr& e : extra) {
    const FieldPtr* found = nullptr;
    for (const FieldPtr& b : base) {
      if (b->name() == e->name()) found = &b;
    }
    if (found == nullptr) {
      out.push_back(e->WithNullable(true));
    } else if (!(*found)->type()->Equals(*e->type(), /*check_metadata=*/false)) {
      return SchemaMismatch("attribute '" + e->name() + "' of " + owner + " has type " +
                            e->type()->ToString() + " in the new rows but " +
                            (*found)->type()->ToString() +
                            " in the table; one attribute key has one type (cast it)");
    }
  }
  return out;
}

Result<FieldPtr> MergeNd(const FieldPtr& table, const FieldPtr& incoming) {
  LND_ASSIGN_OR_RETURN(NdStorageLayout t, ParseNdField(*table));
  LND_ASSIGN_OR_RETURN(NdStorageLayout in, ParseNdField(*incoming));
  if (!t.value_field->type()->Equals(*in.value_field->type(), /*check_metadata=*/false)) {
    return SchemaMismatch("array '" + table->name() + "' has value type " +
                          in.value_field->type()->ToString() + " in the new rows but " +
                          t.value_field->type()->ToString() +
                          " in the table; one array name has one value type (cast or widen)");
  }
  LND_ASSIGN_OR_RETURN(
      std::vector<FieldPtr> keys,
      MergeKeys(t.attribute_fields, in.attribute_fields, "array '" + table->name() + "'"));
  if (keys.size() == t.attribute_fields.size()) return table;
  std::vector<FieldPtr> children = table->type()->children();
  FieldPtr attrs = array::MakeField(std::string(kAttrsField), array::Struct(std::move(keys)), true);
  if (t.has_attrs_child) {
    attrs = children[3]->WithType(attrs->type());
    children[3] = std::move(attrs);
  } else {
    children.push_back(std::move(attrs));
  }
  return table->WithType(array::Struct(std::move(children)));
}

}  // namespace

Status ValidateEncodedSchema(const array::Schema& schema) {
  std::unordered_set<std::string_view> seen;
  bool has_global = false;
  for (const FieldPtr& field : schema.fields()) {
    if (!seen.insert(field->name()).second) {
      return InvalidEncoding("column name '" + field->name() + "' appears more than once");
    }
    switch (KindOf(*field)) {
      case Kind::kStats:
        break;
      case Kind::kGlobal:
        if (has_global) {
          return InvalidEncoding("column '" + field->name() +
                                 "' is a second global-attributes column");
        }
        has_global = true;
        if (field->type()->id() != array::TypeId::kStruct) {
          return InvalidEncoding("the global-attributes column '" + field->name() + "' has type " +
                                 field->type()->ToString() + " but a struct was expected");
        }
        for (const FieldPtr& f : field->type()->children()) {
          if (f->name().empty()) {
            return InvalidEncoding("the global-attributes struct has a child with an empty name");
          }
        }
        break;
      case Kind::kNd:
        if (!IsNdField(*field)) {
          return InvalidEncoding(
              "column '" + field->name() + "' is neither an " + std::string(kNdArrayExtensionName) +
              " column, the " + std::string(kGlobalAttributesField) + " column nor a " +
              std::string(kStatsPrefix) + "* column; it is not a lance-nd table column");
        }
        LND_RETURN_NOT_OK(ParseNdField(*field).status());
        break;
    }
  }
  return Status::OK();
}

Result<array::SchemaPtr> MergeEncodedSchema(const array::Schema& table,
                                            const array::Schema& incoming) {
  LND_RETURN_NOT_OK(ValidateEncodedSchema(table));
  LND_RETURN_NOT_OK(ValidateEncodedSchema(incoming));
  std::vector<FieldPtr> fields = table.fields();
  for (const FieldPtr& in : incoming.fields()) {
    const Kind kind = KindOf(*in);
    int index = table.FieldIndex(in->name());
    if (index < 0 && kind == Kind::kGlobal) {
      for (int i = 0; i < table.num_fields(); ++i) {
        if (KindOf(*table.field(i)) == Kind::kGlobal) index = i;
      }
    }
    if (index < 0) {
      fields.push_back(in);
      continue;
    }
    const FieldPtr& existing = fields[static_cast<std::size_t>(index)];
    if (KindOf(*existing) != kind) {
      return SchemaMismatch("column '" + in->name() +
                            "' has different kinds in the table and "
                            "in the new rows (array, global attributes or stats)");
    }
    switch (kind) {
      case Kind::kStats:
        if (!existing->type()->Equals(*in->type(), /*check_metadata=*/false)) {
          return SchemaMismatch("stats column '" + in->name() + "' has type " +
                                in->type()->ToString() + " in the new rows but " +
                                existing->type()->ToString() + " in the table");
        }
        break;
      case Kind::kGlobal: {
        LND_ASSIGN_OR_RETURN(std::vector<FieldPtr> keys,
                             MergeKeys(existing->type()->children(), in->type()->children(),
                                       "the global attributes"));
        if (keys.size() != existing->type()->children().size()) {
          fields[static_cast<std::size_t>(index)] =
              existing->WithType(array::Struct(std::move(keys)));
        }
        break;
      }
      case Kind::kNd: {
        LND_ASSIGN_OR_RETURN(fields[static_cast<std::size_t>(index)], MergeNd(existing, in));
        break;
      }
    }
  }
  array::Metadata metadata = table.metadata();
  for (const auto& [k, v] : incoming.metadata().entries()) {
    if (!metadata.Contains(k)) metadata.Set(k, v);
  }
  return array::MakeSchema(std::move(fields), std::move(metadata));
}

}  // namespace lance_nd::nd
