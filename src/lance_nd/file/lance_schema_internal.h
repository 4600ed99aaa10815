// Conversion between the Lance schema (lance.file.Schema: fields in pre-order with ids and
// parent ids, logical type strings) and array::Schema, plus the field tree the reader uses to
// map leaf fields to columns. The proto-level parts are private to the file layer (the writer
// uses them too); the public, proto-free API is include/lance_nd/file/lance_schema.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/file/lance_schema.h"  // the public part (include/)

namespace lance::file {
class Schema;
class Field;
}  // namespace lance::file

namespace lance_nd::file::internal {

/// \brief One field of the file schema with its Lance id and, for leaves, its column index.
struct FieldNode {
  int32_t id = 0;
  int32_t parent_id = -1;
  std::string logical_type;
  array::FieldPtr field;            // the Arrow field (with its full nested type)
  std::vector<FieldNode> children;  // struct / list children (not FSL items)
  int column = -1;                  // column index for leaves, else -1
  Status unsupported;               // not OK for a field lance-nd cannot read (a null leaf)
  bool is_leaf() const { return column >= 0; }
};

/// \brief The whole schema as a tree plus the Arrow schema.
struct SchemaTree {
  array::SchemaPtr schema;
  std::vector<FieldNode> fields;  // top-level fields
  int num_columns = 0;
};

/// \brief The Lance logical type string of a (non-nested part of a) type: "int32", "float",
/// "string", "timestamp:us:UTC", "fixed_size_list:float:128", "struct", "list", "list.struct"...
/// Unsupported types are NotImplemented.
Result<std::string> LogicalTypeName(const array::DataType& type);

/// \brief Parse a Lance schema (fields in pre-order; tree rebuilt from id/parent_id). Leaves get
/// column indices in pre-order. Errors are Corrupt (bad tree) or NotImplemented (unsupported
/// logical type), naming the field.
Result<SchemaTree> SchemaFromProto(const lance::file::Schema& proto);

/// \brief Build a Lance schema from an Arrow schema; ids are assigned in pre-order starting at
/// `first_id` (list items are named as in the Arrow type; FSL items are not Lance fields).
Status SchemaToProto(const array::Schema& schema, lance::file::Schema* out, int32_t first_id = 0);

/// \brief Number of leaf columns a field produces (FSL of primitives is one leaf).
int CountLeafColumns(const array::DataType& type);

}  // namespace lance_nd::file::internal
