#include "lance_nd/file/reader_state.h"

#include <cstdint>
#include <utility>

namespace lance_nd::file::internal {
namespace {

using array::TypeId;

void BuildColumnInfo(const FieldNode& node, std::vector<PathLayer> path, const std::string& prefix,
                     std::vector<ColumnInfo>* out) {
  const std::string name = prefix.empty() ? node.field->name() : prefix + "." + node.field->name();
  const TypeId id = node.field->type()->id();
  PathLayer layer;
  layer.kind = id == TypeId::kList        ? PathLayer::Kind::kList
               : id == TypeId::kLargeList ? PathLayer::Kind::kLargeList
                                          : PathLayer::Kind::kItem;
  path.push_back(layer);
  if (node.is_leaf()) {
    ColumnInfo& ci = (*out)[static_cast<std::size_t>(node.column)];
    ci.node = &node;
    ci.path = name;
    ci.scheme = std::make_unique<LevelScheme>(path);
    return;
  }
  for (const auto& c : node.children) BuildColumnInfo(c, path, name, out);
}

void IndexFields(const FieldNode& node, const FieldNode* parent, ReaderState* state) {
  state->by_id.emplace(node.id, &node);
  if (parent != nullptr) state->parent.emplace(&node, parent);
  for (const auto& c : node.children) IndexFields(c, &node, state);
}

}  // namespace

Result<std::shared_ptr<const ReaderState>> ReaderState::Open(
    std::shared_ptr<io::RandomAccessFile> file, ReaderOptions options) {
  auto state = std::make_shared<ReaderState>();
  state->options = options;
  const std::string name = "'" + file->path() + "'";
  LND_ASSIGN_OR_RETURN(state->container, ReadContainer(*file).WithContext(name));
  state->file = std::move(file);
  if (!state->container.descriptor.has_schema()) {
    return Status::Corrupt(name, ": the FileDescriptor has no schema");
  }
  LND_ASSIGN_OR_RETURN(
      state->tree,
      SchemaFromProto(state->container.descriptor.schema()).WithContext(name, ": schema"));
  if (static_cast<std::uint64_t>(state->tree.num_columns) != state->container.footer.num_columns) {
    return Status::Corrupt(name, ": the schema has ", state->tree.num_columns,
                           " leaf fields but the file has ", state->container.footer.num_columns,
                           " columns");
  }
  if (state->container.descriptor.length() > static_cast<std::uint64_t>(INT64_MAX)) {
    return Status::Corrupt(name, ": implausible row count");
  }
  state->columns.resize(static_cast<std::size_t>(state->tree.num_columns));
  for (const auto& f : state->tree.fields) {
    BuildColumnInfo(f, {}, "", &state->columns);
    IndexFields(f, nullptr, state.get());
  }
  return std::shared_ptr<const ReaderState>(std::move(state));
}

std::string ReaderState::ColumnWhere(int c) const {
  return "column " + std::to_string(c) + " ('" + column(c).path + "')";
}

}  // namespace lance_nd::file::internal
