// Reading one hyperslab of a netCDF variable as an Arrow array.
#pragma once

#include <cstddef>
#include <vector>

#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/netcdf/nc_model.h"

namespace lance_nd::netcdf::internal {

/// \brief The values of `var` in [start, start + count) (one entry per netCDF dimension), in C
/// order. Numbers equal to the variable's _FillValue or to one of its missing_value entries
/// are null (NaN matches a NaN fill value); so are strings equal to a string variable's
/// _FillValue or missing_value. A char variable gives one utf8 string per position
/// of all its dimensions but the last, trailing NULs trimmed.
Result<array::ArrayPtr> ReadSlab(int ncid, const NcVariable& var,
                                 const std::vector<std::size_t>& start,
                                 const std::vector<std::size_t>& count);

}  // namespace lance_nd::netcdf::internal
