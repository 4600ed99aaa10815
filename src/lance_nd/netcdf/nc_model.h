// The structure of a netCDF file as the import sees it: one NcGroup (a dataset) per group, with
// its dimensions, variables and attributes, read without reading any data.
#pragma once

#include <netcdf.h>

#include <cstddef>
#include <string>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd::netcdf::internal {

struct NcVariable {
  std::string name;
  int varid = -1;
  nc_type type = NC_NAT;
  /// Indices into the group's layout dimensions, in the variable's order (for a char variable
  /// the last one is its character dimension).
  std::vector<std::size_t> dims;
  bool is_char = false;
  /// The netCDF attributes, plus the char marker for a char variable.
  nd::Attributes attributes;
  /// The netCDF-4 chunk shape (one size per entry of `dims`); empty when the variable is not
  /// chunked (contiguous or compact storage, classic files).
  std::vector<std::size_t> storage_chunks;
  /// Bytes of one value uncompressed (a char, a number; a string counts its pointer).
  std::size_t value_bytes = 0;

  /// \brief The dimensions of the nd array (all but the character dimension).
  std::size_t array_rank() const {
    return is_char && !dims.empty() ? dims.size() - 1 : dims.size();
  }
};

struct NcGroup {
  int ncid = -1;
  std::string path;      // "" for the root group, else "a/b"
  DatasetLayout layout;  // id left empty; every dimension a variable of the group uses
  std::vector<NcVariable> variables;
  nd::Attributes attributes;  // the group's attributes, renamed for the table
};

/// \brief Every group of the open file `ncid`, the root first, then depth first in file order.
/// NotImplemented (naming the variable) for user-defined types.
Result<std::vector<NcGroup>> ReadStructure(int ncid);

/// \brief Read the last element of every variable, so that a truncated file fails here rather
/// than halfway through writing its rows.
Status ProbeData(const NcGroup& group);

/// \brief Read every value of every string variable. netCDF-4 keeps strings in HDF5's global
/// heap, whose damage libhdf5 does not detect: run in a child process first (child_guard.h).
Status ReadEveryString(const NcGroup& group);

/// \brief For classic, 64-bit offset and CDF-5 files: IOError when the file at `path` is
/// shorter than its variables' data (libnetcdf reads zeros past the end of a truncated file).
/// The header's size is not counted, so a cut shorter than the header can pass.
Status CheckClassicLength(int ncid, const std::string& path, const NcGroup& root);

}  // namespace lance_nd::netcdf::internal
