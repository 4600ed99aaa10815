// Schema -> Lance fields (pre-order ids, logical types) and leaf columns (one per page column).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::file::internal::writer {

/// \brief One level on the way from a top-level field down to a leaf column.
struct PathNode {
  enum class Kind : std::uint8_t { kStruct, kList, kLeaf };
  Kind kind = Kind::kLeaf;
  const array::Field* field = nullptr;  // the field at this level
  int child_index = -1;                 // kStruct: the child that leads to the leaf
};

/// \brief What a leaf stores per value slot.
enum class LeafKind : std::uint8_t {
  kFixed,        // primitives, temporal, fixed_size_binary: `byte_width` bytes
  kBool,         // one bit
  kVariable,     // utf8/binary (32-bit offsets) and large forms (64-bit)
  kFixedList,    // fixed_size_list of fixed-width items (nested fsl flattened)
  kNull,         // the null type: every slot is null
  kEmptyStruct,  // a struct without children: no data at all
};

/// \brief A leaf column: one Lance column, numbered in pre-order of the leaves.
struct LeafColumn {
  int top_level_index = 0;     // index of the field in the schema / batch
  std::vector<PathNode> path;  // outer -> inner; the last node is kLeaf
  LeafKind kind = LeafKind::kFixed;
  std::int64_t byte_width = 0;         // kFixed / kFixedList: bytes per item
  std::int64_t items_per_value = 1;    // kFixedList: product of the fsl dimensions
  std::vector<std::int64_t> fsl_dims;  // kFixedList: dimensions, outermost first
  std::uint32_t bits_per_offset = 32;  // kVariable
  const array::Field* leaf_field = nullptr;
  std::int32_t field_id = 0;  // Lance field id of the leaf field
};

/// \brief One entry of the file's schema (lance.file.Field), in pre-order.
struct LanceFieldEntry {
  std::string name;
  std::int32_t id = 0;
  std::int32_t parent_id = -1;
  std::string logical_type;
  bool nullable = true;
  int encoding = 0;  // legacy lance.file.Encoding: 0 none, 1 plain, 2 var_binary
  const array::Metadata* metadata = nullptr;
};

struct SchemaPlan {
  std::vector<LanceFieldEntry> fields;  // pre-order
  std::vector<LeafColumn> leaves;       // pre-order of leaves
};

/// \brief Lance's logical type string for `type` ("int32", "list.struct",
/// "fixed_size_list:float:128", "timestamp:us:UTC", ...).
Result<std::string> LogicalTypeOf(const array::DataType& type);

/// \brief Walk the schema. `field_ids`, when not empty, gives the id of every Lance field in
/// pre-order (fixed-size lists are one field; their item has no id); otherwise ids are 0..n-1.
Result<SchemaPlan> PlanSchema(const array::Schema& schema, std::span<const std::int32_t> field_ids);

}  // namespace lance_nd::file::internal::writer
