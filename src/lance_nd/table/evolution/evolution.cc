// Schema evolution (see evolution.h): merge an offered Arrow schema into the table's Lance field
// list, assign new ids as Lance 12 does, commit a metadata-only Merge.
#include "lance_nd/table/evolution.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <utility>

#include "lance_nd/file/lance_schema.h"
#include "lance_nd/table/commit.h"

namespace lance_nd::table {
namespace {

using array::DataType;
using array::Field;
using array::TypeId;

// The dotted path of field `name` under the struct at `prefix` ("" at the top level).
std::string DottedFieldPath(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// Same physical/logical type, ignoring nullability, metadata and list item names (what Lance
// compares when it decides whether a field "is" the existing one).
bool SameType(const DataType& a, const DataType& b) {
  if (a.id() != b.id() || a.fixed_size() != b.fixed_size()) return false;
  if (a.id() == TypeId::kTimestamp || a.id() == TypeId::kDuration) {
    if (a.unit() != b.unit() || a.timezone() != b.timezone()) return false;
  }
  if (a.children().size() != b.children().size()) return false;
  for (std::size_t i = 0; i < a.children().size(); ++i) {
    const Field& ca = *a.children()[i];
    const Field& cb = *b.children()[i];
    if (a.id() == TypeId::kStruct && ca.name() != cb.name()) return false;
    if (!SameType(*ca.type(), *cb.type())) return false;
  }
  return true;
}

Status Mismatch(const std::string& path, const DataType& table_type, const DataType& offered) {
  return Status::SchemaMismatch("field '" + path + "' has type " + table_type.ToString() +
                                " in the table but " + offered.ToString() +
                                " was offered; schema evolution only adds fields (new columns, "
                                "new struct children): cast the data to the table's type");
}

Status CheckUniqueNames(const std::vector<array::FieldPtr>& fields, const std::string& where) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    for (std::size_t j = i + 1; j < fields.size(); ++j) {
      if (fields[i]->name() == fields[j]->name()) {
        return Status::InvalidArgument("offered schema has two fields named '" +
                                       DottedFieldPath(where, fields[i]->name()) +
                                       "'; names must be unique among siblings");
      }
    }
  }
  return Status::OK();
}

const Field* FindChild(const std::vector<array::FieldPtr>& fields, const std::string& name) {
  for (const auto& f : fields) {
    if (f->name() == name) return f.get();
  }
  return nullptr;
}

class Merger {
 public:
  Merger(const std::vector<LanceField>& fields, std::int32_t next_id,
         std::vector<std::string>* added)
      : fields_(fields), next_id_(next_id), added_(added) {
    for (std::size_t i = 0; i < fields_.size(); ++i) children_[fields_[i].parent_id].push_back(i);
  }

  // Top level: existing fields in table order (merged with their offered namesakes), then new
  // fields in offered order.
  Status Run(const array::Schema& table_schema, const array::Schema& wanted) {
    LND_RETURN_NOT_OK(CheckUniqueNames(wanted.fields(), ""));
    const std::vector<std::size_t>& top = children_[-1];
    if (top.size() != table_schema.fields().size()) {
      return Status::Corrupt("table schema has " + std::to_string(table_schema.fields().size()) +
                             " top-level fields but its field list has " +
                             std::to_string(top.size()));
    }
    for (std::size_t i = 0; i < top.size(); ++i) {
      const Field* w = FindChild(wanted.fields(), fields_[top[i]].name);
      LND_RETURN_NOT_OK(MergeExisting(top[i], *table_schema.field(static_cast<int>(i)), w, ""));
    }
    for (const auto& w : wanted.fields()) {
      if (FindChild(table_schema.fields(), w->name()) != nullptr) continue;
      if (w->name().find('.') != std::string::npos) {
        return Status::InvalidArgument("top-level field name '" + w->name() +
                                       "' contains '.'; Lance forbids dots in top-level names "
                                       "(use a struct to nest)");
      }
      LND_RETURN_NOT_OK(AddNew(*w, -1, ""));
    }
    return Status::OK();
  }

  std::vector<LanceField> TakeResult() { return std::move(out_); }
  bool changed() const { return changed_; }

 private:
  void EmitSubtree(std::size_t index) {
    out_.push_back(fields_[index]);
    auto it = children_.find(fields_[index].id);
    if (it == children_.end()) return;
    for (std::size_t c : it->second) EmitSubtree(c);
  }

  Status MergeExisting(std::size_t index, const Field& table_field, const Field* wanted,
                       const std::string& prefix) {
    const LanceField& lf = fields_[index];
    const std::string path = DottedFieldPath(prefix, lf.name);
    if (wanted == nullptr) {
      EmitSubtree(index);
      return Status::OK();
    }
    const bool table_struct = table_field.type()->id() == TypeId::kStruct;
    const bool offered_struct = wanted->type()->id() == TypeId::kStruct;
    if (!table_struct || !offered_struct) {
      if (table_struct != offered_struct || !SameType(*table_field.type(), *wanted->type())) {
        return Mismatch(path, *table_field.type(), *wanted->type());
      }
      EmitSubtree(index);
      return Status::OK();
    }
    const auto& offered_children = wanted->type()->children();
    LND_RETURN_NOT_OK(CheckUniqueNames(offered_children, path));
    out_.push_back(lf);
    static const std::vector<std::size_t> kNone;
    auto it = children_.find(lf.id);
    const std::vector<std::size_t>& kids = it == children_.end() ? kNone : it->second;
    const auto& table_children = table_field.type()->children();
    if (kids.size() != table_children.size()) {
      return Status::Corrupt("struct '" + path + "' has " + std::to_string(table_children.size()) +
                             " children in the table schema but " + std::to_string(kids.size()) +
                             " in its field list");
    }
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const Field* w = FindChild(offered_children, fields_[kids[i]].name);
      LND_RETURN_NOT_OK(MergeExisting(kids[i], *table_children[i], w, path));
    }
    for (const auto& w : offered_children) {
      if (FindChild(table_children, w->name()) != nullptr) continue;
      LND_RETURN_NOT_OK(AddNew(*w, lf.id, path));
    }
    return Status::OK();
  }

  // A whole new subtree: ids in pre-order from next_id_, root under `parent_id`, root nullable
  // (old rows read it as null).
  Status AddNew(const Field& field, std::int32_t parent_id, const std::string& prefix) {
    const std::string path = DottedFieldPath(prefix, field.name());
    array::Schema one({field.WithNullable(true)});
    LND_ASSIGN_OR_RETURN(
        auto lance_fields,
        file::LanceFieldsFromSchema(one, next_id_).WithContext("adding field '" + path + "'"));
    for (std::size_t i = 0; i < lance_fields.size(); ++i) {
      file::LanceSchemaField& f = lance_fields[i];
      LanceField lf{std::move(f.name),         f.id,       i == 0 ? parent_id : f.parent_id,
                    std::move(f.logical_type), f.nullable, std::move(f.metadata)};
      next_id_ = std::max(next_id_, lf.id + 1);
      out_.push_back(std::move(lf));
    }
    changed_ = true;
    if (added_ != nullptr) added_->push_back(path);
    return Status::OK();
  }

  const std::vector<LanceField>& fields_;
  std::map<std::int32_t, std::vector<std::size_t>> children_;  // parent id -> field indices
  std::int32_t next_id_;
  std::vector<std::string>* added_;
  std::vector<LanceField> out_;
  bool changed_ = false;
};

// "2.2" -> (2, 2); unparsable -> (0, 0).
std::pair<int, int> ParseFormatVersion(const std::string& v) {
  const auto dot = v.find('.');
  if (dot == std::string::npos) return {0, 0};
  int major = 0;
  int minor = 0;
  const char* end = v.data() + v.size();
  if (std::from_chars(v.data(), v.data() + dot, major).ec != std::errc() ||
      std::from_chars(v.data() + dot + 1, end, minor).ec != std::errc()) {
    return {0, 0};
  }
  return {major, minor};
}

}  // namespace

std::int32_t NextFieldId(const Manifest& manifest) {
  std::int32_t max_id = -1;
  for (const auto& f : manifest.fields) max_id = std::max(max_id, f.id);
  for (const auto& frag : manifest.fragments) {
    for (const auto& file : frag.files) {
      for (std::int32_t id : file.fields) max_id = std::max(max_id, id);
    }
  }
  return max_id + 1;
}

Result<std::vector<LanceField>> MergeFields(const std::vector<LanceField>& table_fields,
                                            const array::Schema& table_schema,
                                            const array::Schema& wanted, std::int32_t first_new_id,
                                            std::vector<std::string>* added) {
  Merger merger(table_fields, first_new_id, added);
  LND_RETURN_NOT_OK(merger.Run(table_schema, wanted));
  return merger.TakeResult();
}

namespace {

// The metadata-only Merge: the latest fragments unchanged, the merged schema.
Transaction MergeTransaction(const Dataset& latest, std::vector<LanceField> merged) {
  const Manifest& m = latest.manifest();
  Transaction txn;
  txn.read_version = latest.version();
  txn.uuid = NewUuid();
  txn.operation = op::Merge{m.fragments, std::move(merged), m.schema_metadata};
  return txn;
}

}  // namespace

Result<Dataset> EvolveSchema(const Dataset& ds, const array::Schema& wanted) {
  LND_ASSIGN_OR_RETURN(Dataset latest, Dataset::Open(ds.location()));
  const Manifest& m = latest.manifest();
  std::vector<std::string> added;
  LND_ASSIGN_OR_RETURN(auto merged,
                       MergeFields(m.fields, *latest.schema(), wanted, NextFieldId(m), &added));
  if (added.empty()) return latest;

  const auto [major, minor] = ParseFormatVersion(m.data_format_version);
  if (major < 2) {
    return Status::NotImplemented("table '" + ds.path() + "' has data format '" +
                                  m.data_format_version +
                                  "'; adding all-null columns needs a 2.x table (Lance refuses "
                                  "it on legacy tables too)");
  }
  for (const std::string& path : added) {
    if (path.find('.') != std::string::npos && (major == 2 && minor < 2)) {
      return Status::NotImplemented("cannot add '" + path + "' to table '" + ds.path() +
                                    "': new struct children need data format 2.2 or newer, the "
                                    "table has " +
                                    m.data_format_version + "; add a new top-level field instead");
    }
  }

  return CommitTransaction(latest.location(), MergeTransaction(latest, std::move(merged)));
}

}  // namespace lance_nd::table
