#include "lance_nd/table/proto_convert.h"

#include <algorithm>
#include <string>
#include <utility>

namespace lance_nd::table::internal {
namespace {

template <typename Map>
array::Metadata MetadataFromMap(const Map& map) {
  std::vector<std::pair<std::string, std::string>> entries(map.begin(), map.end());
  std::sort(entries.begin(), entries.end());  // protobuf maps are unordered
  return array::Metadata(std::move(entries));
}

template <typename Map>
std::vector<std::pair<std::string, std::string>> PairsFromMap(const Map& map) {
  std::vector<std::pair<std::string, std::string>> entries(map.begin(), map.end());
  std::sort(entries.begin(), entries.end());
  return entries;
}

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

Status FragmentsFromProto(const google::protobuf::RepeatedPtrField<lance::table::DataFragment>& in,
                          std::vector<Fragment>* out) {
  out->reserve(static_cast<std::size_t>(in.size()));
  for (const auto& f : in) {
    LND_ASSIGN_OR_RETURN(Fragment fragment, FragmentFromProto(f));
    out->push_back(std::move(fragment));
  }
  return Status();
}

}  // namespace

void FieldToProto(const LanceField& field, lance::file::Field* out) {
  out->set_name(field.name);
  out->set_id(field.id);
  out->set_parent_id(field.parent_id);
  out->set_logical_type(field.logical_type);
  out->set_nullable(field.nullable);
  for (const auto& [k, v] : field.metadata.entries()) (*out->mutable_metadata())[k] = v;
}

LanceField FieldFromProto(const lance::file::Field& proto) {
  LanceField f;
  f.name = proto.name();
  f.id = proto.id();
  f.parent_id = proto.parent_id();
  f.logical_type = proto.logical_type();
  f.nullable = proto.nullable();
  f.metadata = MetadataFromMap(proto.metadata());
  return f;
}

void FragmentToProto(const Fragment& fragment, lance::table::DataFragment* out) {
  out->set_id(fragment.id);
  out->set_physical_rows(fragment.physical_rows);
  for (const DataFile& file : fragment.files) {
    auto* f = out->add_files();
    f->set_path(file.path);
    for (std::int32_t id : file.fields) f->add_fields(id);
    for (std::int32_t c : file.column_indices) f->add_column_indices(c);
    f->set_file_major_version(file.file_major_version);
    f->set_file_minor_version(file.file_minor_version);
    f->set_file_size_bytes(file.file_size_bytes);
    if (file.base_id) f->set_base_id(*file.base_id);
  }
  if (fragment.deletion_file) {
    const DeletionFile& d = *fragment.deletion_file;
    auto* df = out->mutable_deletion_file();
    df->set_file_type(d.file_type == DeletionFileType::kBitmap
                          ? lance::table::DeletionFile::BITMAP
                          : lance::table::DeletionFile::ARROW_ARRAY);
    df->set_read_version(d.read_version);
    df->set_id(d.id);
    df->set_num_deleted_rows(d.num_deleted_rows);
    if (d.base_id) df->set_base_id(*d.base_id);
  }
}

Result<Fragment> FragmentFromProto(const lance::table::DataFragment& proto) {
  Fragment fragment;
  fragment.id = proto.id();
  fragment.physical_rows = proto.physical_rows();
  fragment.has_row_ids = proto.row_id_sequence_case() !=
                         lance::table::DataFragment::ROW_ID_SEQUENCE_NOT_SET;
  for (const auto& f : proto.files()) {
    DataFile file;
    file.path = f.path();
    file.fields.assign(f.fields().begin(), f.fields().end());
    file.column_indices.assign(f.column_indices().begin(), f.column_indices().end());
    file.file_major_version = f.file_major_version();
    file.file_minor_version = f.file_minor_version();
    file.file_size_bytes = f.file_size_bytes();
    if (f.has_base_id()) file.base_id = f.base_id();
    fragment.files.push_back(std::move(file));
  }
  if (proto.has_deletion_file()) {
    const auto& d = proto.deletion_file();
    DeletionFile del;
    switch (d.file_type()) {
      case lance::table::DeletionFile::ARROW_ARRAY:
        del.file_type = DeletionFileType::kArrowArray;
        break;
      case lance::table::DeletionFile::BITMAP:
        del.file_type = DeletionFileType::kBitmap;
        break;
      default:
        return Status::Corrupt("fragment " + std::to_string(proto.id()) +
                               " has a deletion file of unknown type " +
                               std::to_string(static_cast<int>(d.file_type())) +
                               " (expected 0 = arrow or 1 = bitmap)");
    }
    del.read_version = d.read_version();
    del.id = d.id();
    del.num_deleted_rows = d.num_deleted_rows();
    if (d.has_base_id()) del.base_id = d.base_id();
    fragment.deletion_file = del;
  }
  return fragment;
}

void ManifestToProto(const Manifest& m, lance::table::Manifest* out) {
  FieldsToProto(m.fields, out->mutable_fields());
  for (const Fragment& f : m.fragments) FragmentToProto(f, out->add_fragments());
  out->set_version(m.version);
  for (const auto& [k, v] : m.schema_metadata.entries()) (*out->mutable_schema_metadata())[k] = v;
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
  for (const auto& [k, v] : m.config) (*out->mutable_config())[k] = v;
  for (const auto& [k, v] : m.table_metadata) (*out->mutable_table_metadata())[k] = v;
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
  return m;
}

Status TransactionToProto(const Transaction& t, lance::table::Transaction* out) {
  out->set_read_version(t.read_version);
  out->set_uuid(t.uuid);
  switch (t.operation) {
    case OperationType::kAppend: {
      auto* op = out->mutable_append();
      for (const Fragment& f : t.fragments) FragmentToProto(f, op->add_fragments());
      return Status();
    }
    case OperationType::kOverwrite: {
      auto* op = out->mutable_overwrite();
      for (const Fragment& f : t.fragments) FragmentToProto(f, op->add_fragments());
      FieldsToProto(t.schema, op->mutable_schema());
      for (const auto& [k, v] : t.schema_metadata.entries()) {
        (*op->mutable_schema_metadata())[k] = v;
      }
      return Status();
    }
    case OperationType::kDelete: {
      auto* op = out->mutable_delete_();
      for (const Fragment& f : t.fragments) FragmentToProto(f, op->add_updated_fragments());
      for (std::uint64_t id : t.deleted_fragment_ids) op->add_deleted_fragment_ids(id);
      op->set_predicate(t.predicate);
      return Status();
    }
    case OperationType::kMerge: {
      auto* op = out->mutable_merge();
      for (const Fragment& f : t.fragments) FragmentToProto(f, op->add_fragments());
      FieldsToProto(t.schema, op->mutable_schema());
      for (const auto& [k, v] : t.schema_metadata.entries()) {
        (*op->mutable_schema_metadata())[k] = v;
      }
      op->set_preserves_nullability(true);
      return Status();
    }
    case OperationType::kRestore:
      out->mutable_restore()->set_version(t.restore_version);
      return Status();
    case OperationType::kProject: {
      auto* op = out->mutable_project();
      FieldsToProto(t.schema, op->mutable_schema());
      op->set_preserves_nullability(true);
      return Status();
    }
    case OperationType::kReserveFragments:
    case OperationType::kUnknown:
      break;
  }
  return Status::InvalidArgument(
      "cannot write a transaction whose operation lance-nd does not model; expected append, "
      "delete, overwrite, merge, restore or project");
}

Result<Transaction> TransactionFromProto(const lance::table::Transaction& proto) {
  Transaction t;
  t.read_version = proto.read_version();
  t.uuid = proto.uuid();
  using P = lance::table::Transaction;
  switch (proto.operation_case()) {
    case P::kAppend:
      t.operation = OperationType::kAppend;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.append().fragments(), &t.fragments));
      break;
    case P::kDelete:
      t.operation = OperationType::kDelete;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.delete_().updated_fragments(), &t.fragments));
      t.deleted_fragment_ids.assign(proto.delete_().deleted_fragment_ids().begin(),
                                    proto.delete_().deleted_fragment_ids().end());
      t.predicate = proto.delete_().predicate();
      break;
    case P::kOverwrite:
      t.operation = OperationType::kOverwrite;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.overwrite().fragments(), &t.fragments));
      t.schema = FieldsFromProto(proto.overwrite().schema());
      t.schema_metadata = MetadataFromMap(proto.overwrite().schema_metadata());
      break;
    case P::kMerge:
      t.operation = OperationType::kMerge;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.merge().fragments(), &t.fragments));
      t.schema = FieldsFromProto(proto.merge().schema());
      t.schema_metadata = MetadataFromMap(proto.merge().schema_metadata());
      break;
    case P::kRestore:
      t.operation = OperationType::kRestore;
      t.restore_version = proto.restore().version();
      break;
    case P::kReserveFragments:
      t.operation = OperationType::kReserveFragments;
      break;
    case P::kProject:
      t.operation = OperationType::kProject;
      t.schema = FieldsFromProto(proto.project().schema());
      break;
    case P::OPERATION_NOT_SET:
      t.operation = OperationType::kUnknown;
      break;
  }
  return t;
}

}  // namespace lance_nd::table::internal
