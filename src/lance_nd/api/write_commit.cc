// CommitWrite: Overwrite for a new table, schema Merge + Append for an existing one.
#include "lance_nd/api/write_commit.h"

#include <utility>

#include "lance_nd/api/table_errors.h"
#include "lance_nd/table/commit.h"

namespace lance_nd::internal {
namespace {

Result<table::Dataset> CommitReplace(const WriteCommit& c) {
  table::Transaction txn;
  txn.read_version = c.base ? c.base->version() : 0;
  txn.operation = table::op::Overwrite{c.fragments, c.fields, c.schema_metadata, {}};
  auto ds = table::CommitTransaction(c.location, std::move(txn));
  // Another writer created the table after this one found none.
  const bool lost_create =
      !c.base && (ds.status().IsAlreadyExists() || ds.status().IsCommitConflict());
  if (lost_create && c.create_only) return TableExists(c.location);
  return ds;
}

// The metadata-only schema change, on the latest version; refused when another writer changed
// the schema since the write began (the fields' ids would no longer be ours to give).
Result<table::Dataset> CommitSchema(const WriteCommit& c) {
  LND_ASSIGN_OR_RETURN(table::Dataset latest, table::Dataset::Open(c.location));
  const table::Manifest& m = latest.manifest();
  if (m.fields != c.base->manifest().fields) {
    return Status::CommitConflict("the schema of the table at ", c.location.root(),
                                  " changed (version ", latest.version(),
                                  ") while this write was extending it from version ",
                                  c.base->version(), "; write the rows again")
        .WithRetryable();
  }
  table::Transaction txn;
  txn.read_version = latest.version();
  txn.operation = table::op::Merge{m.fragments, c.fields, c.schema_metadata};
  return table::CommitTransaction(c.location, std::move(txn));
}

}  // namespace

Result<table::Dataset> CommitWrite(const WriteCommit& c) {
  if (c.replace) return CommitReplace(c);
  std::uint64_t read_version = c.base->version();
  std::optional<table::Dataset> extended;
  if (c.schema_grew) {
    LND_ASSIGN_OR_RETURN(extended, CommitSchema(c));
    read_version = extended->version();
  }
  if (c.fragments.empty()) {
    if (extended) return std::move(*extended);
    return table::Dataset::Open(c.location);
  }
  table::Transaction txn;
  txn.read_version = read_version;
  txn.operation = table::op::Append{c.fragments};
  return table::CommitTransaction(c.location, std::move(txn));
}

}  // namespace lance_nd::internal
