// The next manifest = latest manifest + transaction (mirrors Lance 12's build_manifest): the
// draft starts from the latest manifest, the operation is applied to it (one Apply overload
// per operation type), then fragment order, ids, stamps and feature flags are settled.
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

// The manifest being built and the counters the operation advances.
struct Draft {
  Manifest m;
  std::uint64_t next_id = 0;  // next fragment id to assign
  bool stable = false;        // the table uses stable row ids (flag 2)
  std::uint64_t next_row_id = 0;
};

template <typename... P>
Status Invalid(const Transaction& t, const P&... problem) {
  return Status::InvalidArgument("cannot commit the ", t.name(), " transaction: ", problem...);
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
  return Status::CommitConflict("the ", t.name(), " transaction (read version ", t.read_version,
                                ") modifies fragment ", id, ", which is not in the latest version ",
                                m->version - 1,
                                " (removed or rewritten concurrently); reload the table and retry")
      .WithRetryable();
}

void RemoveFragments(Manifest* m, const std::vector<std::uint64_t>& ids) {
  const std::set<std::uint64_t> gone(ids.begin(), ids.end());
  std::erase_if(m->fragments, [&](const Fragment& f) { return gone.count(f.id) != 0; });
}

void AddFragments(std::vector<Fragment> fresh, Draft* d) {
  AssignIds(&fresh, &d->next_id);
  d->m.fragments.insert(d->m.fragments.end(), fresh.begin(), fresh.end());
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

// ---- one Apply per operation type

Status Apply(const op::Append& o, const Transaction&, const BuildContext&, Draft* d) {
  std::vector<Fragment> fresh = o.fragments;
  AssignIds(&fresh, &d->next_id);
  if (d->stable) LND_RETURN_NOT_OK(AssignRowIds(&fresh, &d->next_row_id, d->m.version));
  d->m.fragments.insert(d->m.fragments.end(), fresh.begin(), fresh.end());
  return Status();
}

Status Apply(const op::Overwrite& o, const Transaction& t, const BuildContext&, Draft* d) {
  if (o.schema.empty()) return Invalid(t, "an Overwrite needs the table schema");
  Manifest& m = d->m;
  // Lance 12 (LanceDB 0.39) numbers an overwrite's fragments from max_fragment_id + 1 like an
  // append (checked in tests/table_rowids_interop), not from 0.
  m.fragments = o.fragments;
  AssignIds(&m.fragments, &d->next_id);
  // Lance keeps counting row ids across an overwrite of a stable-row-id table.
  if (d->stable) LND_RETURN_NOT_OK(AssignRowIds(&m.fragments, &d->next_row_id, m.version));
  m.fields = o.schema;
  m.schema_metadata = o.schema_metadata;
  m.index_section_blob.reset();  // indices do not survive an overwrite
  for (const auto& [key, v] : o.config_upserts) {
    const std::string& k = key;  // (clang 14: lambdas cannot capture bindings)
    auto it =
        std::find_if(m.config.begin(), m.config.end(), [&](const auto& e) { return e.first == k; });
    if (it != m.config.end()) {
      it->second = v;
    } else {
      m.config.emplace_back(k, v);
    }
  }
  std::sort(m.config.begin(), m.config.end());
  return Status();
}

Status Apply(const op::Delete& o, const Transaction& t, const BuildContext&, Draft* d) {
  RemoveFragments(&d->m, o.deleted_fragment_ids);
  for (const Fragment& u : o.updated_fragments) {
    // Rebase: only the deletion file changes; the latest fragment keeps its data files (a
    // concurrent Merge may have added some).
    LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(&d->m, u.id, t));
    f->deletion_file = u.deletion_file;
  }
  return Status();
}

Status Apply(const op::Update& o, const Transaction& t, const BuildContext&, Draft* d) {
  RemoveFragments(&d->m, o.removed_fragment_ids);
  for (const Fragment& u : o.updated_fragments) {
    LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(&d->m, u.id, t));
    *f = u;
  }
  AddFragments(o.new_fragments, d);
  return Status();
}

Status Apply(const op::Merge& o, const Transaction& t, const BuildContext&, Draft* d) {
  if (o.schema.empty()) return Invalid(t, "a Merge needs the complete new schema");
  d->m.fragments = o.fragments;
  d->m.fields = o.schema;
  d->m.schema_metadata = o.schema_metadata;
  return Status();
}

Status Apply(const op::Project& o, const Transaction& t, const BuildContext&, Draft* d) {
  if (o.schema.empty()) return Invalid(t, "a Project needs the new schema");
  d->m.fields = o.schema;
  std::set<std::int32_t> ids;
  for (const LanceField& f : d->m.fields) ids.insert(f.id);
  for (Fragment& f : d->m.fragments) {
    std::erase_if(f.files, [&](const DataFile& file) {
      return std::none_of(file.fields.begin(), file.fields.end(),
                          [&](std::int32_t id) { return ids.count(id) != 0; });
    });
  }
  return Status();
}

Status Apply(const op::Restore&, const Transaction& t, const BuildContext& c, Draft* d) {
  if (c.restored == nullptr) return Invalid(t, "the restored version was not loaded");
  const auto max_id = d->m.max_fragment_id;
  const std::uint64_t version = d->m.version;
  d->m = *c.restored;
  d->m.version = version;
  if (max_id && (!d->m.max_fragment_id || *d->m.max_fragment_id < *max_id)) {
    d->m.max_fragment_id = max_id;
  }
  // Like max_fragment_id, next_row_id never goes back (Lance's restore takes the old value, so
  // ids handed out after the restored version could be handed out again).
  d->next_row_id = std::max(d->next_row_id, d->m.next_row_id);
  d->stable = d->stable || (d->m.reader_feature_flags & kFlagStableRowIds) != 0;
  return Status();
}

Status Apply(const op::ReserveFragments& o, const Transaction& t, const BuildContext&, Draft* d) {
  if (o.num_fragments == 0) return Status();
  const std::uint64_t new_max = d->next_id + o.num_fragments - 1;
  if (new_max > std::numeric_limits<std::uint32_t>::max()) {
    return Invalid(t, "reserving ", o.num_fragments,
                   " fragment ids overflows the 32-bit fragment id space");
  }
  d->m.max_fragment_id = static_cast<std::uint32_t>(new_max);
  return Status();
}

Status Apply(const op::Rewrite& o, const Transaction& t, const BuildContext&, Draft* d) {
  Manifest* m = &d->m;
  for (const RewriteGroup& g : o.groups) {
    if (g.old_fragments.empty()) return Invalid(t, "a rewrite group has no old fragments");
    // The new fragments take the place of the first old one.
    std::size_t insert_at = m->fragments.size();
    std::vector<std::uint64_t> old_ids;
    for (const Fragment& old : g.old_fragments) {
      LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(m, old.id, t));
      insert_at = std::min(insert_at, static_cast<std::size_t>(f - m->fragments.data()));
      old_ids.push_back(old.id);
    }
    RemoveFragments(m, old_ids);
    std::vector<Fragment> fresh = g.new_fragments;
    AssignIds(&fresh, &d->next_id);
    insert_at = std::min(insert_at, m->fragments.size());
    m->fragments.insert(m->fragments.begin() + static_cast<std::ptrdiff_t>(insert_at),
                        fresh.begin(), fresh.end());
  }
  return Status();
}

Status Apply(const op::UpdateConfig& o, const Transaction& t, const BuildContext&, Draft* d) {
  Manifest* m = &d->m;
  if (o.config_updates) ApplyUpdateMap(&m->config, *o.config_updates);
  if (o.table_metadata_updates) ApplyUpdateMap(&m->table_metadata, *o.table_metadata_updates);
  if (o.schema_metadata_updates) {
    m->schema_metadata = ApplyUpdateMap(m->schema_metadata, *o.schema_metadata_updates);
  }
  for (const auto& [field_id, update] : o.field_metadata_updates) {
    const std::int32_t id = field_id;  // (clang 14: lambdas cannot capture bindings)
    auto it = std::find_if(m->fields.begin(), m->fields.end(),
                           [&](const LanceField& f) { return f.id == id; });
    if (it == m->fields.end()) return Invalid(t, "field id ", id, " is not in the table schema");
    it->metadata = ApplyUpdateMap(it->metadata, update);
  }
  return Status();
}

Status Apply(const op::DataReplacement& o, const Transaction& t, const BuildContext&, Draft* d) {
  for (const op::FileReplacement& r : o.replacements) {
    const DataFile& file = r.new_file;
    LND_ASSIGN_OR_RETURN(Fragment * f, FindFragment(&d->m, r.fragment_id, t));
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
    if (replaced) continue;
    if (overlaps) {
      return Invalid(t, "the new data file for fragment ", r.fragment_id,
                     " covers fields that no existing data file matches exactly");
    }
    f->files.push_back(file);  // an all-null column gets real data
  }
  return Status();
}

// CreateIndex and unmodelled operations.
template <typename Op>
Status Apply(const Op&, const Transaction& t, const BuildContext&, Draft*) {
  return Invalid(t, "lance-nd cannot apply this operation");
}

// ---- before and after the operation

// Operations lance-nd cannot apply to a table with (or without) stable row ids the way Lance 12
// does.
Status CheckStableRowIdOperation(const Transaction& t, bool stable) {
  if (stable) {
    if (t.get<op::Update>() == nullptr) return Status();
    return Status::NotImplemented(
        "cannot commit the Update transaction: the table uses stable row ids (feature flag 2), "
        "and lance-nd does not yet carry row ids and created_at versions of updated rows as "
        "Lance 12 does; use the Lance engine for updates of this table, or Delete + Append");
  }
  const std::vector<Fragment>* fresh = nullptr;
  if (const auto* a = t.get<op::Append>()) fresh = &a->fragments;
  if (const auto* o = t.get<op::Overwrite>(); o != nullptr && t.read_version != 0) {
    fresh = &o->fragments;
  }
  if (fresh == nullptr ||
      std::none_of(fresh->begin(), fresh->end(), [](const Fragment& f) { return f.has_row_ids; })) {
    return Status();
  }
  return Status::InvalidArgument(
      "cannot commit the ", t.name(),
      " transaction: its fragments carry stable row ids but the table does not use them; "
      "stable row ids can only be enabled when a table is created (as in Lance)");
}

// The draft before the operation: the latest manifest (or a new table's), its next ids and
// whether it uses stable row ids.
Result<Draft> StartDraft(const Transaction& t, const BuildContext& c) {
  Draft d;
  if (c.latest != nullptr) {
    d.m = *c.latest;
    d.m.version = c.latest->version + 1;
    // Stable row ids are kept by the latest version; Lance cannot turn them on for an existing
    // table, and neither can we.
    d.stable = (c.latest->reader_feature_flags & kFlagStableRowIds) != 0;
    d.next_row_id = c.latest->next_row_id;
  } else {
    const auto* create = t.get<op::Overwrite>();
    if (create == nullptr) {
      return Status::NotFound("cannot commit the ", t.name(),
                              " transaction: the table does not exist; create it first (an "
                              "Overwrite with read version 0)");
    }
    d.m.version = 1;
    d.m.data_format_file_format = "lance";
    d.m.data_format_version = DataFormatOf(create->fragments);
    // A new table has stable row ids when the create came with numbered fragments
    // (WriteOptions::enable_stable_row_ids).
    d.stable = std::any_of(create->fragments.begin(), create->fragments.end(),
                           [](const Fragment& f) { return f.has_row_ids; });
    if (d.stable) {
      LND_ASSIGN_OR_RETURN(d.next_row_id, NextRowIdAfter(create->fragments));
    }
  }
  d.next_id = d.m.max_fragment_id ? std::uint64_t{*d.m.max_fragment_id} + 1 : 0;
  LND_RETURN_NOT_OK(CheckStableRowIdOperation(t, d.stable));
  return d;
}

// Fragments in table order (a Rewrite puts the new fragments where the old ones were, as Lance
// does, so ids need not increase along the list), no id twice, tombstoned data files dropped,
// max_fragment_id covering every fragment (and never decreasing).
Status SettleFragments(const Transaction& t, Manifest* m) {
  std::set<std::uint64_t> ids;
  for (const Fragment& f : m->fragments) {
    if (!ids.insert(f.id).second) {
      return Invalid(t, "fragment id ", f.id, " would appear twice in version ", m->version);
    }
  }
  // Data files whose every field was tombstoned (-2) hold nothing any more.
  for (Fragment& f : m->fragments) {
    std::erase_if(f.files, [](const DataFile& file) {
      return !file.fields.empty() && std::all_of(file.fields.begin(), file.fields.end(),
                                                 [](std::int32_t id) { return id == -2; });
    });
  }
  if (m->fragments.empty()) return Status();
  const std::uint64_t top = *ids.rbegin();
  if (top > std::numeric_limits<std::uint32_t>::max()) {
    return Invalid(t, "fragment id ", top, " exceeds 32 bits");
  }
  if (!m->max_fragment_id || *m->max_fragment_id < top) {
    m->max_fragment_id = static_cast<std::uint32_t>(top);
  }
  return Status();
}

// Stable row ids: every fragment must carry them (Lance's apply_feature_flags), and the
// counter moves on.
Status SettleRowIds(const Transaction& t, const Draft& d, Manifest* m) {
  if (!d.stable) return Status();
  for (const Fragment& f : m->fragments) {
    if (!f.has_row_ids) {
      return Invalid(t, "fragment ", f.id,
                     " carries no row ids but the table uses stable row ids (every fragment must "
                     "have them, Lance refuses the table otherwise)");
    }
  }
  m->next_row_id = d.next_row_id;
  m->reader_feature_flags |= kFlagStableRowIds;  // read back by ApplyFeatureFlags
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
  LND_ASSIGN_OR_RETURN(Draft d, StartDraft(t, c));
  LND_RETURN_NOT_OK(std::visit([&](const auto& o) { return Apply(o, t, c, &d); }, t.operation));
  Manifest& m = d.m;
  LND_RETURN_NOT_OK(SettleFragments(t, &m));
  if (m.data_format_file_format.empty()) m.data_format_file_format = "lance";
  if (m.data_format_version.empty()) m.data_format_version = DataFormatOf(m.fragments);
  m.timestamp_seconds = c.timestamp_seconds;
  m.timestamp_nanos = c.timestamp_nanos;
  m.transaction_file = c.transaction_file;
  m.writer_library = kWriterLibrary;
  m.writer_version = kWriterVersion;
  m.index_section.reset();
  m.transaction_section.reset();
  LND_RETURN_NOT_OK(SettleRowIds(t, d, &m));
  ApplyFeatureFlags(&m, !c.transaction_file.empty());
  if (!d.stable) {
    m.reader_feature_flags &= ~kFlagStableRowIds;
    m.writer_feature_flags &= ~kFlagStableRowIds;
  }
  return std::move(d.m);
}

}  // namespace lance_nd::table::internal
