// netCDF attributes <-> nd attributes (docs/netcdf.md "Types"): text -> utf8, one string ->
// utf8, several strings -> list<utf8>, one number -> a typed scalar, several -> list<T>.
#pragma once

#include <netcdf.h>

#include <cstdint>
#include <string>
#include <type_traits>

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

/// \brief nc_get_att converting to T (as libnetcdf converts); false when the attribute is
/// absent or a value does not fit T.
template <typename T>
bool GetAttributeAs(int ncid, int varid, const char* name, T* out) {
  if constexpr (std::is_same_v<T, std::int8_t>) {
    return nc_get_att_schar(ncid, varid, name, reinterpret_cast<signed char*>(out)) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::uint8_t>) {
    return nc_get_att_uchar(ncid, varid, name, out) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::int16_t>) {
    return nc_get_att_short(ncid, varid, name, out) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::uint16_t>) {
    return nc_get_att_ushort(ncid, varid, name, out) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return nc_get_att_int(ncid, varid, name, out) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return nc_get_att_uint(ncid, varid, name, out) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return nc_get_att_longlong(ncid, varid, name, reinterpret_cast<long long*>(out)) == NC_NOERR;
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return nc_get_att_ulonglong(ncid, varid, name, reinterpret_cast<unsigned long long*>(out)) ==
           NC_NOERR;
  } else if constexpr (std::is_same_v<T, float>) {
    return nc_get_att_float(ncid, varid, name, out) == NC_NOERR;
  } else {
    return nc_get_att_double(ncid, varid, name, out) == NC_NOERR;
  }
}

}  // namespace lance_nd::netcdf::internal
