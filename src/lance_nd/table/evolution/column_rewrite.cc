// ReplaceColumns (column_rewrite.h): new versions of whole top-level columns written as extra
// data files under fresh field ids, swapped into the schema by one Merge commit.
#include "lance_nd/table/column_rewrite.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::table {
namespace {

std::string FieldNames(const array::Schema& schema) {
  std::string names;
  for (const auto& f : schema.fields()) names += (names.empty() ? "" : ", ") + f->name();
  return names;
}

Status CheckReplacements(const array::Schema& schema,
                         const std::vector<array::FieldPtr>& replacements) {
  if (replacements.empty()) {
    return Status::InvalidArgument("ReplaceColumns needs at least one replacement field");
  }
  std::set<std::string> seen;
  for (const auto& f : replacements) {
    if (schema.FieldIndex(f->name()) < 0) {
      return Status::InvalidArgument("cannot replace column '", f->name(),
                                     "': the table has no such top-level field; its fields are ",
                                     FieldNames(schema));
    }
    if (!seen.insert(f->name()).second) {
      return Status::InvalidArgument("column '", f->name(), "' is replaced twice");
    }
  }
  return Status::OK();
}

// The replacement fields as Lance fields with ids from `first_id` (pre-order), top-level
// parents -1.
Result<std::vector<LanceField>> NewFields(const std::vector<array::FieldPtr>& replacements,
                                          std::int32_t first_id) {
  LND_ASSIGN_OR_RETURN(auto fields, FieldsFromSchema(*array::MakeSchema(replacements)));
  for (LanceField& f : fields) {
    f.id += first_id;
    if (f.parent_id >= 0) f.parent_id += first_id;
  }
  return fields;
}

// `old_fields` with the subtree of every replaced root swapped for its new subtree, at the
// root's place.
std::vector<LanceField> SwapSubtrees(const std::vector<LanceField>& old_fields,
                                     const std::vector<LanceField>& new_fields) {
  std::map<std::string, std::vector<LanceField>> new_subtrees;  // by root name
  std::string root;
  for (const LanceField& f : new_fields) {
    if (f.parent_id < 0) root = f.name;
    new_subtrees[root].push_back(f);
  }
  std::set<std::int32_t> removed;
  std::vector<LanceField> out;
  for (const LanceField& f : old_fields) {
    if (f.parent_id >= 0 && removed.count(f.parent_id) > 0) {
      removed.insert(f.id);
      continue;
    }
    auto it = f.parent_id < 0 ? new_subtrees.find(f.name) : new_subtrees.end();
    if (it == new_subtrees.end()) {
      out.push_back(f);
      continue;
    }
    removed.insert(f.id);
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

// Every physical row (deleted ones too) of the replaced columns of `fragment`, in the order of
// `replacements`.
Result<array::RecordBatchPtr> ReadOldColumns(const Dataset& ds, Fragment fragment,
                                             const std::vector<array::FieldPtr>& replacements) {
  fragment.deletion_file.reset();
  TableScanOptions options;
  for (const auto& f : replacements) options.projection.push_back(f->name());
  LND_ASSIGN_OR_RETURN(auto batch, ReadFragment(ds, fragment, options));
  std::vector<array::FieldPtr> fields;
  std::vector<array::ArrayPtr> columns;
  for (const auto& f : replacements) {
    const int i = batch->schema()->FieldIndex(f->name());
    fields.push_back(batch->schema()->field(i));
    columns.push_back(batch->column(i));
  }
  return array::RecordBatch::Make(array::MakeSchema(std::move(fields)), batch->num_rows(),
                                  std::move(columns));
}

Status CheckTransformed(const array::RecordBatch& out, const array::Schema& expected,
                        std::int64_t rows, std::uint64_t fragment_id) {
  if (out.num_rows() != rows) {
    return Status::SchemaMismatch("ReplaceColumns: the transform of fragment ", fragment_id,
                                  " returned ", out.num_rows(), " rows; expected ", rows);
  }
  if (!out.schema()->Equals(expected, /*check_metadata=*/false)) {
    return Status::SchemaMismatch("ReplaceColumns: the transform of fragment ", fragment_id,
                                  " returned the schema\n", out.schema()->ToString(),
                                  "\nexpected\n", expected.ToString());
  }
  return Status::OK();
}

// Data files that still hold a field of the new schema.
void DropFilesWithoutFields(Fragment& fragment, const std::vector<LanceField>& fields) {
  std::set<std::int32_t> ids;
  for (const LanceField& f : fields) ids.insert(f.id);
  std::erase_if(fragment.files, [&](const DataFile& file) {
    return std::none_of(file.fields.begin(), file.fields.end(),
                        [&](std::int32_t id) { return ids.count(id) > 0; });
  });
}

}  // namespace

Result<Dataset> ReplaceColumns(const Dataset& ds, const std::vector<array::FieldPtr>& replacements,
                               const ColumnTransform& transform) {
  LND_RETURN_NOT_OK(CheckReplacements(*ds.schema(), replacements));
  const Manifest& m = ds.manifest();
  if (m.index_section_blob) {
    return Status::NotImplemented("table '", ds.path(), "' version ", ds.version(),
                                  " has indices; replacing columns would leave them pointing at "
                                  "the old field ids (drop the indices first)");
  }
  LND_ASSIGN_OR_RETURN(std::vector<LanceField> new_fields, NewFields(replacements, NextFieldId(m)));
  const array::SchemaPtr new_schema = array::MakeSchema(replacements);
  WriteOptions write;
  write.mode = WriteMode::kAppend;
  write.max_bytes_per_file = std::numeric_limits<std::int64_t>::max();
  LND_ASSIGN_OR_RETURN(write.file_options.version, TableFileVersion(m));

  const std::vector<LanceField> schema_fields = SwapSubtrees(m.fields, new_fields);
  std::vector<Fragment> fragments;
  for (const Fragment& fragment : m.fragments) {
    LND_ASSIGN_OR_RETURN(auto old_columns, ReadOldColumns(ds, fragment, replacements));
    LND_ASSIGN_OR_RETURN(auto new_columns, transform(old_columns));
    if (new_columns == nullptr) return Status::InvalidArgument("ReplaceColumns: null batch");
    LND_RETURN_NOT_OK(
        CheckTransformed(*new_columns, *new_schema, old_columns->num_rows(), fragment.id));
    write.max_rows_per_file = std::max<std::int64_t>(1, old_columns->num_rows());
    const array::RecordBatchPtr batches[] = {new_columns};
    LND_ASSIGN_OR_RETURN(auto written, WriteFragments(ds.location(), new_fields, batches, write));
    Fragment updated = fragment;
    for (Fragment& w : written) {
      for (DataFile& file : w.files) updated.files.push_back(std::move(file));
    }
    DropFilesWithoutFields(updated, schema_fields);
    fragments.push_back(std::move(updated));
  }
  Transaction txn;
  txn.read_version = ds.version();
  txn.operation = op::Merge{std::move(fragments), schema_fields, m.schema_metadata};
  return CommitTransaction(ds.location(), std::move(txn));
}

}  // namespace lance_nd::table
