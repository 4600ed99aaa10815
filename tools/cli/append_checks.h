// Checks `lance-nd append` runs on every row before writing it, so that a type the table (or an
// earlier line) does not accept is reported with its line number and nothing is committed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "lance_nd/api/options.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::cli {

class RowTypeChecker {
 public:
  /// \brief Types known from `table` (none for a table still to be created).
  RowTypeChecker(const Table* table, Casting casting);

  /// \brief OK when every variable and attribute type of `row` is the known one or one the
  /// casting mode accepts for it (under same_kind the values are cast to check they fit).
  /// Types seen first in this row become known, with `line` as their origin.
  Status Check(const nd::NdRecordBatch& row, std::uint64_t line);

 private:
  struct Known {
    array::DataTypePtr type;
    std::uint64_t line = 0;  // 0: the table's type
  };
  Status CheckType(const std::string& key, const std::string& label, const array::ArrayPtr& values,
                   bool is_attribute, std::uint64_t line,
                   std::map<std::string, Known, std::less<>>& known);
  Status CheckAttributes(const std::string& owner, const nd::Attributes& attributes,
                         std::uint64_t line);

  Casting casting_;
  std::map<std::string, Known, std::less<>> variables_;
  // Keyed by "<variable>\n<key>", and "\n<key>" for global attributes.
  std::map<std::string, Known, std::less<>> attributes_;
};

}  // namespace lance_nd::cli
