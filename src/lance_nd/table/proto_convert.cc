// Conversion between the plain manifest structs and the generated protobuf messages.
#include "lance_nd/table/proto_convert.h"

#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

namespace lance_nd::table::internal {

void QuietProtobufLogs() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(nullptr); });  // null: drop them
}

namespace {
// At load, so that parses outside the table layer (data file footers) are quiet too.
[[maybe_unused]] const bool kQuietAtLoad = (QuietProtobufLogs(), true);
}  // namespace

void FieldsToProto(const std::vector<LanceField>& fields,
                   google::protobuf::RepeatedPtrField<lance::file::Field>* out) {
  for (const LanceField& f : fields) FieldToProto(f, out->Add());
}

std::vector<LanceField> FieldsFromProto(
    const google::protobuf::RepeatedPtrField<lance::file::Field>& fields) {
  std::vector<LanceField> out;
  out.reserve(static_cast<std::size_t>(fields.size()));
  for (const auto& f : fields) out.push_back(FieldFromProto(f));
  return out;
}

void FragmentsToProto(const std::vector<Fragment>& fragments,
                      google::protobuf::RepeatedPtrField<lance::table::DataFragment>* out) {
  for (const Fragment& f : fragments) FragmentToProto(f, out->Add());
}

Status FragmentsFromProto(const google::protobuf::RepeatedPtrField<lance::table::DataFragment>& in,
                          std::vector<Fragment>* out) {
  out->reserve(static_cast<std::size_t>(in.size()));
  for (const auto& f : in) {
    LND_ASSIGN_OR_RETURN(Fragment fragment, FragmentFromProto(f));
    out->push_back(std::move(fragment));
  }
  return Status();
}

void DataFileToProto(const DataFile& file, lance::table::DataFile* out) {
  out->set_path(file.path);
  for (std::int32_t id : file.fields) out->add_fields(id);
  for (std::int32_t c : file.column_indices) out->add_column_indices(c);
  out->set_file_major_version(file.file_major_version);
  out->set_file_minor_version(file.file_minor_version);
  out->set_file_size_bytes(file.file_size_bytes);
  if (file.base_id) out->set_base_id(*file.base_id);
}

DataFile DataFileFromProto(const lance::table::DataFile& proto) {
  DataFile file;
  file.path = proto.path();
  file.fields.assign(proto.fields().begin(), proto.fields().end());
  file.column_indices.assign(proto.column_indices().begin(), proto.column_indices().end());
  file.file_major_version = proto.file_major_version();
  file.file_minor_version = proto.file_minor_version();
  file.file_size_bytes = proto.file_size_bytes();
  if (proto.has_base_id()) file.base_id = proto.base_id();
  return file;
}

void DeletionFileToProto(const DeletionFile& d, lance::table::DeletionFile* out) {
  out->set_file_type(d.file_type == DeletionFileType::kBitmap
                         ? lance::table::DeletionFile::BITMAP
                         : lance::table::DeletionFile::ARROW_ARRAY);
  out->set_read_version(d.read_version);
  out->set_id(d.id);
  out->set_num_deleted_rows(d.num_deleted_rows);
  if (d.base_id) out->set_base_id(*d.base_id);
}

namespace {

// `fragment_id` names the fragment in the error for an unknown file type.
Result<DeletionFile> DeletionFileFromProto(const lance::table::DeletionFile& proto,
                                           std::uint64_t fragment_id) {
  DeletionFile del;
  switch (proto.file_type()) {
    case lance::table::DeletionFile::ARROW_ARRAY:
      del.file_type = DeletionFileType::kArrowArray;
      break;
    case lance::table::DeletionFile::BITMAP:
      del.file_type = DeletionFileType::kBitmap;
      break;
    default:
      return Status::Corrupt("fragment ", fragment_id, " has a deletion file of unknown type ",
                             static_cast<int>(proto.file_type()),
                             " (expected 0 = arrow or 1 = bitmap)");
  }
  del.read_version = proto.read_version();
  del.id = proto.id();
  del.num_deleted_rows = proto.num_deleted_rows();
  if (proto.has_base_id()) del.base_id = proto.base_id();
  return del;
}

}  // namespace

void FieldToProto(const LanceField& field, lance::file::Field* out) {
  if (!field.unmodelled_proto.empty()) (void)out->MergeFromString(field.unmodelled_proto);
  out->set_name(field.name);
  out->set_id(field.id);
  out->set_parent_id(field.parent_id);
  out->set_logical_type(field.logical_type);
  out->set_nullable(field.nullable);
  PairsToMap(field.metadata.entries(), out->mutable_metadata());
}

LanceField FieldFromProto(const lance::file::Field& proto) {
  LanceField f;
  f.name = proto.name();
  f.id = proto.id();
  f.parent_id = proto.parent_id();
  f.logical_type = proto.logical_type();
  f.nullable = proto.nullable();
  f.metadata = MetadataFromMap(proto.metadata());
  lance::file::Field rest = proto;
  rest.clear_name();
  rest.clear_id();
  rest.clear_parent_id();
  rest.clear_logical_type();
  rest.clear_nullable();
  rest.clear_metadata();
  rest.clear_type();  // derived from the tree; Lance 12 never writes it
  f.unmodelled_proto = rest.SerializeAsString();
  return f;
}

void FragmentToProto(const Fragment& fragment, lance::table::DataFragment* out) {
  if (!fragment.unmodelled_proto.empty()) (void)out->MergeFromString(fragment.unmodelled_proto);
  out->set_id(fragment.id);
  out->set_physical_rows(fragment.physical_rows);
  for (const DataFile& file : fragment.files) DataFileToProto(file, out->add_files());
  if (fragment.deletion_file) {
    DeletionFileToProto(*fragment.deletion_file, out->mutable_deletion_file());
  }
}

Result<Fragment> FragmentFromProto(const lance::table::DataFragment& proto) {
  Fragment fragment;
  fragment.id = proto.id();
  fragment.physical_rows = proto.physical_rows();
  fragment.has_row_ids =
      proto.row_id_sequence_case() != lance::table::DataFragment::ROW_ID_SEQUENCE_NOT_SET;
  for (const auto& f : proto.files()) fragment.files.push_back(DataFileFromProto(f));
  if (proto.has_deletion_file()) {
    LND_ASSIGN_OR_RETURN(fragment.deletion_file,
                         DeletionFileFromProto(proto.deletion_file(), proto.id()));
  }
  lance::table::DataFragment rest = proto;
  rest.clear_id();
  rest.clear_files();
  rest.clear_deletion_file();
  rest.clear_physical_rows();
  fragment.unmodelled_proto = rest.SerializeAsString();
  return fragment;
}

void ManifestToProto(const Manifest& m, lance::table::Manifest* out) {
  if (!m.unmodelled_proto.empty()) (void)out->MergeFromString(m.unmodelled_proto);
  FieldsToProto(m.fields, out->mutable_fields());
  for (const Fragment& f : m.fragments) FragmentToProto(f, out->add_fragments());
  out->set_version(m.version);
  PairsToMap(m.schema_metadata.entries(), out->mutable_schema_metadata());
  if (m.index_section) out->set_index_section(*m.index_section);
  out->mutable_timestamp()->set_seconds(m.timestamp_seconds);
  out->mutable_timestamp()->set_nanos(m.timestamp_nanos);
  out->set_reader_feature_flags(m.reader_feature_flags);
  out->set_writer_feature_flags(m.writer_feature_flags);
  if (m.max_fragment_id) out->set_max_fragment_id(*m.max_fragment_id);
  out->set_transaction_file(m.transaction_file);
  out->mutable_writer_version()->set_library(m.writer_library);
  out->mutable_writer_version()->set_version(m.writer_version);
  out->set_next_row_id(m.next_row_id);
  out->mutable_data_format()->set_file_format(m.data_format_file_format);
  out->mutable_data_format()->set_version(m.data_format_version);
  PairsToMap(m.config, out->mutable_config());
  PairsToMap(m.table_metadata, out->mutable_table_metadata());
  if (m.branch) out->set_branch(*m.branch);
  if (m.transaction_section) out->set_transaction_section(*m.transaction_section);
}

Result<Manifest> ManifestFromProto(const lance::table::Manifest& proto) {
  Manifest m;
  m.version = proto.version();
  m.fields = FieldsFromProto(proto.fields());
  m.schema_metadata = MetadataFromMap(proto.schema_metadata());
  LND_RETURN_NOT_OK(FragmentsFromProto(proto.fragments(), &m.fragments));
  if (proto.has_max_fragment_id()) m.max_fragment_id = proto.max_fragment_id();
  m.reader_feature_flags = proto.reader_feature_flags();
  m.writer_feature_flags = proto.writer_feature_flags();
  m.timestamp_seconds = proto.timestamp().seconds();
  m.timestamp_nanos = proto.timestamp().nanos();
  m.transaction_file = proto.transaction_file();
  if (proto.has_index_section()) m.index_section = proto.index_section();
  if (proto.has_transaction_section()) m.transaction_section = proto.transaction_section();
  m.writer_library = proto.writer_version().library();
  m.writer_version = proto.writer_version().version();
  m.data_format_file_format = proto.data_format().file_format();
  m.data_format_version = proto.data_format().version();
  m.config = PairsFromMap(proto.config());
  m.table_metadata = PairsFromMap(proto.table_metadata());
  m.next_row_id = proto.next_row_id();
  if (proto.has_branch()) m.branch = proto.branch();
  m.num_base_paths = static_cast<std::size_t>(proto.base_paths_size());
  lance::table::Manifest rest = proto;
  rest.clear_fields();
  rest.clear_fragments();
  rest.clear_version();
  rest.clear_version_aux_data();
  rest.clear_schema_metadata();
  rest.clear_index_section();
  rest.clear_timestamp();
  rest.clear_tag();
  rest.clear_reader_feature_flags();
  rest.clear_writer_feature_flags();
  rest.clear_max_fragment_id();
  rest.clear_transaction_file();
  rest.clear_writer_version();
  rest.clear_next_row_id();
  rest.clear_data_format();
  rest.clear_config();
  rest.clear_table_metadata();
  rest.clear_branch();
  rest.clear_transaction_section();
  m.unmodelled_proto = rest.SerializeAsString();
  return m;
}

}  // namespace lance_nd::table::internal
