// The content of a StagedFragments (api/staged.h) and its JSON form: what a stager wrote and
// what the coordinator needs to commit it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::api::internal {

struct StagedSet {
  /// The table version the rows were staged against; 0 when there was no table (or the stage
  /// was for an overwrite).
  std::uint64_t read_version = 0;
  std::uint64_t num_rows = 0;
  /// The encoded schema of the staged columns as Lance fields (pre-order) with the ids the data
  /// files use (stage-local: the commit maps them to the table's), and its schema metadata.
  std::vector<table::LanceField> fields;
  array::Metadata schema_metadata;
  /// The fragments written, ids 0 (numbered at commit), without deletion files.
  std::vector<table::Fragment> fragments;
};

/// \brief The JSON text of `set` (an object with "format": "lance-nd.staged", "version": 1).
std::string StagedSetToJson(const StagedSet& set);

/// \brief Parse and check JSON text made by StagedSetToJson: InvalidArgument "staged fragments
/// JSON: ..." naming the first problem (not JSON, a missing or mistyped member, another
/// format or version, a field tree that is not a schema, a data file naming an unknown field
/// id).
Result<StagedSet> StagedSetFromJson(std::string_view json);

/// \brief The Arrow schema of the staged columns.
Result<array::SchemaPtr> StagedSchema(const StagedSet& set);

/// \brief The latest version of the lance-nd table at `location`, or nullopt when there is no
/// table; InvalidTable when it is not a lance-nd table.
Result<std::optional<table::Dataset>> OpenLatestIfAny(const table::TableLocation& location);

/// \brief AlreadyExists + ErrorKind::kTableExists for WriteMode::kCreate on an existing table.
Status TableExistsError(const table::TableLocation& location);

}  // namespace lance_nd::api::internal
