#include "lance_nd/file/describe.h"

#include <utility>

#include "lance_nd/file/page_decoder.h"

namespace lance_nd::file::internal {
namespace {

std::string ChildPath(const std::string& prefix, const FieldNode& node) {
  return prefix.empty() ? node.field->name() : prefix + "." + node.field->name();
}

void AddFieldLayouts(const FieldNode& node, const std::string& prefix,
                     std::vector<FieldLayout>* out) {
  FieldLayout f;
  f.id = node.id;
  f.parent_id = node.parent_id;
  f.name = node.field->name();
  f.path = ChildPath(prefix, node);
  f.type = node.field->type();
  f.column = node.column;
  out->push_back(f);
  for (const auto& c : node.children) AddFieldLayouts(c, f.path, out);
}

void AddFieldDescriptions(const FieldNode& node, const std::string& prefix,
                          std::vector<FieldDescription>* out) {
  FieldDescription d;
  d.id = node.id;
  d.parent_id = node.parent_id;
  d.path = ChildPath(prefix, node);
  d.logical_type = node.logical_type;
  d.nullable = node.field->nullable();
  d.metadata = node.field->metadata();
  d.metadata.Remove(kUnsupportedFieldKey);
  d.column = node.column;
  if (!node.unsupported.ok()) d.unsupported = std::string(node.unsupported.message());
  out->push_back(d);
  for (const auto& c : node.children) AddFieldDescriptions(c, d.path, out);
}

ColumnDescription DescribeColumn(const ReaderState& state, int c) {
  const ColumnMeta& meta = state.column_meta(c);
  ColumnDescription cd;
  cd.index = c;
  cd.path = state.column(c).path;
  cd.field_id = state.column(c).node->id;
  cd.encoding_type_url = meta.encoding_type_url;
  cd.metadata_position = meta.location.position;
  cd.metadata_size = meta.location.size;
  for (const auto& p : meta.pages) {
    PageDescription pd;
    pd.first_row = p.first_row;
    pd.num_rows = p.num_rows;
    pd.layout = DescribeLayout(p.layout, p.buffers.size());
    for (const auto& b : p.buffers) {
      pd.buffers.emplace_back(b.position, b.size);
      pd.num_bytes += b.size;
    }
    cd.pages.push_back(std::move(pd));
  }
  return cd;
}

}  // namespace

FileLayout MakeLayout(const ReaderState& state) {
  FileLayout layout;
  layout.version = {state.container.footer.major, state.container.footer.minor};
  layout.num_rows = state.container.descriptor.length();
  for (const auto& f : state.tree.fields) AddFieldLayouts(f, "", &layout.fields);
  for (std::size_t i = 0; i < state.container.columns.size(); ++i) {
    ColumnLayout cl;
    cl.field_id = state.columns[i].node->id;
    cl.num_pages = state.container.columns[i].pages.size();
    cl.num_rows = state.container.columns[i].num_rows;
    layout.columns.push_back(cl);
  }
  return layout;
}

FileDescription DescribeFile(const ReaderState& state) {
  const Container& c = state.container;
  FileDescription d;
  d.version = {c.footer.major, c.footer.minor};
  d.file_size = c.file_size;
  d.num_rows = c.descriptor.length();
  d.column_meta_start = c.footer.column_meta_start;
  d.cmo_table_start = c.footer.cmo_table_start;
  d.gbo_table_start = c.footer.gbo_table_start;
  for (const auto& g : c.global_buffers) d.global_buffers.emplace_back(g.position, g.size);
  d.schema_metadata = state.tree.schema->metadata();
  for (const auto& f : state.tree.fields) AddFieldDescriptions(f, "", &d.fields);
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    d.columns.push_back(DescribeColumn(state, static_cast<int>(i)));
  }
  return d;
}

}  // namespace lance_nd::file::internal
