// The commits of a write (docs/FORMAT.md "Schema evolution"): a new or replaced table is one
// Overwrite with the merged schema; an append first commits a grown schema as a metadata-only
// Merge (old fragments read the new fields as null), then the fragments as a plain Append.
#pragma once

#include <optional>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::internal {

struct WriteCommit {
  table::TableLocation location;
  /// The version the write was planned on (nullopt: no table was there).
  std::optional<table::Dataset> base;
  /// True: an Overwrite (create or replace); false: an append to `base`.
  bool replace = false;
  /// A create (WriteMode::kCreate): losing the race to another creator is TableExists.
  bool create_only = false;
  std::vector<table::LanceField> fields;
  array::Metadata schema_metadata;
  /// Append only: whether `fields` / `schema_metadata` differ from the base's.
  bool schema_grew = false;
  std::vector<table::Fragment> fragments;
};

/// \brief Commit `c`. A create that finds a table committed meanwhile is TableExists; an append
/// whose base schema changed meanwhile is CommitConflict (nothing committed).
Result<table::Dataset> CommitWrite(const WriteCommit& c);

}  // namespace lance_nd::internal
