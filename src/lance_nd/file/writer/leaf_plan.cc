#include "lance_nd/file/writer/leaf_plan.h"

#include <string>
#include <utility>

namespace lance_nd::file::internal::writer {
namespace {

using array::DataType;
using array::TypeId;

std::string UnitName(array::TimeUnit unit) { return std::string(array::TimeUnitName(unit)); }

// Legacy lance.file.Encoding values Lance still writes into the schema.
constexpr int kEncodingNone = 0;
constexpr int kEncodingPlain = 1;
constexpr int kEncodingVarBinary = 2;

int LegacyEncodingOf(const DataType& type) {
  switch (type.id()) {
    case TypeId::kStruct:
    case TypeId::kNull:
      return kEncodingNone;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      return kEncodingVarBinary;
    default:
      return kEncodingPlain;
  }
}

class Planner {
 public:
  Planner(std::span<const std::int32_t> ids, SchemaPlan* plan) : ids_(ids), plan_(plan) {}

  Status AddField(const array::Field& field, std::int32_t parent_id, int top_level_index,
                  std::vector<PathNode> path) {
    const DataType& type = *field.type();
    LND_ASSIGN_OR_RETURN(std::string logical, LogicalTypeOf(type));
    std::int32_t id = 0;
    if (ids_.empty()) {
      id = static_cast<std::int32_t>(plan_->fields.size());
    } else {
      if (plan_->fields.size() >= ids_.size()) {
        return Status::InvalidArgument(
            "writer options give ", ids_.size(),
            " field ids but the schema has more Lance fields; give one id per field in "
            "pre-order (fixed-size lists count once) or none");
      }
      id = ids_[plan_->fields.size()];
    }
    plan_->fields.push_back(LanceFieldEntry{field.name(), id, parent_id, std::move(logical),
                                            field.nullable(), LegacyEncodingOf(type),
                                            &field.metadata()});
    switch (type.id()) {
      case TypeId::kStruct: {
        if (type.children().empty()) {
          path.push_back(PathNode{PathNode::Kind::kLeaf, &field, -1});
          LeafColumn leaf;
          leaf.top_level_index = top_level_index;
          leaf.path = std::move(path);
          leaf.kind = LeafKind::kEmptyStruct;
          leaf.leaf_field = &field;
          leaf.field_id = id;
          plan_->leaves.push_back(std::move(leaf));
          return Status::OK();
        }
        for (std::size_t c = 0; c < type.children().size(); ++c) {
          std::vector<PathNode> child_path = path;
          child_path.push_back(PathNode{PathNode::Kind::kStruct, &field, static_cast<int>(c)});
          LND_RETURN_NOT_OK(
              AddField(*type.children()[c], id, top_level_index, std::move(child_path)));
        }
        return Status::OK();
      }
      case TypeId::kList:
      case TypeId::kLargeList: {
        path.push_back(PathNode{PathNode::Kind::kList, &field, 0});
        return AddField(*type.value_field(), id, top_level_index, std::move(path));
      }
      default:
        break;
    }
    LeafColumn leaf;
    leaf.top_level_index = top_level_index;
    leaf.leaf_field = &field;
    leaf.field_id = id;
    path.push_back(PathNode{PathNode::Kind::kLeaf, &field, -1});
    leaf.path = std::move(path);
    LND_RETURN_NOT_OK(ClassifyLeaf(field, &leaf));
    plan_->leaves.push_back(std::move(leaf));
    return Status::OK();
  }

 private:
  static Status ClassifyLeaf(const array::Field& field, LeafColumn* leaf) {
    const DataType& type = *field.type();
    switch (type.id()) {
      case TypeId::kNull:
        leaf->kind = LeafKind::kNull;
        return Status::OK();
      case TypeId::kBool:
        leaf->kind = LeafKind::kBool;
        return Status::OK();
      case TypeId::kUtf8:
      case TypeId::kBinary:
        leaf->kind = LeafKind::kVariable;
        leaf->bits_per_offset = 32;
        return Status::OK();
      case TypeId::kLargeUtf8:
      case TypeId::kLargeBinary:
        leaf->kind = LeafKind::kVariable;
        leaf->bits_per_offset = 64;
        return Status::OK();
      case TypeId::kFixedSizeBinary:
        leaf->kind = LeafKind::kFixed;
        leaf->byte_width = type.fixed_size();
        if (leaf->byte_width <= 0) {
          return Status::InvalidArgument("field '", field.name(),
                                         "': fixed_size_binary needs a byte width > 0");
        }
        return Status::OK();
      case TypeId::kFixedSizeList: {
        leaf->kind = LeafKind::kFixedList;
        const DataType* t = &type;
        std::int64_t items = 1;
        while (t->id() == TypeId::kFixedSizeList) {
          if (t->fixed_size() <= 0) {
            return Status::NotImplemented("field '", field.name(),
                                          "': fixed_size_list of size 0 cannot be written");
          }
          leaf->fsl_dims.push_back(t->fixed_size());
          items *= t->fixed_size();
          t = t->value_type().get();
        }
        if (leaf->fsl_dims.size() > 1) {
          return Status::NotImplemented(
              "field '", field.name(), "': nested fixed_size_list (", type.ToString(),
              ") is not supported by the writer yet; use a list of fixed_size_list or flatten "
              "the dimensions");
        }
        if (!t->is_primitive() && t->id() != TypeId::kFixedSizeBinary) {
          return Status::NotImplemented(
              "field '", field.name(), "': fixed_size_list of ", t->ToString(),
              " is not supported by the writer (only fixed-width items); use a list instead");
        }
        leaf->byte_width = t->id() == TypeId::kFixedSizeBinary ? t->fixed_size() : t->byte_width();
        leaf->items_per_value = items;
        return Status::OK();
      }
      default:
        if (type.is_primitive()) {
          leaf->kind = LeafKind::kFixed;
          leaf->byte_width = type.byte_width();
          return Status::OK();
        }
        return Status::NotImplemented("field '", field.name(), "': type ", type.ToString(),
                                      " cannot be written to a Lance file");
    }
  }

  std::span<const std::int32_t> ids_;
  SchemaPlan* plan_;
};

}  // namespace

Result<std::string> LogicalTypeOf(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull:
      return std::string("null");
    case TypeId::kBool:
      return std::string("bool");
    case TypeId::kInt8:
      return std::string("int8");
    case TypeId::kInt16:
      return std::string("int16");
    case TypeId::kInt32:
      return std::string("int32");
    case TypeId::kInt64:
      return std::string("int64");
    case TypeId::kUInt8:
      return std::string("uint8");
    case TypeId::kUInt16:
      return std::string("uint16");
    case TypeId::kUInt32:
      return std::string("uint32");
    case TypeId::kUInt64:
      return std::string("uint64");
    case TypeId::kFloat16:
      return std::string("halffloat");
    case TypeId::kFloat32:
      return std::string("float");
    case TypeId::kFloat64:
      return std::string("double");
    case TypeId::kUtf8:
      return std::string("string");
    case TypeId::kLargeUtf8:
      return std::string("large_string");
    case TypeId::kBinary:
      return std::string("binary");
    case TypeId::kLargeBinary:
      return std::string("large_binary");
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary:" + std::to_string(type.fixed_size());
    case TypeId::kDate32:
      return std::string("date32:day");
    case TypeId::kDate64:
      return std::string("date64:ms");
    case TypeId::kTimestamp:
      return "timestamp:" + UnitName(type.unit()) + ":" +
             (type.timezone().empty() ? std::string("-") : type.timezone());
    case TypeId::kDuration:
      return "duration:" + UnitName(type.unit());
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return "decimal:" + std::to_string(type.byte_width() * 8) + ":" +
             std::to_string(type.precision()) + ":" + std::to_string(type.scale());
    case TypeId::kStruct:
      return std::string("struct");
    case TypeId::kList:
      return std::string(type.value_type()->id() == TypeId::kStruct ? "list.struct" : "list");
    case TypeId::kLargeList:
      return std::string(type.value_type()->id() == TypeId::kStruct ? "large_list.struct"
                                                                    : "large_list");
    case TypeId::kFixedSizeList: {
      LND_ASSIGN_OR_RETURN(std::string inner, LogicalTypeOf(*type.value_type()));
      return "fixed_size_list:" + inner + ":" + std::to_string(type.fixed_size());
    }
  }
  return Status::NotImplemented("type ", type.ToString(), " has no Lance logical type");
}

Result<SchemaPlan> PlanSchema(const array::Schema& schema,
                              std::span<const std::int32_t> field_ids) {
  SchemaPlan plan;
  Planner planner(field_ids, &plan);
  for (int i = 0; i < schema.num_fields(); ++i) {
    LND_RETURN_NOT_OK(planner.AddField(*schema.field(i), -1, i, {}));
  }
  if (!field_ids.empty() && field_ids.size() != plan.fields.size()) {
    return Status::InvalidArgument("writer options give ", field_ids.size(),
                                   " field ids but the schema has ", plan.fields.size(),
                                   " Lance fields; give one id per field in pre-order");
  }
  return plan;
}

}  // namespace lance_nd::file::internal::writer
