// Small helpers over the netCDF C API: error codes as Status, a file handle that closes itself,
// and a dispatch from an nc_type to its C type.
#pragma once

#include <netcdf.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "lance_nd/array/type.h"
#include "lance_nd/core/result.h"

namespace lance_nd::netcdf::internal {

/// \brief OK for NC_NOERR; otherwise IOError "<what>: <netCDF's message> (netCDF error <rc>)".
/// For an error of the HDF5 or I/O layer with `sys_errno` set, the system's text is added:
/// "... (netCDF error -101; system error: No space left on device)".
Status NcStatus(int rc, std::string_view what, int sys_errno = 0);

/// \brief Run `call` (a netCDF call returning its status code) with errno cleared, and give
/// NcStatus of its code with the errno the call left (a write that fails on a full disk shows
/// "No space left on device", not only "NetCDF: HDF error").
template <typename F>
Status NcCall(std::string_view what, F&& call) {
  errno = 0;
  const int rc = call();
  const int sys_errno = errno;
  return NcStatus(rc, what, sys_errno);
}

/// \brief An open netCDF file (or dataset being written), closed when destroyed.
class NcFile {
 public:
  NcFile() = default;
  explicit NcFile(int ncid) : ncid_(ncid) {}
  NcFile(NcFile&& other) noexcept : ncid_(std::exchange(other.ncid_, -1)) {}
  NcFile& operator=(NcFile&& other) noexcept;
  NcFile(const NcFile&) = delete;
  NcFile& operator=(const NcFile&) = delete;
  ~NcFile();
  /// \brief Close now, reporting netCDF's error (a write may fail only here).
  Status Close();
  int id() const { return ncid_; }

 private:
  int ncid_ = -1;
};

/// \brief nc_open for reading, with the path in the error.
Result<NcFile> OpenForReading(const std::string& path);

/// \brief The Arrow type of a numeric netCDF type (byte -> int8, ubyte -> uint8, ...), or null
/// for char, string and user-defined types.
array::DataTypePtr NumericArrowType(nc_type type);
/// \brief The netCDF type of a numeric Arrow type, or NC_NAT.
nc_type NumericNcType(const array::DataType& type);
/// \brief "float", "ubyte", "string", "compound" ... for messages.
std::string NcTypeName(nc_type type);

/// \brief Call f.template operator()<T>() with T the C type of numeric nc_type `type`. Returns
/// false (without calling f) for other types.
template <typename F>
bool VisitNumeric(nc_type type, F&& f) {
  switch (type) {
    case NC_BYTE:
      f.template operator()<std::int8_t>();
      return true;
    case NC_UBYTE:
      f.template operator()<std::uint8_t>();
      return true;
    case NC_SHORT:
      f.template operator()<std::int16_t>();
      return true;
    case NC_USHORT:
      f.template operator()<std::uint16_t>();
      return true;
    case NC_INT:
      f.template operator()<std::int32_t>();
      return true;
    case NC_UINT:
      f.template operator()<std::uint32_t>();
      return true;
    case NC_INT64:
      f.template operator()<std::int64_t>();
      return true;
    case NC_UINT64:
      f.template operator()<std::uint64_t>();
      return true;
    case NC_FLOAT:
      f.template operator()<float>();
      return true;
    case NC_DOUBLE:
      f.template operator()<double>();
      return true;
    default:
      return false;
  }
}

/// \brief The nc_type of C type T (one of the ten numeric types).
template <typename T>
constexpr nc_type NcTypeOf() {
  if constexpr (std::is_same_v<T, std::int8_t>) return NC_BYTE;
  if constexpr (std::is_same_v<T, std::uint8_t>) return NC_UBYTE;
  if constexpr (std::is_same_v<T, std::int16_t>) return NC_SHORT;
  if constexpr (std::is_same_v<T, std::uint16_t>) return NC_USHORT;
  if constexpr (std::is_same_v<T, std::int32_t>) return NC_INT;
  if constexpr (std::is_same_v<T, std::uint32_t>) return NC_UINT;
  if constexpr (std::is_same_v<T, std::int64_t>) return NC_INT64;
  if constexpr (std::is_same_v<T, std::uint64_t>) return NC_UINT64;
  if constexpr (std::is_same_v<T, float>) return NC_FLOAT;
  if constexpr (std::is_same_v<T, double>) return NC_DOUBLE;
}

}  // namespace lance_nd::netcdf::internal
