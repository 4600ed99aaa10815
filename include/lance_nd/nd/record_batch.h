// NdRecordBatch: named nd arrays on one shared target grid, plus global attributes
// (the model of an xarray Dataset). Broadcasting aligns axes by NAME, never by position.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/dimensions.h"
#include "lance_nd/nd/nd_array.h"

namespace lance_nd::nd {

/// \brief OK when an array with dimensions `from` broadcasts onto `target`: every axis of
/// `from` is an axis of `target` (matched by name, in any order) with the same size or size 1.
/// Errors are InvalidArgument "shape mismatch: ...".
LANCE_ND_EXPORT Status CheckBroadcast(const Dimensions& from, const Dimensions& target);

/// \brief The grid the columns share: the first column of the highest rank sets the axis
/// order; axes found only in other (lower-rank) columns are appended in the order they are
/// met; a size-1 axis takes the size another column gives it. Two sizes other than 1 for one
/// axis are a "shape mismatch". No columns (or only scalars) give rank 0. `names`, when given,
/// names the columns in messages.
LANCE_ND_EXPORT Result<Dimensions> InferTarget(std::span<const NdArrowArray> columns,
                                               std::span<const std::string> names = {});

/// \brief `array` materialised on `target` (target axis order; values repeated along axes the
/// array lacks or has with size 1). Attributes are kept.
LANCE_ND_EXPORT Result<NdArrowArray> Broadcast(const NdArrowArray& array, const Dimensions& target);

/// \brief Named arrays over subsets of one target grid, stored un-broadcast, plus global
/// (batch-level) attributes. The logical schema has one field per column, typed by the
/// column's value type; its field and schema metadata are carried through encoding.
class LANCE_ND_EXPORT NdRecordBatch {
 public:
  /// \brief No columns, a scalar target, no attributes.
  NdRecordBatch();

  /// \brief Checks: the schema has one field per column with a non-empty unique name and the
  /// column's value type (else SchemaMismatch / InvalidArgument), and every column
  /// broadcasts onto `target` (else "shape mismatch").
  static Result<NdRecordBatch> Make(array::SchemaPtr schema, std::vector<NdArrowArray> columns,
                                    Dimensions target, Attributes attributes = {});
  /// \brief As Make, with the target inferred by InferTarget.
  static Result<NdRecordBatch> MakeInferred(array::SchemaPtr schema,
                                            std::vector<NdArrowArray> columns,
                                            Attributes attributes = {});
  /// \brief As MakeInferred, with a schema of nullable fields named by `arrays` (no metadata).
  static Result<NdRecordBatch> FromArrays(std::vector<std::pair<std::string, NdArrowArray>> arrays,
                                          Attributes attributes = {});

  const array::SchemaPtr& schema() const { return schema_; }
  const std::vector<NdArrowArray>& columns() const { return columns_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// \brief Column `i`; throws std::out_of_range when out of range (as vector::at).
  const NdArrowArray& column(int i) const { return columns_.at(static_cast<std::size_t>(i)); }
  const std::string& column_name(int i) const { return schema_->field(i)->name(); }
  /// \brief Index of the column called `name`, or -1.
  int ColumnIndex(std::string_view name) const { return schema_->FieldIndex(name); }
  /// \brief The column called `name`, or nullptr.
  const NdArrowArray* GetColumn(std::string_view name) const;
  const Dimensions& target() const { return target_; }
  const Attributes& attributes() const { return attributes_; }
  Attributes& mutable_attributes() { return attributes_; }
  NdRecordBatch WithAttributes(Attributes attributes) const;

  /// \brief Column `i` broadcast onto the target grid.
  Result<NdArrowArray> BroadcastColumn(int i) const;

  /// \brief Dataset equality (as xarray): the same column names, each with an equal logical
  /// field (name, type, metadata; not nullability) and an equal array; the same target axes
  /// and sizes; equal global attributes and schema metadata. Column order and target axis
  /// order are not compared: the encoding keeps neither for rows that differ in them.
  bool Equals(const NdRecordBatch& other) const;
  bool operator==(const NdRecordBatch& other) const { return Equals(other); }
  std::string ToString() const;

 private:
  /// Make, with the per-array broadcast check left out when the target was inferred from the
  /// arrays (each broadcasts onto it by construction).
  static Result<NdRecordBatch> MakeChecked(array::SchemaPtr schema,
                                           std::vector<NdArrowArray> columns, Dimensions target,
                                           Attributes attributes, bool check_shapes);
  NdRecordBatch(array::SchemaPtr schema, std::vector<NdArrowArray> columns, Dimensions target,
                Attributes attributes)
      : schema_(std::move(schema)),
        columns_(std::move(columns)),
        target_(std::move(target)),
        attributes_(std::move(attributes)) {}

  array::SchemaPtr schema_;
  std::vector<NdArrowArray> columns_;
  Dimensions target_;
  Attributes attributes_;
};

}  // namespace lance_nd::nd
