// Table-level scan planning: the table schema as a tree of field ids and the projection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/scan.h"

namespace lance_nd::table::internal {

/// \brief One table field: its id and Arrow field, children for structs, lists and maps.
struct TableNode {
  std::int32_t id = 0;
  array::FieldPtr field;
  std::vector<TableNode> children;
  /// A struct whose children are read one by one (not packed, not empty).
  bool IsSplittableStruct() const {
    return field->type()->id() == array::TypeId::kStruct && !children.empty();
  }
};

/// \brief One projected field. Splittable structs always list their projected children; every
/// other node (a "unit") is read whole from one data file.
struct ProjNode {
  const TableNode* node = nullptr;
  std::vector<ProjNode> children;
  array::FieldPtr out_field;
};

struct ScanPlan {
  std::vector<TableNode> roots;
  std::vector<ProjNode> columns;
  bool with_row_address = false;
  bool with_row_id = false;
  array::SchemaPtr schema;  // output schema
};

Result<std::shared_ptr<const ScanPlan>> MakeScanPlan(const Dataset& ds,
                                                     const TableScanOptions& options);

}  // namespace lance_nd::table::internal
