// The next manifest = latest manifest + transaction (mirrors Lance 12's build_manifest).
#include "lance_nd/table/commit/build_manifest.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "lance_nd/table/commit.h"
#include "lance_nd/table/rowids/assign_row_ids.h"

namespace lance_nd::table::internal {
namespace {

std::string Op(const Transaction& t) { return std::string(OperationTypeName(t.operation)); }

Status Invalid(const Transaction& t, const std::string& problem) {
  return Status::InvalidArgument("cannot commit the " + Op(t) + " transaction: " + problem);
}

// Assign ids to fragments whose id is 0, counting from *next (Lance's fragments_with_ids).
void AssignIds(std::vector<Fragment>* fragments, std::uint64_t* next) {
  for (Fragment& f : *fragments) {
    if (f.id == 0) f.id = (*next)++;
  }
}

template <typename Pairs>
void ApplyUpdateMap(Pairs* map, const UpdateMap& update) {
  std::map<std::string, std::string> m;
  if (!update.replace) m.insert(map->begin(), map->end());
  for (const auto& [k, v] : update.entries) {
    if (v) {
      m[k] = *v;
    } else {
      m.erase(k);
    }
  }
  map->assign(m.begin(), m.end());
}

array::Metadata ApplyUpdateMap(const array::Metadata& metadata, const UpdateMap& update) {
  std::vector<std::pair<std::string, std::string>> entries(metadata.entries().begin(),
                                                           metadata.entries().end());
  ApplyUpdateMap(&entries, update);
  return array::Metadata(std::move(entries));
}

Result<Fragment*> FindFragment(Manifest* m, std::uint64_t id, const Transaction& t) {
  for (Fragment& f : m->fragments) {
    if (f.id == id) return &f;
  }
  return Status::CommitConflict("the " + Op(t) + " transaction (read version " +
                                std::to_string(t.read_version) + ") modifies fragment " +
                                std::to_string(id) + ", which is not in the latest version " +
                                std::to_string(m->version - 1) +
                                " (removed or rewritten concurrently); reload the "
                                "table and retry")
      .WithRetryable();
}

void RemoveFragments(Manifest* m, const std::vector<std::uint64_t>& ids) {
  const std::set<std::uint64_t> gone(ids.begin(), ids.end());
  std::erase_if(m->fragments, [&](const Fragment& f) { return gone.count(f.id) != 0; });
}

Status ApplyRewrite(Manifest* m, const Transaction& t, std::uint64_t* next_id) {
  for (const RewriteGroup& g : t.rewrite_groups) {
    if (g.old_fragments.empty()) return Invalid(t, "a rewrite group has no old fragments");
    std::size_t insert_at = m->fragments.size();
    for (const Fragment& old : g.old_fragments) {
      LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(m, old.id, t));
      insert_at = std::min(insert_at, static_cast<std::size_t>(f - m->fragments.data()));
    }
    std::vector<std::uint64_t> old_ids;
    for (const Fragment& old : g.old_fragments) old_ids.push_back(old.id);
    RemoveFragments(m, old_ids);
    std::vector<Fragment> fresh = g.new_fragments;
    AssignIds(&fresh, next_id);
    insert_at = std::min(insert_at, m->fragments.size());
    m->fragments.insert(m->fragments.begin() + static_cast<std::ptrdiff_t>(insert_at),
                        fresh.begin(), fresh.end());
  }
  return Status();
}

Status ApplyDataReplacement(Manifest* m, const Transaction& t) {
  for (const auto& [id, file] : t.replacements) {
    LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(m, id, t));
    bool replaced = false;
    bool overlaps = false;
    for (DataFile& existing : f->files) {
      if (existing.fields == file.fields &&
          existing.file_major_version == file.file_major_version &&
          existing.file_minor_version == file.file_minor_version) {
        existing.path = file.path;
        existing.file_size_bytes = file.file_size_bytes;
        replaced = true;
      }
      for (std::int32_t field : existing.fields) {
        overlaps = overlaps ||
                   std::find(file.fields.begin(), file.fields.end(), field) != file.fields.end();
      }
    }
    if (!replaced) {
      if (overlaps) {
        return Invalid(t, "the new data file for fragment " + std::to_string(id) +
                              " covers fields that no existing data file matches exactly");
      }
      f->files.push_back(file);  // an all-null column gets real data
    }
  }
  return Status();
}

Status ApplyUpdateConfig(Manifest* m, const Transaction& t) {
  if (t.config_updates) ApplyUpdateMap(&m->config, *t.config_updates);
  if (t.table_metadata_updates) ApplyUpdateMap(&m->table_metadata, *t.table_metadata_updates);
  if (t.schema_metadata_updates) {
    m->schema_metadata = ApplyUpdateMap(m->schema_metadata, *t.schema_metadata_updates);
  }
  for (const auto& [field_id, update] : t.field_metadata_updates) {
    const std::int32_t id = field_id;  // (clang 14: lambdas cannot capture bindings)
    auto it = std::find_if(m->fields.begin(), m->fields.end(),
                           [&](const LanceField& f) { return f.id == id; });
    if (it == m->fields.end()) {
      return Invalid(t, "field id " + std::to_string(id) + " is not in the table schema");
    }
    it->metadata = ApplyUpdateMap(it->metadata, update);
  }
  return Status();
}

std::string DataFormatOf(const std::vector<Fragment>& fragments) {
  for (const Fragment& f : fragments) {
    for (const DataFile& file : f.files) {
      return std::to_string(file.file_major_version) + "." +
             std::to_string(file.file_minor_version);
    }
  }
  return "2.2";
}

// Operations lance-nd cannot apply to a table with stable row ids the way Lance 12 does.
Status CheckStableRowIdOperation(const Transaction& t, bool stable) {
  if (!stable) {
    const bool numbered = std::any_of(t.fragments.begin(), t.fragments.end(),
                                      [](const Fragment& f) { return f.has_row_ids; });
    if (numbered && (t.operation == OperationType::kAppend ||
                     (t.operation == OperationType::kOverwrite && t.read_version != 0))) {
      return Status::InvalidArgument(
          "cannot commit the " + Op(t) +
          " transaction: its fragments carry stable row ids but the table does not use them; "
          "stable row ids can only be enabled when a table is created (as in Lance)");
    }
    return Status();
  }
  if (t.operation == OperationType::kUpdate) {
    return Status::NotImplemented(
        "cannot commit the Update transaction: the table uses stable row ids (feature flag 2), "
        "and lance-nd does not yet carry row ids and created_at versions of updated rows as "
        "Lance 12 does; use the Lance engine for updates of this table, or Delete + Append");
  }
  return Status();
}

}  // namespace

void ApplyFeatureFlags(Manifest* m, bool transaction_file_written) {
  std::uint64_t reader = 0;
  std::uint64_t writer = 0;
  const bool deletions = std::any_of(m->fragments.begin(), m->fragments.end(),
                                     [](const Fragment& f) { return f.deletion_file.has_value(); });
  if (deletions) {
    reader |= kFlagDeletionFiles;
    writer |= kFlagDeletionFiles;
  }
  const bool row_ids = std::any_of(m->fragments.begin(), m->fragments.end(),
                                   [](const Fragment& f) { return f.has_row_ids; });
  if (row_ids || (m->reader_feature_flags & kFlagStableRowIds) != 0) {
    reader |= kFlagStableRowIds;
    writer |= kFlagStableRowIds;
  }
  if (!m->config.empty()) writer |= kFlagTableConfig;
  if (!transaction_file_written) writer |= kFlagNoTransactionFile;
  m->reader_feature_flags = reader;
  m->writer_feature_flags = writer;
}

Result<Manifest> BuildManifest(const Transaction& t, const BuildContext& c) {
  const bool creates = c.latest == nullptr;
  if (creates && t.operation != OperationType::kOverwrite) {
    return Status::NotFound("cannot commit the " + Op(t) +
                            " transaction: the table does not exist; create it first (an "
                            "Overwrite with read version 0)");
  }
  Manifest m;
  if (c.latest != nullptr) {
    m = *c.latest;
  } else {
    m.data_format_file_format = "lance";
    m.data_format_version = DataFormatOf(t.fragments);
  }
  m.version = creates ? 1 : c.latest->version + 1;
  std::uint64_t next_id = m.max_fragment_id ? std::uint64_t{*m.max_fragment_id} + 1 : 0;
  // Stable row ids (flag 2): kept by the latest version; a new table has them when the create
  // came with numbered fragments (WriteOptions::enable_stable_row_ids). Lance cannot turn them
  // on for an existing table, and neither can we.
  bool stable = false;
  std::uint64_t next_row_id = 0;
  if (creates) {
    stable = std::any_of(t.fragments.begin(), t.fragments.end(),
                         [](const Fragment& f) { return f.has_row_ids; });
    if (stable) {
      LND_ASSIGN_OR_RETURN(next_row_id, NextRowIdAfter(t.fragments));
    }
  } else {
    stable = (c.latest->reader_feature_flags & kFlagStableRowIds) != 0;
    next_row_id = c.latest->next_row_id;
  }
  LND_RETURN_NOT_OK(CheckStableRowIdOperation(t, stable));

  switch (t.operation) {
    case OperationType::kAppend: {
      std::vector<Fragment> fresh = t.fragments;
      AssignIds(&fresh, &next_id);
      if (stable) LND_RETURN_NOT_OK(AssignRowIds(&fresh, &next_row_id, m.version));
      m.fragments.insert(m.fragments.end(), fresh.begin(), fresh.end());
      break;
    }
    case OperationType::kOverwrite: {
      if (t.schema.empty()) return Invalid(t, "an Overwrite needs the table schema");
      // Lance 12 (LanceDB 0.39) numbers an overwrite's fragments from max_fragment_id + 1 like
      // an append (checked in tests/table_rowids_interop), not from 0.
      m.fragments = t.fragments;
      AssignIds(&m.fragments, &next_id);
      // Lance keeps counting row ids across an overwrite of a stable-row-id table.
      if (stable) LND_RETURN_NOT_OK(AssignRowIds(&m.fragments, &next_row_id, m.version));
      m.fields = t.schema;
      m.schema_metadata = t.schema_metadata;
      m.index_section_blob.reset();  // indices do not survive an overwrite
      for (const auto& [key, v] : t.config_upserts) {
        const std::string& k = key;  // (clang 14: lambdas cannot capture bindings)
        auto it = std::find_if(m.config.begin(), m.config.end(),
                               [&](const auto& e) { return e.first == k; });
        if (it != m.config.end()) {
          it->second = v;
        } else {
          m.config.emplace_back(k, v);
        }
      }
      std::sort(m.config.begin(), m.config.end());
      break;
    }
    case OperationType::kDelete: {
      RemoveFragments(&m, t.deleted_fragment_ids);
      for (const Fragment& u : t.updated_fragments) {
        // Rebase: only the deletion file changes; the latest fragment keeps its data files
        // (a concurrent Merge may have added some).
        LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(&m, u.id, t));
        f->deletion_file = u.deletion_file;
      }
      break;
    }
    case OperationType::kUpdate: {
      RemoveFragments(&m, t.deleted_fragment_ids);
      for (const Fragment& u : t.updated_fragments) {
        LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(&m, u.id, t));
        *f = u;
      }
      std::vector<Fragment> fresh = t.fragments;
      AssignIds(&fresh, &next_id);
      m.fragments.insert(m.fragments.end(), fresh.begin(), fresh.end());
      break;
    }
    case OperationType::kMerge:
      if (t.schema.empty()) return Invalid(t, "a Merge needs the complete new schema");
      m.fragments = t.fragments;
      m.fields = t.schema;
      m.schema_metadata = t.schema_metadata;
      break;
    case OperationType::kProject: {
      if (t.schema.empty()) return Invalid(t, "a Project needs the new schema");
      m.fields = t.schema;
      std::set<std::int32_t> ids;
      for (const LanceField& f : m.fields) ids.insert(f.id);
      for (Fragment& f : m.fragments) {
        std::erase_if(f.files, [&](const DataFile& file) {
          return std::none_of(file.fields.begin(), file.fields.end(),
                              [&](std::int32_t id) { return ids.count(id) != 0; });
        });
      }
      break;
    }
    case OperationType::kRestore: {
      if (c.restored == nullptr) return Invalid(t, "the restored version was not loaded");
      const auto max_id = m.max_fragment_id;
      const std::uint64_t version = m.version;
      m = *c.restored;
      m.version = version;
      if (max_id && (!m.max_fragment_id || *m.max_fragment_id < *max_id)) {
        m.max_fragment_id = max_id;
      }
      // Like max_fragment_id, next_row_id never goes back (Lance's restore takes the old value,
      // so ids handed out after the restored version could be handed out again).
      next_row_id = std::max(next_row_id, m.next_row_id);
      stable = stable || (m.reader_feature_flags & kFlagStableRowIds) != 0;
      break;
    }
    case OperationType::kReserveFragments:
      if (t.num_fragments > 0) {
        const std::uint64_t new_max = next_id + t.num_fragments - 1;
        if (new_max > std::numeric_limits<std::uint32_t>::max()) {
          return Invalid(t, "reserving " + std::to_string(t.num_fragments) +
                                " fragment ids overflows the 32-bit fragment id space");
        }
        m.max_fragment_id = static_cast<std::uint32_t>(new_max);
      }
      break;
    case OperationType::kRewrite:
      LND_RETURN_NOT_OK(ApplyRewrite(&m, t, &next_id));
      break;
    case OperationType::kUpdateConfig:
      LND_RETURN_NOT_OK(ApplyUpdateConfig(&m, t));
      break;
    case OperationType::kDataReplacement:
      LND_RETURN_NOT_OK(ApplyDataReplacement(&m, t));
      break;
    default:
      return Invalid(t, "lance-nd cannot apply this operation");
  }

  std::sort(m.fragments.begin(), m.fragments.end(),
            [](const Fragment& a, const Fragment& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < m.fragments.size(); ++i) {
    if (m.fragments[i].id == m.fragments[i - 1].id) {
      return Invalid(t, "fragment id " + std::to_string(m.fragments[i].id) +
                            " would appear twice in version " + std::to_string(m.version));
    }
  }
  // Data files whose every field was tombstoned (-2) hold nothing any more.
  for (Fragment& f : m.fragments) {
    std::erase_if(f.files, [](const DataFile& file) {
      return !file.fields.empty() && std::all_of(file.fields.begin(), file.fields.end(),
                                                 [](std::int32_t id) { return id == -2; });
    });
  }
  if (!m.fragments.empty()) {
    const std::uint64_t top = m.fragments.back().id;
    if (top > std::numeric_limits<std::uint32_t>::max()) {
      return Invalid(t, "fragment id " + std::to_string(top) + " exceeds 32 bits");
    }
    if (!m.max_fragment_id || *m.max_fragment_id < top) {
      m.max_fragment_id = static_cast<std::uint32_t>(top);
    }
  }
  if (m.data_format_file_format.empty()) m.data_format_file_format = "lance";
  if (m.data_format_version.empty()) m.data_format_version = DataFormatOf(m.fragments);
  m.timestamp_seconds = c.timestamp_seconds;
  m.timestamp_nanos = c.timestamp_nanos;
  m.transaction_file = c.transaction_file;
  m.writer_library = kWriterLibrary;
  m.writer_version = kWriterVersion;
  m.index_section.reset();
  m.transaction_section.reset();
  if (stable) {
    // Lance's apply_feature_flags: with stable row ids every fragment must carry them.
    for (const Fragment& f : m.fragments) {
      if (!f.has_row_ids) {
        return Invalid(t, "fragment " + std::to_string(f.id) +
                              " carries no row ids but the table uses stable row ids (every "
                              "fragment must have them, Lance refuses the table otherwise)");
      }
    }
    m.next_row_id = next_row_id;
    m.reader_feature_flags |= kFlagStableRowIds;  // read back by ApplyFeatureFlags
  }
  ApplyFeatureFlags(&m, !c.transaction_file.empty());
  if (!stable) {
    m.reader_feature_flags &= ~kFlagStableRowIds;
    m.writer_feature_flags &= ~kFlagStableRowIds;
  }
  return m;
}

}  // namespace lance_nd::table::internal
