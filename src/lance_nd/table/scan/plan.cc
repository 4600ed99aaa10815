#include "lance_nd/table/scan/plan.h"

#include <algorithm>
#include <map>

#include "lance_nd/array/field_path.h"
#include "lance_nd/file/lance_schema.h"

namespace lance_nd::table::internal {
namespace {

using array::TypeId;

// Child Arrow fields of a table field, in the order the manifest lists their Lance fields.
std::vector<array::FieldPtr> ArrowChildren(const array::Field& field) {
  const array::DataType& type = *field.type();
  if (type.id() == TypeId::kStruct || type.id() == TypeId::kList ||
      type.id() == TypeId::kLargeList) {
    return type.children();
  }
  return {};
}

Result<TableNode> BuildNode(const std::vector<LanceField>& fields,
                            const std::multimap<std::int32_t, std::size_t>& children_of,
                            std::size_t index, const array::FieldPtr& arrow, int depth) {
  if (depth > 64) return Status::Corrupt("table schema nests deeper than 64 levels");
  TableNode node;
  node.id = fields[index].id;
  node.field = arrow;
  const auto arrow_children = ArrowChildren(*arrow);
  auto [lo, hi] = children_of.equal_range(fields[index].id);
  std::size_t k = 0;
  for (auto it = lo; it != hi; ++it, ++k) {
    if (k >= arrow_children.size()) break;  // fixed-size-list items are not Lance fields
    LND_ASSIGN_OR_RETURN(TableNode child,
                         BuildNode(fields, children_of, it->second, arrow_children[k], depth + 1));
    node.children.push_back(std::move(child));
  }
  if (node.children.size() != arrow_children.size()) {
    return Status::Corrupt(
        "table field '" + fields[index].name + "' (id " + std::to_string(node.id) + ") has " +
        std::to_string(node.children.size()) + " child fields in the manifest but its type " +
        arrow->type()->ToString() + " needs " + std::to_string(arrow_children.size()));
  }
  return node;
}

ProjNode Whole(const TableNode& node) {
  ProjNode p;
  p.node = &node;
  p.out_field = node.field;
  if (node.IsSplittableStruct()) {
    for (const TableNode& c : node.children) p.children.push_back(Whole(c));
  }
  return p;
}

void Finish(ProjNode& p) {
  if (!p.node->IsSplittableStruct()) return;
  std::vector<array::FieldPtr> kids;
  for (ProjNode& c : p.children) {
    Finish(c);
    kids.push_back(c.out_field);
  }
  const array::Field& f = *p.node->field;
  p.out_field =
      array::MakeField(f.name(), array::Struct(std::move(kids)), f.nullable(), f.metadata());
}

void SortLike(std::vector<ProjNode>& nodes, const std::vector<TableNode>& order) {
  std::sort(nodes.begin(), nodes.end(), [&](const ProjNode& a, const ProjNode& b) {
    return a.node - order.data() < b.node - order.data();
  });
  for (ProjNode& n : nodes) SortLike(n.children, n.node->children);  // schema order throughout
}

Status AddPath(const std::string& path, const std::vector<TableNode>& roots,
               std::vector<ProjNode>& out, const array::Schema& schema) {
  LND_ASSIGN_OR_RETURN(const std::vector<std::string> parts,
                       array::SplitFieldPath(schema.fields(), path));
  std::vector<ProjNode>* level = &out;
  const std::vector<TableNode>* candidates = &roots;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const TableNode* found = nullptr;
    for (const TableNode& n : *candidates) {
      if (n.field->name() == parts[i]) found = &n;
    }
    if (found == nullptr) {
      std::string names;
      for (const auto& f : schema.fields()) names += (names.empty() ? "" : ", ") + f->name();
      return Status::InvalidArgument("projection '" + path + "': no field named '" + parts[i] +
                                     "'" + (i == 0 ? "" : " in the struct") +
                                     "; the table's fields are " + names);
    }
    const bool last = i + 1 == parts.size();
    if (!last && !found->IsSplittableStruct()) {
      return Status::InvalidArgument("projection '" + path + "': '" + parts[i] +
                                     "' is not a struct; only struct children can be selected");
    }
    auto it = std::find_if(level->begin(), level->end(),
                           [&](const ProjNode& p) { return p.node == found; });
    if (last) {
      if (it == level->end()) {
        level->push_back(Whole(*found));
      } else {
        *it = Whole(*found);
      }
      break;
    }
    if (it == level->end()) {
      ProjNode p;
      p.node = found;
      level->push_back(std::move(p));
      it = level->end() - 1;
    }
    ProjNode& parent = *it;
    level = &parent.children;
    candidates = &found->children;
  }
  return Status::OK();
}

// A table field of a type lance-nd cannot read refuses a scan that projects it (or a struct or
// list around it); the other fields stay readable.
Status CheckReadable(const TableNode& node) {
  if (auto why = file::UnsupportedFieldReason(*node.field)) {
    return Status::NotImplemented("table field '" + node.field->name() + "' (id " +
                                  std::to_string(node.id) + "): " + std::string(*why));
  }
  for (const TableNode& c : node.children) LND_RETURN_NOT_OK(CheckReadable(c));
  return Status::OK();
}

Status CheckReadable(const ProjNode& p) {
  if (p.children.empty()) return CheckReadable(*p.node);
  for (const ProjNode& c : p.children) LND_RETURN_NOT_OK(CheckReadable(c));
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<const ScanPlan>> MakeScanPlan(const Dataset& ds,
                                                     const TableScanOptions& options) {
  auto plan = std::make_shared<ScanPlan>();
  const std::vector<LanceField>& fields = ds.manifest().fields;
  std::multimap<std::int32_t, std::size_t> children_of;
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].parent_id < 0) {
      roots.push_back(i);
    } else {
      children_of.emplace(fields[i].parent_id, i);
    }
  }
  const array::Schema& schema = *ds.schema();
  if (roots.size() != static_cast<std::size_t>(schema.num_fields())) {
    return Status::Corrupt("table schema has " + std::to_string(roots.size()) +
                           " top-level Lance fields but " + std::to_string(schema.num_fields()) +
                           " Arrow fields");
  }
  for (std::size_t r = 0; r < roots.size(); ++r) {
    LND_ASSIGN_OR_RETURN(TableNode node, BuildNode(fields, children_of, roots[r],
                                                   schema.field(static_cast<int>(r)), 0));
    plan->roots.push_back(std::move(node));
  }
  plan->with_row_address = options.with_row_address;
  plan->with_row_id = options.with_row_id;
  for (const std::string& p : options.projection) {
    if (p == kRowAddressColumn && schema.FieldIndex(p) < 0) {
      plan->with_row_address = true;
      continue;
    }
    if (p == kRowIdColumn && schema.FieldIndex(p) < 0) {
      plan->with_row_id = true;
      continue;
    }
    LND_RETURN_NOT_OK(AddPath(p, plan->roots, plan->columns, schema));
  }
  if (options.projection.empty()) {
    for (const TableNode& n : plan->roots) plan->columns.push_back(Whole(n));
  }
  SortLike(plan->columns, plan->roots);
  for (const ProjNode& c : plan->columns) LND_RETURN_NOT_OK(CheckReadable(c));
  std::vector<array::FieldPtr> out;
  for (ProjNode& c : plan->columns) {
    Finish(c);
    out.push_back(c.out_field);
  }
  if (plan->with_row_id) {
    out.push_back(array::MakeField(kRowIdColumn, array::UInt64(), false));
  }
  if (plan->with_row_address) {
    out.push_back(array::MakeField(kRowAddressColumn, array::UInt64(), false));
  }
  plan->schema = array::MakeSchema(std::move(out), schema.metadata());
  return std::shared_ptr<const ScanPlan>(std::move(plan));
}

}  // namespace lance_nd::table::internal
