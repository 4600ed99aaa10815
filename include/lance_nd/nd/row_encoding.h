// Row encoding of the lance-nd table format: one Arrow row per nd record batch.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::nd {

/// \brief Encode `rows` as one record batch with one row per nd batch (docs/FORMAT.md §3):
/// one nullable nd_arrow.array column per array name (first appearance order), a null row where
/// a batch lacks the array (with valid empty lists), `attrs` as the union of each column's keys,
/// and `__global_attrs__` last when any row has global attributes. The schema metadata is the
/// union of the rows' schema metadata.
///
/// Errors: SchemaMismatch for a reserved array name (`__global_attrs__`, `__stats__*`), an array
/// name with two value types, an attribute key with two types in one column, or conflicting
/// schema metadata; InvalidArgument "invalid attribute: ..." for an empty attribute key;
/// InvalidArgument when a column would hold more than 2^31-1 values or names.
LANCE_ND_EXPORT Result<array::RecordBatchPtr> EncodeRows(std::span<const NdRecordBatch> rows);

/// \brief Encode `rows` in exactly the `target` encoded schema (a table's schema, usually after
/// MergeEncodedSchema): the target's columns in its order, its attrs and global keys in its
/// order (keys a row lacks are null), its field metadata and its schema metadata. Stats columns
/// (`__stats__*`) of the target are left out of the result: computing them is the caller's
/// job. Errors: SchemaMismatch when a row has an array, attribute key or global key that the
/// target lacks, or a type other than the target's (metadata aside); Corrupt when `target` is
/// not an encoded schema; otherwise as EncodeRows.
LANCE_ND_EXPORT Result<array::RecordBatchPtr> EncodeRowsAs(std::span<const NdRecordBatch> rows,
                                                           const array::Schema& target);

/// \brief One array of a row without its values: what a reader needs to plan reads of it.
struct LANCE_ND_EXPORT NdArrayLayout {
  std::string name;
  Dimensions dimensions;
  array::DataTypePtr value_type;  // stripped of lance-encoding keys, as the decoded values
  Attributes attributes;
};

/// \brief A row without the values of its arrays: its arrays in table column order (those the
/// row lacks left out) and its global attributes.
struct LANCE_ND_EXPORT NdRowLayout {
  std::vector<NdArrayLayout> arrays;
  Attributes global_attributes;
};

/// \brief Decodes rows of record batches in the encoded schema back into nd record batches.
class LANCE_ND_EXPORT RowDecoder {
 public:
  /// \brief Validate `schema`: every column is an nd column (tag, version 1, storage layout),
  /// the global-attributes column (a Struct; at most one) or a `__stats__*` column (ignored).
  /// Errors are Corrupt "invalid nd encoding: ...".
  static Result<RowDecoder> Make(array::SchemaPtr schema);

  const array::SchemaPtr& schema() const { return schema_; }
  /// \brief The logical fields of the nd columns, in table order, without `lance-encoding:*`
  /// keys.
  std::vector<array::FieldPtr> Variables() const;
  bool has_global_attributes() const { return global_column_ >= 0; }

  /// \brief Decode row `row` of `batch` (which must have this decoder's schema and be valid as
  /// array::Validate checks; file readers guarantee that). Null array rows are omitted, null
  /// attribute values are omitted, the target grid is inferred. Errors: InvalidArgument for a
  /// row out of range, SchemaMismatch for a batch of another schema, Corrupt "invalid nd
  /// encoding: column 'c' row r: ..." for data that breaks the per-row rules.
  Result<NdRecordBatch> DecodeRow(const array::RecordBatch& batch, int64_t row) const;

  /// \brief The checks DecodeRow makes of the whole batch (its columns against this decoder's
  /// schema), made once for many rows decoded with DecodeCheckedRow.
  Status CheckBatch(const array::RecordBatch& batch) const;
  /// \brief DecodeRow of a batch that passed CheckBatch (the row is still range-checked).
  Result<NdRecordBatch> DecodeCheckedRow(const array::RecordBatch& batch, int64_t row) const;

  /// \brief Every check DecodeAll makes of `batch` (Arrow validity, the per-row rules of
  /// docs/FORMAT.md §2.3, the row's arrays sharing one grid), without building rows: for
  /// writers that take encoded rows as they are. Errors are those of DecodeAll.
  Status ValidateRows(const array::RecordBatch& batch) const;

  /// \brief Validate `batch` fully (array::Validate; errors become Corrupt), then decode every
  /// row in order.
  Result<std::vector<NdRecordBatch>> DecodeAll(const array::RecordBatch& batch) const;

  /// \brief The column paths a row layout is read from: `<v>.dim_names`, `<v>.dim_sizes` and
  /// `<v>.attrs` (where the column has attributes) of every nd column, and the
  /// global-attributes column. Values are not among them, except for a column whose name holds
  /// a '.', which no dotted path can name: it is listed whole.
  std::vector<std::string> LayoutProjection() const;

  /// \brief The layout of row `row` of `batch`, a batch read with LayoutProjection(): its
  /// columns are found by name, each nd column a struct of the projected children. Errors:
  /// InvalidArgument for a row out of range, SchemaMismatch for a column or child missing or
  /// of another type, Corrupt "invalid nd encoding: ..." as DecodeRow for dimensions and
  /// attributes.
  Result<NdRowLayout> DecodeRowLayout(const array::RecordBatch& batch, int64_t row) const;

  /// Attribute fields, shared with the rows whose attributes are decoded when first read.
  using FieldList = std::shared_ptr<const std::vector<array::FieldPtr>>;

 private:
  struct Column {
    int index = 0;
    array::FieldPtr logical;                  // stripped of lance-encoding keys
    FieldList attribute_fields = NoFields();  // stripped; empty when none
    bool has_attrs_child = false;
  };

  RowDecoder() = default;
  static FieldList NoFields() { return std::make_shared<const std::vector<array::FieldPtr>>(); }

  array::SchemaPtr schema_;
  array::Metadata logical_metadata_;
  array::SchemaPtr all_variables_;  // the logical schema of a row holding every variable
  std::vector<Column> columns_;
  int global_column_ = -1;
  FieldList global_fields_ = NoFields();
};

}  // namespace lance_nd::nd
