// JSON Lines for nd record batches: one batch per line, the text form of the lance-nd command
// line (docs/cli.md has the full contract).
//
//   {"global_attrs": {KEY: TV, ...},
//    "arrays": {NAME: {"dtype": T, "dim_names": [...], "dim_sizes": [...], "values": [...],
//                      "attrs": {KEY: TV, ...}}, ...}}
//
// A typed value TV is {"dtype": T, "value": V}. Values are flat, in C order; null is a null
// element; non-finite floats are the strings "NaN", "Infinity" and "-Infinity"; binary values
// are base64; 64-bit integers are exact JSON integers.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"
#include "lance_nd/export.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd {

/// \brief The dtype names of JSON Lines, for messages: "bool, int8, ..., list<T>".
LANCE_ND_EXPORT std::string_view JsonDtypeNames();

/// \brief The JSON Lines name of `type` ("float32", "timestamp[ns, tz=UTC]", "list<int16>").
/// NotImplemented (ErrorKind::kNotSupported) for a type JSON Lines has no name for.
LANCE_ND_EXPORT Result<std::string> JsonDtypeName(const array::DataType& type);

/// \brief The type a JSON Lines dtype name stands for; InvalidArgument "unknown dtype '...'
/// (expected one of ...)" otherwise.
LANCE_ND_EXPORT Result<array::DataTypePtr> ParseJsonDtype(std::string_view name);

/// \brief `row` as one JSON line (no newline): arrays in the row's column order, typed
/// attribute values, no "global_attrs" / "attrs" key where there are none.
LANCE_ND_EXPORT Result<std::string> EncodeJsonLine(const nd::NdRecordBatch& row);

/// \brief One nd array as JSON Lines writes it inside "arrays" (no newline):
/// {"dtype": T, "dim_names": [...], "dim_sizes": [...], "values": [...], "attrs": {...}},
/// "attrs" left out when there are none.
LANCE_ND_EXPORT Result<std::string> EncodeJsonArray(const nd::NdArrowArray& array);

/// \brief One JSON line as an nd record batch. Attributes may also be bare JSON values
/// (string -> utf8, integer -> int64, other number -> float64, bool -> bool, array -> list of
/// those). Variable names reserved by the table format (__global_attrs__, __stats__*) are
/// refused. Errors are InvalidArgument saying what is wrong and where ("at
/// arrays["t"].values[3]").
LANCE_ND_EXPORT Result<nd::NdRecordBatch> DecodeJsonLine(std::string_view line);

/// \brief Decodes a stream of JSON lines one row at a time. Blank lines are skipped; errors are
/// prefixed "line N: " (lines counted from 1).
class LANCE_ND_EXPORT JsonLinesReader {
 public:
  explicit JsonLinesReader(std::istream& in) : in_(&in) {}
  /// \brief The next row, or nullopt at the end of the stream.
  Result<std::optional<nd::NdRecordBatch>> Next();
  /// \brief The number of the line last read (0 before the first).
  std::uint64_t line_number() const { return line_number_; }

 private:
  std::istream* in_;
  std::uint64_t line_number_ = 0;
};

}  // namespace lance_nd
