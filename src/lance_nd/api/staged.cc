// Staged (distributed) writes: StageRows writes data files without committing; CommitStaged
// merges the staged schemas with the table's, maps each staged data file's field ids to the
// final ones (data files name their columns by id, so this changes metadata only) and commits
// every staged fragment in one version.
#include "lance_nd/api/staged.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lance_nd/api/casting.h"
#include "lance_nd/api/staged_set.h"
#include "lance_nd/nd/encoded_schema.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/write.h"

namespace lance_nd {
namespace internal {
/// The stats columns of the table schema `table` computed from `rows` and added to `encoded`
/// (the rows encoded without them), as the write side computes them (api/stats.h).
Result<array::RecordBatchPtr> WithStatsColumns(const array::RecordBatch& encoded,
                                               std::span<const nd::NdRecordBatch> rows,
                                               const array::SchemaPtr& table);
}  // namespace internal

namespace {

using api::internal::StagedSet;

// ---- staging

// `rows` cast to the table's types. A stage cannot widen the table (it commits nothing), so a
// cast that would is refused with what to do instead.
Result<std::vector<nd::NdRecordBatch>> CastRows(std::span<const nd::NdRecordBatch> rows,
                                                const array::Schema& table_schema,
                                                Casting casting) {
  std::vector<nd::NdRecordBatch> out;
  out.reserve(rows.size());
  for (const nd::NdRecordBatch& row : rows) {
    LND_ASSIGN_OR_RETURN(auto cast, api::internal::CastRowForTable(row, table_schema, casting));
    if (!cast.widenings.empty()) {
      const auto& w = cast.widenings.front();
      return Status::SchemaMismatch("cannot stage rows that need the table's variable '",
                                    w.variable, "' widened from ", w.from->ToString(), " to ",
                                    w.to->ToString(), " (casting='promote'): a stage commits ",
                                    "nothing; widen the table first (Table::Widen), then stage")
          .WithKind(ErrorKind::kCastRejected);
    }
    out.push_back(std::move(cast.row));
  }
  return out;
}

// The schema of a new table before any row: the format marker and, with stats, the stats marker.
array::SchemaPtr NewTableSchema(bool stats) {
  array::Metadata metadata;
  metadata.Set(std::string(nd::kFormatMetadataKey), std::string(nd::kFormatVersion));
  if (stats) {
    metadata.Set(std::string(nd::kStatsMetadataKey), std::string(nd::kStatsMetadataValue));
  }
  return array::MakeSchema({}, std::move(metadata));
}

// The rows' encoded schema plus, with stats, a stats column per variable of a stats type.
array::SchemaPtr WithStatsFields(const array::Schema& encoded, bool stats) {
  std::vector<array::FieldPtr> fields = encoded.fields();
  if (stats) {
    for (const auto& f : encoded.fields()) {
      if (!nd::IsNdField(*f)) continue;
      auto layout = nd::ParseNdField(*f);
      if (layout.ok() && nd::HasStatsType(*layout->value_field->type())) {
        fields.push_back(nd::StatsField(f->name(), layout->value_field->type()));
      }
    }
  }
  return array::MakeSchema(std::move(fields), encoded.metadata());
}

// The fields of `merged` the staged rows have: their variables (with the table's full attrs),
// the global attributes when the rows have some, and those variables' stats columns.
array::SchemaPtr ProjectToRows(const array::Schema& merged, const array::Schema& encoded) {
  std::vector<array::FieldPtr> fields;
  for (const auto& f : merged.fields()) {
    const auto stats_of = nd::StatsVariable(f->name());
    const std::string_view name = stats_of ? *stats_of : std::string_view(f->name());
    const bool global = nd::IsGlobalAttributesField(*f) && encoded.num_fields() > 0 &&
                        nd::IsGlobalAttributesField(*encoded.fields().back());
    if (global || encoded.FieldIndex(name) >= 0) fields.push_back(f);
  }
  return array::MakeSchema(std::move(fields), merged.metadata());
}

bool HasStatsColumns(const array::Schema& schema) {
  for (const auto& f : schema.fields()) {
    if (nd::StatsVariable(f->name())) return true;
  }
  return false;
}

Result<array::RecordBatchPtr> EncodeStaged(std::span<const nd::NdRecordBatch> rows,
                                           const array::SchemaPtr& schema) {
  LND_ASSIGN_OR_RETURN(auto encoded, nd::EncodeRowsAs(rows, *schema));
  if (!HasStatsColumns(*schema)) return encoded;
  return lance_nd::internal::WithStatsColumns(*encoded, rows, schema);
}

}  // namespace

StagedFragments::StagedFragments() : json_(api::internal::StagedSetToJson({})) {}

std::string StagedFragments::ToJson() const { return json_; }

Result<StagedFragments> StagedFragments::FromJson(std::string_view json) {
  LND_ASSIGN_OR_RETURN(auto set, api::internal::StagedSetFromJson(json));
  StagedFragments staged;
  staged.json_ = api::internal::StagedSetToJson(set);
  return staged;
}

std::uint64_t StagedFragments::num_rows() const {
  const auto doc = nlohmann::json::parse(json_, nullptr, /*allow_exceptions=*/false);
  const auto it = doc.find("num_rows");
  return it != doc.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

std::size_t StagedFragments::num_fragments() const {
  const auto doc = nlohmann::json::parse(json_, nullptr, /*allow_exceptions=*/false);
  const auto it = doc.find("fragments");
  return it != doc.end() && it->is_array() ? it->size() : 0;
}

Result<StagedFragments> StageRows(std::string_view uri, std::span<const nd::NdRecordBatch> rows,
                                  const WriteOptions& options) {
  if (rows.empty()) return Status::InvalidArgument("StageRows: no rows to stage");
  const table::TableLocation location = ResolveLocation(uri, options.file_system);
  LND_ASSIGN_OR_RETURN(auto latest, api::internal::OpenLatestIfAny(location));
  if (latest && options.mode == WriteMode::kCreate) {
    return api::internal::TableExistsError(location);
  }
  // An overwrite replaces the table: its rows are staged as for a new table.
  const bool against_table = latest && options.mode != WriteMode::kOverwrite;
  std::vector<nd::NdRecordBatch> cast;
  if (against_table) {
    LND_ASSIGN_OR_RETURN(cast, CastRows(rows, *latest->schema(), options.casting));
    rows = cast;
  }
  const bool stats = against_table ? HasStats(*latest->schema()) : options.stats;
  const array::SchemaPtr base = against_table ? latest->schema() : NewTableSchema(stats);

  LND_ASSIGN_OR_RETURN(auto encoded, nd::EncodeRows(rows));
  const auto incoming = WithStatsFields(*encoded->schema(), stats);
  LND_ASSIGN_OR_RETURN(auto merged, nd::MergeEncodedSchema(*base, *incoming));
  const array::SchemaPtr schema = ProjectToRows(*merged, *encoded->schema());
  LND_ASSIGN_OR_RETURN(auto batch, EncodeStaged(rows, schema));

  StagedSet set;
  set.read_version = against_table ? latest->version() : 0;
  set.num_rows = rows.size();
  set.schema_metadata = schema->metadata();
  LND_ASSIGN_OR_RETURN(set.fields, table::FieldsFromSchema(*schema));
  table::WriteOptions write;
  write.mode = table::WriteMode::kAppend;
  write.max_bytes_per_file = static_cast<std::int64_t>(options.target_fragment_bytes);
  if (latest) {
    LND_ASSIGN_OR_RETURN(write.file_options.version, table::TableFileVersion(latest->manifest()));
  }
  const array::RecordBatchPtr batches[] = {batch};
  LND_ASSIGN_OR_RETURN(set.fragments, table::WriteFragments(location, set.fields, batches, write));
  StagedFragments staged;
  staged.json_ = api::internal::StagedSetToJson(set);
  return staged;
}

}  // namespace lance_nd
