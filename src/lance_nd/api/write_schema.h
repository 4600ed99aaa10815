// The table schema a write builds up: the encoded (Arrow) schema rows are encoded against and
// the Lance fields with the ids their data files use. New variables, attribute keys, global keys
// and schema-metadata keys extend it (docs/FORMAT.md "Schema evolution"); existing fields keep
// their ids, so fragments written before and after a change agree.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/api/options.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/manifest.h"

namespace lance_nd::internal {

/// \brief How new columns are laid out: stats columns on or off, encoding defaults and options.
struct ColumnRules {
  bool stats = false;
  std::optional<ColumnOptions> defaults;
  std::map<std::string, ColumnOptions, std::less<>> per_column;
};

class WriteSchema {
 public:
  /// \brief The empty schema of a new table: only schema metadata (format marker, stats marker,
  /// column defaults).
  static WriteSchema ForNewTable(array::Metadata metadata, ColumnRules rules);
  /// \brief The schema of `ds`'s version.
  static WriteSchema ForTable(const table::Dataset& ds, ColumnRules rules);

  /// \brief True when every variable, attribute key, global key and schema-metadata key of
  /// `row` is in the schema (types are not compared: encoding checks them).
  bool Covers(const nd::NdRecordBatch& row) const;
  /// \brief Add what `rows` bring (new fields after the existing ones, each new variable with
  /// its stats column; new attribute and global keys as new struct children). SchemaMismatch
  /// for a type that differs from the table's.
  Status Extend(std::span<const nd::NdRecordBatch> rows);
  /// \brief As Extend, for rows encoded in `incoming` (an encoded schema; its `__stats__*`
  /// columns must match the table's where both have them).
  Status ExtendEncoded(const array::Schema& incoming);

  const array::SchemaPtr& schema() const { return schema_; }
  const std::vector<table::LanceField>& fields() const { return fields_; }
  /// \brief Increases with each Extend that changed the schema.
  std::uint64_t generation() const { return generation_; }
  /// \brief True when nothing has been added since this schema was made.
  bool unchanged() const { return generation_ == 0; }

 private:
  WriteSchema(std::vector<table::LanceField> fields, array::SchemaPtr schema, std::int32_t next_id,
              ColumnRules rules);
  void Index();
  Result<array::SchemaPtr> Wanted(const array::Schema& merged) const;

  std::vector<table::LanceField> fields_;
  array::SchemaPtr schema_;
  std::int32_t next_id_ = 0;
  ColumnRules rules_;
  std::uint64_t generation_ = 0;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> attribute_keys_;
  std::set<std::string, std::less<>> global_keys_;
};

}  // namespace lance_nd::internal
