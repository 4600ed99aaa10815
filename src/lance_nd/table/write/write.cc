// Create / append / overwrite in one call (a TableWriter used once), data files for new
// fragments, and the schema helpers they share.
#include "lance_nd/table/write.h"

#include <string>
#include <utility>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/table_writer.h"
#include "lance_nd/table/write/fragment_writer.h"

namespace lance_nd::table {

Result<file::FileVersion> TableFileVersion(const Manifest& m) {
  if (m.data_format_version == "2.1") return file::FileVersion::kV2_1;
  if (m.data_format_version == "2.2") return file::FileVersion::kV2_2;
  return Status::NotImplemented("the table's data format is '" + m.data_format_version +
                                "'; lance-nd writes data files of format 2.1 and 2.2 only");
}

Result<std::vector<LanceField>> FieldsFromSchema(const array::Schema& schema) {
  LND_ASSIGN_OR_RETURN(std::vector<file::WrittenLanceField> written,
                       file::WrittenLanceFieldsFromSchema(schema, 0));
  std::vector<LanceField> fields;
  fields.reserve(written.size());
  for (file::WrittenLanceField& w : written) {
    fields.push_back(LanceField{std::move(w.field.name), w.field.id, w.field.parent_id,
                                std::move(w.field.logical_type), w.field.nullable,
                                std::move(w.field.metadata), std::move(w.unmodelled_proto)});
  }
  return fields;
}

Result<std::vector<Fragment>> WriteFragments(const TableLocation& location,
                                             const std::vector<LanceField>& fields,
                                             std::span<const array::RecordBatchPtr> batches,
                                             const WriteOptions& options) {
  LND_ASSIGN_OR_RETURN(auto writer, internal::FragmentWriter::Open(location, fields, options));
  for (const auto& batch : batches) {
    if (batch == nullptr) return Status::InvalidArgument("WriteFragments got a null batch");
    LND_RETURN_NOT_OK(writer->CheckSchema(*batch->schema()));
  }
  for (const auto& batch : batches) {
    const Status st = writer->Write(*batch);
    if (!st.ok()) {
      writer->RemoveFiles();
      return st;
    }
  }
  auto fragments = writer->Finish();
  if (!fragments.ok()) writer->RemoveFiles();
  return fragments;
}

Result<Dataset> WriteTable(const TableLocation& location,
                           std::span<const array::RecordBatchPtr> batches,
                           const WriteOptions& options) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("WriteTable needs a file system");
  }
  for (const auto& batch : batches) {
    if (batch == nullptr) return Status::InvalidArgument("WriteTable got a null batch");
  }
  array::SchemaPtr schema;
  if (options.mode != WriteMode::kAppend && !batches.empty()) schema = batches.front()->schema();
  LND_ASSIGN_OR_RETURN(TableWriter writer, TableWriter::Open(location, schema, options));
  // An append of nothing commits nothing.
  if (batches.empty()) {
    LND_RETURN_NOT_OK(writer.Abort());
    return Dataset::Open(location);
  }
  for (const auto& batch : batches) LND_RETURN_NOT_OK(writer.Write(*batch));
  return writer.Commit();
}

}  // namespace lance_nd::table
