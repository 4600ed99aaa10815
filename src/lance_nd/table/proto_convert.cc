#include "lance_nd/table/proto_convert.h"

#include <algorithm>
#include <string>
#include <utility>

namespace lance_nd::table::internal {
namespace {

template <typename Map>
std::vector<std::pair<std::string, std::string>> PairsFromMap(const Map& map) {
  std::vector<std::pair<std::string, std::string>> entries(map.begin(), map.end());
  std::sort(entries.begin(), entries.end());  // protobuf maps are unordered
  return entries;
}

template <typename Map>
array::Metadata MetadataFromMap(const Map& map) {
  return array::Metadata(PairsFromMap(map));
}

// Key/value pairs (a vector of pairs or Metadata::entries()) into a protobuf map.
template <typename Pairs, typename Map>
void PairsToMap(const Pairs& pairs, Map* out) {
  for (const auto& [k, v] : pairs) (*out)[k] = v;
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
      return Status::Corrupt("fragment " + std::to_string(fragment_id) +
                             " has a deletion file of unknown type " +
                             std::to_string(static_cast<int>(proto.file_type())) +
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

namespace {

using PTxn = lance::table::Transaction;

void UpdateMapToProto(const UpdateMap& map, PTxn::UpdateMap* out) {
  for (const auto& [key, value] : map.entries) {
    auto* e = out->add_entries();
    e->set_key(key);
    if (value) e->set_value(*value);
  }
  out->set_replace(map.replace);
}

UpdateMap UpdateMapFromProto(const PTxn::UpdateMap& proto) {
  UpdateMap map;
  for (const auto& e : proto.entries()) {
    map.entries.emplace_back(e.key(),
                             e.has_value() ? std::optional<std::string>(e.value()) : std::nullopt);
  }
  map.replace = proto.replace();
  return map;
}

// The field number of the first unknown length-delimited field in the operation range (the
// oneof case of an operation this proto does not declare), 0 if none.
std::uint32_t UnknownOperationField(const PTxn& proto) {
  const auto& unknown = proto.GetReflection()->GetUnknownFields(proto);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const int number = unknown.field(i).number();
    if (number >= 100 && number < 1000) return static_cast<std::uint32_t>(number);
  }
  return 0;
}

}  // namespace

Status TransactionToProto(const Transaction& t, lance::table::Transaction* out) {
  out->set_read_version(t.read_version);
  out->set_uuid(t.uuid);
  out->set_tag(t.tag);
  PairsToMap(t.properties, out->mutable_transaction_properties());
  switch (t.operation) {
    case OperationType::kAppend:
      FragmentsToProto(t.fragments, out->mutable_append()->mutable_fragments());
      return Status();
    case OperationType::kOverwrite: {
      auto* op = out->mutable_overwrite();
      FragmentsToProto(t.fragments, op->mutable_fragments());
      FieldsToProto(t.schema, op->mutable_schema());
      PairsToMap(t.schema_metadata.entries(), op->mutable_schema_metadata());
      PairsToMap(t.config_upserts, op->mutable_config_upsert_values());
      return Status();
    }
    case OperationType::kDelete: {
      auto* op = out->mutable_delete_();
      FragmentsToProto(t.updated_fragments, op->mutable_updated_fragments());
      for (std::uint64_t id : t.deleted_fragment_ids) op->add_deleted_fragment_ids(id);
      op->set_predicate(t.predicate);
      return Status();
    }
    case OperationType::kUpdate: {
      auto* op = out->mutable_update();
      for (std::uint64_t id : t.deleted_fragment_ids) op->add_removed_fragment_ids(id);
      FragmentsToProto(t.updated_fragments, op->mutable_updated_fragments());
      FragmentsToProto(t.fragments, op->mutable_new_fragments());
      for (std::uint32_t id : t.fields_modified) op->add_fields_modified(id);
      for (std::uint32_t id : t.fields_for_preserving_frag_bitmap) {
        op->add_fields_for_preserving_frag_bitmap(id);
      }
      op->set_update_mode(t.update_mode == 1 ? PTxn::REWRITE_COLUMNS : PTxn::REWRITE_ROWS);
      return Status();
    }
    case OperationType::kMerge: {
      auto* op = out->mutable_merge();
      FragmentsToProto(t.fragments, op->mutable_fragments());
      FieldsToProto(t.schema, op->mutable_schema());
      PairsToMap(t.schema_metadata.entries(), op->mutable_schema_metadata());
      op->set_preserves_nullability(true);
      return Status();
    }
    case OperationType::kRestore:
      out->mutable_restore()->set_version(t.restore_version);
      return Status();
    case OperationType::kReserveFragments:
      out->mutable_reserve_fragments()->set_num_fragments(t.num_fragments);
      return Status();
    case OperationType::kProject: {
      auto* op = out->mutable_project();
      FieldsToProto(t.schema, op->mutable_schema());
      op->set_preserves_nullability(true);
      return Status();
    }
    case OperationType::kRewrite: {
      auto* op = out->mutable_rewrite();
      for (const RewriteGroup& g : t.rewrite_groups) {
        auto* group = op->add_groups();
        FragmentsToProto(g.old_fragments, group->mutable_old_fragments());
        FragmentsToProto(g.new_fragments, group->mutable_new_fragments());
      }
      return Status();
    }
    case OperationType::kUpdateConfig: {
      auto* op = out->mutable_update_config();
      if (t.config_updates) UpdateMapToProto(*t.config_updates, op->mutable_config_updates());
      if (t.table_metadata_updates) {
        UpdateMapToProto(*t.table_metadata_updates, op->mutable_table_metadata_updates());
      }
      if (t.schema_metadata_updates) {
        UpdateMapToProto(*t.schema_metadata_updates, op->mutable_schema_metadata_updates());
      }
      for (const auto& [id, map] : t.field_metadata_updates) {
        UpdateMapToProto(map, &(*op->mutable_field_metadata_updates())[id]);
      }
      return Status();
    }
    case OperationType::kDataReplacement: {
      auto* op = out->mutable_data_replacement();
      for (const auto& [id, file] : t.replacements) {
        auto* r = op->add_replacements();
        r->set_fragment_id(id);
        DataFileToProto(file, r->mutable_new_file());
      }
      return Status();
    }
    case OperationType::kCreateIndex:
    case OperationType::kUpdateMemWalState:
    case OperationType::kClone:
    case OperationType::kUpdateBases:
    case OperationType::kUnknown:
      break;
  }
  return Status::InvalidArgument(
      "cannot write a transaction of operation '" + std::string(OperationTypeName(t.operation)) +
      "': lance-nd only writes append, delete, overwrite, merge, restore, reserve_fragments, "
      "project, rewrite, update, update_config and data_replacement");
}

Result<Transaction> TransactionFromProto(const lance::table::Transaction& proto) {
  Transaction t;
  t.read_version = proto.read_version();
  t.uuid = proto.uuid();
  t.tag = proto.tag();
  t.properties = PairsFromMap(proto.transaction_properties());
  switch (proto.operation_case()) {
    case PTxn::kAppend:
      t.operation = OperationType::kAppend;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.append().fragments(), &t.fragments));
      break;
    case PTxn::kDelete:
      t.operation = OperationType::kDelete;
      LND_RETURN_NOT_OK(
          FragmentsFromProto(proto.delete_().updated_fragments(), &t.updated_fragments));
      t.deleted_fragment_ids.assign(proto.delete_().deleted_fragment_ids().begin(),
                                    proto.delete_().deleted_fragment_ids().end());
      t.predicate = proto.delete_().predicate();
      break;
    case PTxn::kOverwrite:
      t.operation = OperationType::kOverwrite;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.overwrite().fragments(), &t.fragments));
      t.schema = FieldsFromProto(proto.overwrite().schema());
      t.schema_metadata = MetadataFromMap(proto.overwrite().schema_metadata());
      t.config_upserts = PairsFromMap(proto.overwrite().config_upsert_values());
      break;
    case PTxn::kCreateIndex:
      t.operation = OperationType::kCreateIndex;
      t.num_new_indices = static_cast<std::uint32_t>(proto.create_index().new_indices_size());
      t.num_removed_indices =
          static_cast<std::uint32_t>(proto.create_index().removed_indices_size());
      break;
    case PTxn::kRewrite: {
      t.operation = OperationType::kRewrite;
      const auto& op = proto.rewrite();
      for (const auto& g : op.groups()) {
        RewriteGroup group;
        LND_RETURN_NOT_OK(FragmentsFromProto(g.old_fragments(), &group.old_fragments));
        LND_RETURN_NOT_OK(FragmentsFromProto(g.new_fragments(), &group.new_fragments));
        t.rewrite_groups.push_back(std::move(group));
      }
      if (op.old_fragments_size() > 0 || op.new_fragments_size() > 0) {
        RewriteGroup group;  // legacy flat form = one group
        LND_RETURN_NOT_OK(FragmentsFromProto(op.old_fragments(), &group.old_fragments));
        LND_RETURN_NOT_OK(FragmentsFromProto(op.new_fragments(), &group.new_fragments));
        t.rewrite_groups.push_back(std::move(group));
      }
      break;
    }
    case PTxn::kMerge:
      t.operation = OperationType::kMerge;
      LND_RETURN_NOT_OK(FragmentsFromProto(proto.merge().fragments(), &t.fragments));
      t.schema = FieldsFromProto(proto.merge().schema());
      t.schema_metadata = MetadataFromMap(proto.merge().schema_metadata());
      break;
    case PTxn::kRestore:
      t.operation = OperationType::kRestore;
      t.restore_version = proto.restore().version();
      break;
    case PTxn::kReserveFragments:
      t.operation = OperationType::kReserveFragments;
      t.num_fragments = proto.reserve_fragments().num_fragments();
      break;
    case PTxn::kUpdate: {
      t.operation = OperationType::kUpdate;
      const auto& op = proto.update();
      t.deleted_fragment_ids.assign(op.removed_fragment_ids().begin(),
                                    op.removed_fragment_ids().end());
      LND_RETURN_NOT_OK(FragmentsFromProto(op.updated_fragments(), &t.updated_fragments));
      LND_RETURN_NOT_OK(FragmentsFromProto(op.new_fragments(), &t.fragments));
      t.fields_modified.assign(op.fields_modified().begin(), op.fields_modified().end());
      t.fields_for_preserving_frag_bitmap.assign(op.fields_for_preserving_frag_bitmap().begin(),
                                                 op.fields_for_preserving_frag_bitmap().end());
      t.update_mode = static_cast<std::uint32_t>(op.update_mode());
      break;
    }
    case PTxn::kProject:
      t.operation = OperationType::kProject;
      t.schema = FieldsFromProto(proto.project().schema());
      break;
    case PTxn::kUpdateConfig: {
      t.operation = OperationType::kUpdateConfig;
      const auto& op = proto.update_config();
      if (op.has_config_updates()) t.config_updates = UpdateMapFromProto(op.config_updates());
      if (op.has_table_metadata_updates()) {
        t.table_metadata_updates = UpdateMapFromProto(op.table_metadata_updates());
      }
      if (op.has_schema_metadata_updates()) {
        t.schema_metadata_updates = UpdateMapFromProto(op.schema_metadata_updates());
      }
      for (const auto& [id, map] : op.field_metadata_updates()) {
        t.field_metadata_updates.emplace_back(id, UpdateMapFromProto(map));
      }
      std::sort(t.field_metadata_updates.begin(), t.field_metadata_updates.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      break;
    }
    case PTxn::kDataReplacement:
      t.operation = OperationType::kDataReplacement;
      for (const auto& r : proto.data_replacement().replacements()) {
        t.replacements.emplace_back(r.fragment_id(), DataFileFromProto(r.new_file()));
      }
      break;
    case PTxn::kUpdateMemWalState:
      t.operation = OperationType::kUpdateMemWalState;
      break;
    case PTxn::kClone:
      t.operation = OperationType::kClone;
      break;
    case PTxn::kUpdateBases:
      t.operation = OperationType::kUpdateBases;
      break;
    case PTxn::OPERATION_NOT_SET:
      t.operation = OperationType::kUnknown;
      t.unknown_operation_field = UnknownOperationField(proto);
      break;
  }
  return t;
}

}  // namespace lance_nd::table::internal
