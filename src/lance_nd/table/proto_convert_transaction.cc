// Conversion between Transaction (one type per operation) and lance.table.Transaction. Every
// writable operation sets exactly the protobuf members it always has, so the bytes of a
// transaction lance-nd writes depend only on its values.
#include <algorithm>
#include <string>
#include <utility>

#include "lance_nd/table/proto_convert.h"

namespace lance_nd::table::internal {
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

// ---- writing: one overload per operation; false = lance-nd cannot write it.

bool OperationToProto(const op::Append& o, PTxn* out) {
  FragmentsToProto(o.fragments, out->mutable_append()->mutable_fragments());
  return true;
}

bool OperationToProto(const op::Overwrite& o, PTxn* out) {
  auto* p = out->mutable_overwrite();
  FragmentsToProto(o.fragments, p->mutable_fragments());
  FieldsToProto(o.schema, p->mutable_schema());
  PairsToMap(o.schema_metadata.entries(), p->mutable_schema_metadata());
  PairsToMap(o.config_upserts, p->mutable_config_upsert_values());
  return true;
}

bool OperationToProto(const op::Delete& o, PTxn* out) {
  auto* p = out->mutable_delete_();
  FragmentsToProto(o.updated_fragments, p->mutable_updated_fragments());
  for (std::uint64_t id : o.deleted_fragment_ids) p->add_deleted_fragment_ids(id);
  p->set_predicate(o.predicate);
  return true;
}

bool OperationToProto(const op::Update& o, PTxn* out) {
  auto* p = out->mutable_update();
  for (std::uint64_t id : o.removed_fragment_ids) p->add_removed_fragment_ids(id);
  FragmentsToProto(o.updated_fragments, p->mutable_updated_fragments());
  FragmentsToProto(o.new_fragments, p->mutable_new_fragments());
  for (std::uint32_t id : o.fields_modified) p->add_fields_modified(id);
  for (std::uint32_t id : o.fields_for_preserving_frag_bitmap) {
    p->add_fields_for_preserving_frag_bitmap(id);
  }
  p->set_update_mode(o.mode == op::UpdateMode::kRewriteColumns ? PTxn::REWRITE_COLUMNS
                                                               : PTxn::REWRITE_ROWS);
  return true;
}

bool OperationToProto(const op::Merge& o, PTxn* out) {
  auto* p = out->mutable_merge();
  FragmentsToProto(o.fragments, p->mutable_fragments());
  FieldsToProto(o.schema, p->mutable_schema());
  PairsToMap(o.schema_metadata.entries(), p->mutable_schema_metadata());
  p->set_preserves_nullability(true);
  return true;
}

bool OperationToProto(const op::Restore& o, PTxn* out) {
  out->mutable_restore()->set_version(o.version);
  return true;
}

bool OperationToProto(const op::ReserveFragments& o, PTxn* out) {
  out->mutable_reserve_fragments()->set_num_fragments(o.num_fragments);
  return true;
}

bool OperationToProto(const op::Project& o, PTxn* out) {
  auto* p = out->mutable_project();
  FieldsToProto(o.schema, p->mutable_schema());
  p->set_preserves_nullability(true);
  return true;
}

bool OperationToProto(const op::Rewrite& o, PTxn* out) {
  auto* p = out->mutable_rewrite();
  for (const RewriteGroup& g : o.groups) {
    auto* group = p->add_groups();
    FragmentsToProto(g.old_fragments, group->mutable_old_fragments());
    FragmentsToProto(g.new_fragments, group->mutable_new_fragments());
  }
  return true;
}

bool OperationToProto(const op::UpdateConfig& o, PTxn* out) {
  auto* p = out->mutable_update_config();
  if (o.config_updates) UpdateMapToProto(*o.config_updates, p->mutable_config_updates());
  if (o.table_metadata_updates) {
    UpdateMapToProto(*o.table_metadata_updates, p->mutable_table_metadata_updates());
  }
  if (o.schema_metadata_updates) {
    UpdateMapToProto(*o.schema_metadata_updates, p->mutable_schema_metadata_updates());
  }
  for (const auto& [id, map] : o.field_metadata_updates) {
    UpdateMapToProto(map, &(*p->mutable_field_metadata_updates())[id]);
  }
  return true;
}

bool OperationToProto(const op::DataReplacement& o, PTxn* out) {
  auto* p = out->mutable_data_replacement();
  for (const op::FileReplacement& r : o.replacements) {
    auto* group = p->add_replacements();
    group->set_fragment_id(r.fragment_id);
    DataFileToProto(r.new_file, group->mutable_new_file());
  }
  return true;
}

bool OperationToProto(const op::CreateIndex&, PTxn*) { return false; }
bool OperationToProto(const op::Unknown&, PTxn*) { return false; }

// ---- reading: one function per protobuf operation.

Result<Operation> AppendFromProto(const PTxn::Append& p) {
  op::Append o;
  LND_RETURN_NOT_OK(FragmentsFromProto(p.fragments(), &o.fragments));
  return Operation(std::move(o));
}

Result<Operation> DeleteFromProto(const PTxn::Delete& p) {
  op::Delete o;
  LND_RETURN_NOT_OK(FragmentsFromProto(p.updated_fragments(), &o.updated_fragments));
  o.deleted_fragment_ids.assign(p.deleted_fragment_ids().begin(), p.deleted_fragment_ids().end());
  o.predicate = p.predicate();
  return Operation(std::move(o));
}

Result<Operation> OverwriteFromProto(const PTxn::Overwrite& p) {
  op::Overwrite o;
  LND_RETURN_NOT_OK(FragmentsFromProto(p.fragments(), &o.fragments));
  o.schema = FieldsFromProto(p.schema());
  o.schema_metadata = MetadataFromMap(p.schema_metadata());
  o.config_upserts = PairsFromMap(p.config_upsert_values());
  return Operation(std::move(o));
}

Operation CreateIndexFromProto(const PTxn::CreateIndex& p) {
  op::CreateIndex o;
  o.num_new_indices = static_cast<std::uint32_t>(p.new_indices_size());
  o.num_removed_indices = static_cast<std::uint32_t>(p.removed_indices_size());
  return o;
}

Result<Operation> RewriteFromProto(const PTxn::Rewrite& p) {
  op::Rewrite o;
  for (const auto& g : p.groups()) {
    RewriteGroup group;
    LND_RETURN_NOT_OK(FragmentsFromProto(g.old_fragments(), &group.old_fragments));
    LND_RETURN_NOT_OK(FragmentsFromProto(g.new_fragments(), &group.new_fragments));
    o.groups.push_back(std::move(group));
  }
  if (p.old_fragments_size() > 0 || p.new_fragments_size() > 0) {
    RewriteGroup group;  // legacy flat form = one group
    LND_RETURN_NOT_OK(FragmentsFromProto(p.old_fragments(), &group.old_fragments));
    LND_RETURN_NOT_OK(FragmentsFromProto(p.new_fragments(), &group.new_fragments));
    o.groups.push_back(std::move(group));
  }
  return Operation(std::move(o));
}

Result<Operation> MergeFromProto(const PTxn::Merge& p) {
  op::Merge o;
  LND_RETURN_NOT_OK(FragmentsFromProto(p.fragments(), &o.fragments));
  o.schema = FieldsFromProto(p.schema());
  o.schema_metadata = MetadataFromMap(p.schema_metadata());
  return Operation(std::move(o));
}

Result<Operation> UpdateFromProto(const PTxn::Update& p) {
  op::Update o;
  o.removed_fragment_ids.assign(p.removed_fragment_ids().begin(), p.removed_fragment_ids().end());
  LND_RETURN_NOT_OK(FragmentsFromProto(p.updated_fragments(), &o.updated_fragments));
  LND_RETURN_NOT_OK(FragmentsFromProto(p.new_fragments(), &o.new_fragments));
  o.fields_modified.assign(p.fields_modified().begin(), p.fields_modified().end());
  o.fields_for_preserving_frag_bitmap.assign(p.fields_for_preserving_frag_bitmap().begin(),
                                             p.fields_for_preserving_frag_bitmap().end());
  o.mode = static_cast<op::UpdateMode>(p.update_mode());
  return Operation(std::move(o));
}

Operation UpdateConfigFromProto(const PTxn::UpdateConfig& p) {
  op::UpdateConfig o;
  if (p.has_config_updates()) o.config_updates = UpdateMapFromProto(p.config_updates());
  if (p.has_table_metadata_updates()) {
    o.table_metadata_updates = UpdateMapFromProto(p.table_metadata_updates());
  }
  if (p.has_schema_metadata_updates()) {
    o.schema_metadata_updates = UpdateMapFromProto(p.schema_metadata_updates());
  }
  for (const auto& [id, map] : p.field_metadata_updates()) {
    o.field_metadata_updates.emplace_back(id, UpdateMapFromProto(map));
  }
  std::sort(o.field_metadata_updates.begin(), o.field_metadata_updates.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return o;
}

Operation DataReplacementFromProto(const PTxn::DataReplacement& p) {
  op::DataReplacement o;
  for (const auto& r : p.replacements()) {
    o.replacements.push_back(op::FileReplacement{r.fragment_id(), DataFileFromProto(r.new_file())});
  }
  return o;
}

Result<Operation> OperationFromProto(const PTxn& proto) {
  switch (proto.operation_case()) {
    case PTxn::kAppend:
      return AppendFromProto(proto.append());
    case PTxn::kDelete:
      return DeleteFromProto(proto.delete_());
    case PTxn::kOverwrite:
      return OverwriteFromProto(proto.overwrite());
    case PTxn::kCreateIndex:
      return CreateIndexFromProto(proto.create_index());
    case PTxn::kRewrite:
      return RewriteFromProto(proto.rewrite());
    case PTxn::kMerge:
      return MergeFromProto(proto.merge());
    case PTxn::kRestore:
      return Operation(op::Restore{proto.restore().version()});
    case PTxn::kReserveFragments:
      return Operation(op::ReserveFragments{proto.reserve_fragments().num_fragments()});
    case PTxn::kUpdate:
      return UpdateFromProto(proto.update());
    case PTxn::kProject:
      return Operation(op::Project{FieldsFromProto(proto.project().schema())});
    case PTxn::kUpdateConfig:
      return UpdateConfigFromProto(proto.update_config());
    case PTxn::kDataReplacement:
      return DataReplacementFromProto(proto.data_replacement());
    case PTxn::kUpdateMemWalState:
    case PTxn::kClone:
    case PTxn::kUpdateBases:
      // Classified by number only (Transaction::type()).
      return Operation(op::Unknown{static_cast<std::uint32_t>(proto.operation_case())});
    case PTxn::OPERATION_NOT_SET:
      break;
  }
  return Operation(op::Unknown{UnknownOperationField(proto)});
}

}  // namespace

Status TransactionToProto(const Transaction& t, lance::table::Transaction* out) {
  out->set_read_version(t.read_version);
  out->set_uuid(t.uuid);
  out->set_tag(t.tag);
  PairsToMap(t.properties, out->mutable_transaction_properties());
  const bool written =
      std::visit([&](const auto& o) { return OperationToProto(o, out); }, t.operation);
  if (written) return Status();
  return Status::InvalidArgument(
      "cannot write a transaction of operation '", t.name(),
      "': lance-nd only writes append, delete, overwrite, merge, restore, reserve_fragments, "
      "project, rewrite, update, update_config and data_replacement");
}

Result<Transaction> TransactionFromProto(const lance::table::Transaction& proto) {
  Transaction t;
  t.read_version = proto.read_version();
  t.uuid = proto.uuid();
  t.tag = proto.tag();
  t.properties = PairsFromMap(proto.transaction_properties());
  LND_ASSIGN_OR_RETURN(t.operation, OperationFromProto(proto));
  return t;
}

}  // namespace lance_nd::table::internal
