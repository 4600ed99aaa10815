// netCDF attributes <-> nd attributes (docs/netcdf.md "Types"): text -> utf8, one string ->
// utf8, several strings -> list<utf8>, one number -> a typed scalar, several -> list<T>.
#pragma once

#include <string>

#include "lance_nd/core/result.h"
#include "lance_nd/nd/attributes.h"

namespace lance_nd::netcdf::internal {

/// \brief Every attribute of variable `varid` (NC_GLOBAL: of the group) in file order.
Result<nd::Attributes> ReadAttributes(int ncid, int varid);

/// \brief Write `attributes` to variable `varid` (NC_GLOBAL: the group). NotImplemented naming
/// the key for a value type netCDF cannot hold.
Status WriteAttributes(int ncid, int varid, const nd::Attributes& attributes);

/// \brief Write one attribute as the reverse of ReadAttributes.
Status WriteAttribute(int ncid, int varid, const std::string& key, const array::ArrayData& value);

}  // namespace lance_nd::netcdf::internal
