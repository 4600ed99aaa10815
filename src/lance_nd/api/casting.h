// Casting incoming rows to a table's types (WriteOptions::casting): which type differences each
// mode accepts, numpy-style type promotion, and the cast of one nd row to the table's value and
// attribute types. Pure functions: nothing here reads or writes a table.
//
// casting.cc also defines CastingName and ParseCasting (api/options.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lance_nd/api/options.h"
#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::api::internal {

/// \brief Whether a value of type `from` may be stored as `to` under `mode` (types only: a
/// kSameKind cast still checks each value). kPromote answers as kSafe here (it widens the
/// table instead, see PromoteTypes). Identical types are always accepted; a string and a number
/// never are.
bool CastAllowed(const array::DataType& from, const array::DataType& to, Casting mode);

/// \brief The smallest type that holds every value of both `a` and `b`, numpy-style: bool
/// joins any number; the wider type of one kind; unsigned N + signed M -> signed M when M > N,
/// else signed 2N (int64 + uint64 -> float64); an integer and a float -> the float wide enough
/// for the integer's bits (int8 + float16 -> float16, int16 + float16 -> float32, int32 +
/// float32 -> float64, 64-bit integers -> float64); otherwise the one of the two that can hold
/// the other (utf8 + large_utf8 -> large_utf8, date32 + date64 -> date64). nullptr when there
/// is none (a string and a number, two timestamp units, ...). The result may still fail to hold
/// 64-bit integers exactly: kPromote rejects those (see CastRowForTable).
array::DataTypePtr PromoteTypes(const array::DataTypePtr& a, const array::DataTypePtr& b);

/// \brief A variable whose table type must be widened (Table::Widen, which rewrites its column
/// and stats) before a row cast under kPromote can be written.
struct Widening {
  std::string variable;
  array::DataTypePtr from;  // the table's value type now
  array::DataTypePtr to;    // the promoted type
};

struct CastOutcome {
  /// The row with every variable value type, attribute type and global attribute type the
  /// table already has cast to the table's type (after `widenings`). Variables, attribute keys
  /// and global keys the table lacks are left as they are: they extend the schema.
  nd::NdRecordBatch row;
  /// kPromote only: the widenings the table needs BEFORE `row` can be written (empty when none),
  /// in table column order. `row` already has the widened types.
  std::vector<Widening> widenings;
};

/// \brief Cast `row` to the table whose ENCODED schema (nd columns, `__global_attrs__`, stats
/// columns) is `table_encoded_schema`, under `mode`:
///   kNo       any type difference is rejected;
///   kSafe     a cast where no value can change (float32 -> float64, uint16 -> int32, int32 ->
///             float64; not int64 -> float64, not narrowing);
///   kSameKind also within a kind or to a later kind (bool < unsigned < signed < float), never
///             float -> integer or signed -> unsigned; each value is checked (one that does not
///             fit fails, naming the variable and the value);
///   kPromote  as kSafe when the row's type fits the table's; otherwise the table is widened to
///             PromoteTypes(table, row) when that type holds every value of both exactly (a
///             Widening); otherwise rejected. Attributes and global attributes follow kSafe.
/// A string and a number are rejected in every mode. A rejection is SchemaMismatch with
/// ErrorKind::kCastRejected naming the variable (`v`, `v.attrs.key`, or `__global_attrs__.key`),
/// the table's type, the row's type, the mode, and the mode that would accept it ("use
/// casting='same_kind'") or that no mode does. A checked value that does not fit is the same
/// error, naming the value. Corrupt when the schema is not an encoded schema.
Result<CastOutcome> CastRowForTable(const nd::NdRecordBatch& row,
                                    const array::Schema& table_encoded_schema, Casting mode);

/// \brief The table's types parsed once from an encoded schema, to tell cheaply whether a row
/// needs no cast: a row whose variables, attributes and global attributes either have exactly
/// the table's types or are new to the table passes through CastRowForTable unchanged with no
/// widenings, in every mode. Build one per schema; it holds no reference to it.
class RowCastCheck {
 public:
  /// \brief A check for `table_encoded_schema`; a column that does not parse as an nd column
  /// sends every row naming it to CastRowForTable (which reports the error).
  explicit RowCastCheck(const array::Schema& table_encoded_schema);

  /// \brief True when CastRowForTable would return `row` as it is with no widenings (false
  /// only means: ask CastRowForTable).
  bool Unchanged(const nd::NdRecordBatch& row) const;

 private:
  struct Key {
    std::string name;
    array::DataTypePtr type;
  };
  // One top-level field of the table, in order (the first of a name is the one a row meets).
  struct Variable {
    std::string name;
    bool nd = false;  // false: not an nd column (a row's variable of that name is new)
    array::DataTypePtr value_type;  // nd but nullptr: the column did not parse
    std::vector<Key> attributes;
  };
  static bool KeysUnchanged(const nd::Attributes& attributes, const std::vector<Key>& table);
  const Variable* Find(std::string_view name) const;

  std::vector<Variable> variables_;
  std::vector<Key> globals_;
};

/// \brief `schema` (an encoded table schema) with each widened variable's value type, and its
/// stats column's min/max type when the column exists, replaced by the new type; field and
/// schema metadata kept. For a writer that plans the schema before the widen commit lands.
Result<array::SchemaPtr> WidenedEncodedSchema(const array::Schema& schema,
                                              const std::vector<Widening>& widenings);

}  // namespace lance_nd::api::internal
