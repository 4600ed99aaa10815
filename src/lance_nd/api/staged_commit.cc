// CommitStaged: every staged set committed as one version. The staged schemas are merged with
// the table's (nd::MergeEncodedSchema), the final field ids assigned (existing fields keep
// theirs, new ones get fresh ids as schema evolution does), and each staged data file's field
// ids rewritten to the final ones by field path: data files are read by id through
// DataFile.fields, so no data is rewritten.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/staged.h"
#include "lance_nd/api/staged_set.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/write.h"

namespace lance_nd {
namespace {

using api::internal::StagedSet;
using FieldPath = std::string;  // names from the root, '\0'-separated

// The path of every field id of `fields` (pre-order, parents first).
std::map<std::int32_t, FieldPath> PathsById(const std::vector<table::LanceField>& fields) {
  std::map<std::int32_t, FieldPath> paths;
  for (const auto& f : fields) {
    auto parent = paths.find(f.parent_id);
    paths[f.id] = parent == paths.end() ? f.name : parent->second + '\0' + f.name;
  }
  return paths;
}

// The staged set's fragments with their data files naming the final ids.
Result<std::vector<table::Fragment>> RemapFragments(const StagedSet& set,
                                                    const std::map<FieldPath, std::int32_t>& final,
                                                    std::size_t set_index) {
  const auto staged_paths = PathsById(set.fields);
  std::vector<table::Fragment> out = set.fragments;
  for (table::Fragment& fragment : out) {
    fragment.id = 0;
    for (table::DataFile& file : fragment.files) {
      for (std::int32_t& id : file.fields) {
        if (id < 0) continue;  // tombstone
        auto path = staged_paths.find(id);
        auto to = path == staged_paths.end() ? final.end() : final.find(path->second);
        if (to == final.end()) {
          return Status::Internal("staged set ", set_index, ": field id ", id, " of data file '",
                                  file.path, "' has no place in the merged schema");
        }
        id = to->second;
      }
    }
  }
  return out;
}

struct Plan {
  std::vector<table::LanceField> fields;  // final, with ids
  array::Metadata metadata;
  bool schema_changed = false;
};

// The merged schema of the table (unless overwritten) and every staged set, with final ids.
Result<Plan> PlanSchema(const std::optional<table::Dataset>& table, bool overwrite,
                        const std::vector<StagedSet>& sets) {
  array::SchemaPtr merged = overwrite ? nullptr : table->schema();
  for (std::size_t i = 0; i < sets.size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto schema, api::internal::StagedSchema(sets[i]));
    if (merged == nullptr) {
      merged = schema;
      continue;
    }
    auto next = nd::MergeEncodedSchema(*merged, *schema);
    if (!next.ok()) {
      return next.status().WithContext(
          "staged set ", i, " (staged against version ", sets[i].read_version,
          table ? "; the table is at version " + std::to_string(table->version()) : "",
          ") does not fit the table");
    }
    merged = std::move(next).value();
  }
  Plan plan;
  plan.metadata = merged->metadata();
  if (overwrite) {
    LND_ASSIGN_OR_RETURN(plan.fields, table::FieldsFromSchema(*merged));
    plan.schema_changed = true;
  } else {
    std::vector<std::string> added;
    const table::Manifest& m = table->manifest();
    LND_ASSIGN_OR_RETURN(plan.fields, table::MergeFields(m.fields, *table->schema(), *merged,
                                                         table::NextFieldId(m), &added));
    plan.schema_changed = !added.empty();
    // Lance 12 cannot add struct children to tables of data format 2.1 (schema evolution
    // refuses it too).
    for (const std::string& path : added) {
      if (path.find('.') != std::string::npos && m.data_format_version == "2.1") {
        return Status::NotImplemented("cannot commit staged rows that add '", path,
                                      "' to a table of data format 2.1: new struct children "
                                      "need data format 2.2");
      }
    }
  }
  return plan;
}

// New fragments numbered after every id the table used (a Merge keeps the ids it is given).
void NumberFragments(const table::Manifest& m, std::vector<table::Fragment>* fresh) {
  std::uint64_t next = m.max_fragment_id ? std::uint64_t{*m.max_fragment_id} + 1 : 0;
  for (const auto& f : m.fragments) next = std::max(next, f.id + 1);
  for (auto& f : *fresh) f.id = next++;
}

table::Transaction MakeTransaction(const std::optional<table::Dataset>& table, bool overwrite,
                                   Plan plan, std::vector<table::Fragment> fresh) {
  table::Transaction txn;
  txn.read_version = table ? table->version() : 0;
  if (overwrite) {
    txn.operation = table::op::Overwrite{
        std::move(fresh), std::move(plan.fields), std::move(plan.metadata), {}};
  } else if (!plan.schema_changed) {
    txn.operation = table::op::Append{std::move(fresh)};
  } else {
    // New fields and the rows that use them in one version: the complete fragment list.
    NumberFragments(table->manifest(), &fresh);
    std::vector<table::Fragment> all = table->fragments();
    all.insert(all.end(), fresh.begin(), fresh.end());
    txn.operation =
        table::op::Merge{std::move(all), std::move(plan.fields), std::move(plan.metadata)};
  }
  return txn;
}

}  // namespace

Result<Table> CommitStaged(std::string_view uri, std::span<const StagedFragments> staged,
                           const WriteOptions& options) {
  if (staged.empty()) return Status::InvalidArgument("CommitStaged: no staged fragments given");
  const table::TableLocation location = ResolveLocation(uri, options.file_system);
  std::vector<StagedSet> sets;
  for (const StagedFragments& s : staged) {
    LND_ASSIGN_OR_RETURN(auto set, api::internal::StagedSetFromJson(s.json_));
    sets.push_back(std::move(set));
  }
  LND_ASSIGN_OR_RETURN(auto table, api::internal::OpenLatestIfAny(location));
  if (table && options.mode == WriteMode::kCreate) return api::internal::TableExistsError(location);
  const bool overwrite = !table || options.mode == WriteMode::kOverwrite;
  LND_ASSIGN_OR_RETURN(Plan plan, PlanSchema(table, overwrite, sets));

  std::map<FieldPath, std::int32_t> final_ids;
  for (const auto& [id, path] : PathsById(plan.fields)) final_ids[path] = id;
  std::vector<table::Fragment> fresh;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    LND_ASSIGN_OR_RETURN(auto fragments, RemapFragments(sets[i], final_ids, i));
    fresh.insert(fresh.end(), fragments.begin(), fragments.end());
  }
  // Tables with stable row ids give new rows their ids in an Append only: there the new fields
  // go in first (a Merge of the schema alone), then the rows (two versions).
  if (table && !overwrite && plan.schema_changed &&
      (table->manifest().reader_feature_flags & table::kFlagStableRowIds) != 0) {
    table::Transaction evolve;
    evolve.read_version = table->version();
    evolve.operation = table::op::Merge{table->fragments(), plan.fields, plan.metadata};
    LND_ASSIGN_OR_RETURN(table, table::CommitTransaction(location, std::move(evolve)));
    plan.schema_changed = false;
  }
  LND_ASSIGN_OR_RETURN(
      table::Dataset committed,
      table::CommitTransaction(
          location, MakeTransaction(table, overwrite, std::move(plan), std::move(fresh))));
  return Table(std::move(committed), /*writable=*/true);
}

}  // namespace lance_nd
