// A netCDF-4 file being written: nested groups, dimensions (a group reuses an ancestor's
// dimension of the same name, size and kind, as netCDF-4 groups inherit dimensions), and the
// datasets written into them hyperslab by hyperslab.
#pragma once

#include <netcdf.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"
#include "lance_nd/nd/nd_array.h"
#include "lance_nd/netcdf/nc_util.h"

namespace lance_nd::netcdf::internal {

struct DimSpec {
  std::string name;
  std::uint64_t size = 0;
  bool unlimited = false;
};

class NcOutput;

/// \brief One dataset (group) of the output: its dimensions and the variables defined so far.
class DatasetOutput {
 public:
  /// \brief Write `array` as (part of) variable `name`, its first element at `offsets` (by
  /// dimension name; absent names start at 0). The variable is defined from the first array
  /// written to it: type, dimensions, attributes (the char marker undone), fill value.
  Status Put(const std::string& name, const nd::NdArrowArray& array,
             const std::map<std::string, std::uint64_t, std::less<>>& offsets);

 private:
  friend class NcOutput;
  struct Variable {
    int varid = -1;
    nc_type type = NC_NAT;
    std::vector<std::string> dims;  // the nd array's dimensions (no char dimension)
    std::size_t char_len = 0;       // NC_CHAR: the length of the character dimension
    bool has_char_dim = false;      // NC_CHAR but not a char scalar
  };
  struct DimDef {
    int dimid = -1;
    std::uint64_t size = 0;
    bool unlimited = false;
  };
  Result<Variable*> Define(const std::string& name, const nd::NdArrowArray& array);
  Status DefineAttributes(const Variable& var, const nd::Attributes& attributes);
  Status Write(const Variable& var, const nd::NdArrowArray& array,
               const std::vector<std::size_t>& start, const std::vector<std::size_t>& count);
  int ncid_ = -1;
  std::map<std::string, DimDef, std::less<>> dims_;
  std::map<std::string, Variable, std::less<>> variables_;
};

/// \brief The output file. Datasets are owned by it and live as long as it does.
class NcOutput {
 public:
  /// \brief A new netCDF-4 file at `path` (replacing one there).
  static Result<NcOutput> Create(const std::string& path);
  /// \brief Start the dataset of group `group_path` ("" = the root, "a/b" nested; missing
  /// groups are made): define its dimensions and global attributes.
  Result<DatasetOutput*> Begin(const std::string& group_path, const std::vector<DimSpec>& dims,
                               const nd::Attributes& globals);
  /// \brief Make group `group_path` (and its parents) now, so groups keep their order.
  Result<int> Group(const std::string& group_path);
  /// \brief Close the file, reporting netCDF's error.
  Status Close() { return file_.Close(); }

 private:
  explicit NcOutput(NcFile file) : file_(std::move(file)) {}
  /// \brief The id of the dimension like `spec` of the nearest ancestor (paths root first)
  /// that has one of its name, when that one has the same size and kind; else -1.
  int InheritedDim(const std::vector<std::string>& ancestors, const DimSpec& spec) const;
  NcFile file_;
  std::map<std::string, int> groups_;  // path -> ncid
  std::map<int, std::string> paths_;   // ncid -> path
  std::map<std::string, std::unique_ptr<DatasetOutput>> datasets_;
};

}  // namespace lance_nd::netcdf::internal
