#include "lance_nd/file/projected_fields.h"

#include <algorithm>
#include <string>

#include "lance_nd/array/field_path.h"

namespace lance_nd::file::internal {
namespace {

using array::TypeId;

// A chosen field with its enclosing fields: top-level first, the chosen field last.
using FieldChain = std::vector<const FieldNode*>;

// A name is a top-level field, or a path through structs (array::SplitFieldPath's rules).
Result<FieldChain> ChainOfName(const SchemaTree& tree, const std::string& path) {
  LND_ASSIGN_OR_RETURN(const std::vector<std::string> parts,
                       array::SplitFieldPath(tree.schema->fields(), path));
  FieldChain chain;
  const std::vector<FieldNode>* candidates = &tree.fields;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const FieldNode* found = nullptr;
    for (const auto& f : *candidates) {
      if (f.field->name() == parts[i]) found = &f;
    }
    if (found == nullptr) {
      return Status::InvalidArgument("projection '", path, "': no field named '", parts[i], "'",
                                     (i == 0 ? "" : " in the struct"), "; the schema is ",
                                     tree.schema->ToString());
    }
    if (i + 1 < parts.size() && found->field->type()->id() != TypeId::kStruct) {
      return Status::InvalidArgument("projection '", path, "': '", parts[i],
                                     "' is not a struct; only struct children can be selected");
    }
    chain.push_back(found);
    candidates = &found->children;
  }
  return chain;
}

std::string JoinIds(const ReaderState& state) {
  std::string out;
  for (const auto& [id, node] : state.by_id) {
    if (!out.empty()) out += ", ";
    out += std::to_string(id);
  }
  return out.empty() ? "none" : out;
}

std::string PathOf(const ReaderState& state, const FieldNode* node) {
  std::vector<const FieldNode*> chain{node};
  for (auto it = state.parent.find(node); it != state.parent.end();
       it = state.parent.find(it->second)) {
    chain.push_back(it->second);
  }
  std::string path;
  for (auto f = chain.rbegin(); f != chain.rend(); ++f) {
    if (!path.empty()) path += '.';
    path += (*f)->field->name();
  }
  return path;
}

// An id selects any field whose enclosing fields are all structs.
Result<FieldChain> ChainOfId(const ReaderState& state, std::int32_t id) {
  auto found = state.by_id.find(id);
  if (found == state.by_id.end()) {
    return Status::InvalidArgument("projection: the file has no field with id ", id,
                                   "; its field ids are ", JoinIds(state));
  }
  FieldChain chain{found->second};
  for (auto it = state.parent.find(found->second); it != state.parent.end();
       it = state.parent.find(it->second)) {
    if (it->second->field->type()->id() != TypeId::kStruct) {
      return Status::InvalidArgument(
          "projection: field id ", id, " ('", PathOf(state, found->second), "') lies inside ",
          it->second->field->type()->ToString(), " '", PathOf(state, it->second),
          "'; only struct children can be selected, select the whole field instead");
    }
    chain.push_back(it->second);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

// Add `chain` to the pruned tree `out`: a field chosen whole absorbs any choice below it.
void Merge(const FieldChain& chain, std::vector<ProjNode>* out) {
  std::vector<ProjNode>* level = out;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const bool last = i + 1 == chain.size();
    ProjNode* existing = nullptr;
    for (auto& pn : *level) {
      if (pn.node == chain[i]) existing = &pn;
    }
    if (existing == nullptr) {
      level->push_back(ProjNode{chain[i], {}, last});
      existing = &level->back();
    } else if (last) {
      existing->whole = true;
      existing->children.clear();
    }
    if (existing->whole) break;
    level = &existing->children;
  }
}

void SortProj(std::vector<ProjNode>* nodes, const std::vector<FieldNode>& order) {
  std::sort(nodes->begin(), nodes->end(), [&](const ProjNode& a, const ProjNode& b) {
    return a.node - order.data() < b.node - order.data();
  });
  for (auto& n : *nodes) {
    if (!n.whole) SortProj(&n.children, n.node->children);
  }
}

}  // namespace

Result<std::vector<ProjNode>> ResolveProjection(const ReaderState& state,
                                                const Projection& projection) {
  std::vector<ProjNode> out;
  if (projection.selects_all()) {
    for (const auto& f : state.tree.fields) out.push_back(ProjNode{&f, {}, true});
    return out;
  }
  if (projection.by_field_ids()) {
    for (std::int32_t id : projection.field_ids()) {
      LND_ASSIGN_OR_RETURN(FieldChain chain, ChainOfId(state, id));
      Merge(chain, &out);
    }
  } else {
    for (const std::string& name : projection.names()) {
      LND_ASSIGN_OR_RETURN(FieldChain chain, ChainOfName(state.tree, name));
      Merge(chain, &out);
    }
  }
  SortProj(&out, state.tree.fields);
  return out;
}

void CollectLeaves(const FieldNode& node, std::vector<int>* out) {
  if (node.is_leaf()) {
    out->push_back(node.column);
    return;
  }
  for (const auto& c : node.children) CollectLeaves(c, out);
}

void CollectLeaves(const ProjNode& pn, std::vector<int>* out) {
  if (pn.whole) {
    CollectLeaves(*pn.node, out);
    return;
  }
  for (const auto& c : pn.children) CollectLeaves(c, out);
}

array::FieldPtr ProjectedField(const ProjNode& pn) {
  if (pn.whole) return pn.node->field;
  std::vector<array::FieldPtr> kids;
  for (const auto& c : pn.children) kids.push_back(ProjectedField(c));
  return pn.node->field->WithType(array::Struct(std::move(kids)));
}

Status CheckReadable(const std::vector<ProjNode>& nodes) {
  for (const ProjNode& pn : nodes) {
    if (!pn.node->unsupported.ok()) return pn.node->unsupported;
    if (!pn.whole) {
      LND_RETURN_NOT_OK(CheckReadable(pn.children));
      continue;
    }
    std::vector<ProjNode> all;
    for (const auto& c : pn.node->children) all.push_back(ProjNode{&c, {}, true});
    LND_RETURN_NOT_OK(CheckReadable(all));
  }
  return Status::OK();
}

}  // namespace lance_nd::file::internal
