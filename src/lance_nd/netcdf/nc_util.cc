// netCDF error codes, file handles and type mapping.
#include "lance_nd/netcdf/nc_util.h"

#include <cstring>

namespace lance_nd::netcdf::internal {

namespace {

// Errors of the layers below netCDF's own checks (HDF5, the file, the disk), where errno may
// say why.
bool IsLowerLayerError(int rc) {
  return rc == NC_EIO || (rc <= NC_EHDFERR && rc >= NC_EVARMETA) || rc == NC_EDIMSCALE;
}

}  // namespace

Status NcStatus(int rc, std::string_view what, int sys_errno) {
  if (rc == NC_NOERR) return Status::OK();
  if (sys_errno != 0 && IsLowerLayerError(rc)) {
    return Status::IOError(what, ": ", nc_strerror(rc), " (netCDF error ", rc,
                           "; system error: ", std::strerror(sys_errno), ")");
  }
  return Status::IOError(what, ": ", nc_strerror(rc), " (netCDF error ", rc, ")");
}

NcFile& NcFile::operator=(NcFile&& other) noexcept {
  if (this != &other) {
    (void)Close();
    ncid_ = std::exchange(other.ncid_, -1);
  }
  return *this;
}

NcFile::~NcFile() { (void)Close(); }

Status NcFile::Close() {
  if (ncid_ < 0) return Status::OK();
  const int ncid = std::exchange(ncid_, -1);
  return NcCall("closing the netCDF file", [ncid] { return nc_close(ncid); });
}

Result<NcFile> OpenForReading(const std::string& path) {
  int ncid = -1;
  const int rc = nc_open(path.c_str(), NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    return NcStatus(
        rc, "cannot open " + path + " as netCDF (classic, 64-bit offset or netCDF-4 expected)");
  }
  return NcFile(ncid);
}

array::DataTypePtr NumericArrowType(nc_type type) {
  switch (type) {
    case NC_BYTE:
      return array::Int8();
    case NC_UBYTE:
      return array::UInt8();
    case NC_SHORT:
      return array::Int16();
    case NC_USHORT:
      return array::UInt16();
    case NC_INT:
      return array::Int32();
    case NC_UINT:
      return array::UInt32();
    case NC_INT64:
      return array::Int64();
    case NC_UINT64:
      return array::UInt64();
    case NC_FLOAT:
      return array::Float32();
    case NC_DOUBLE:
      return array::Float64();
    default:
      return nullptr;
  }
}

nc_type NumericNcType(const array::DataType& type) {
  using array::TypeId;
  switch (type.id()) {
    case TypeId::kInt8:
      return NC_BYTE;
    case TypeId::kUInt8:
      return NC_UBYTE;
    case TypeId::kInt16:
      return NC_SHORT;
    case TypeId::kUInt16:
      return NC_USHORT;
    case TypeId::kInt32:
      return NC_INT;
    case TypeId::kUInt32:
      return NC_UINT;
    case TypeId::kInt64:
      return NC_INT64;
    case TypeId::kUInt64:
      return NC_UINT64;
    case TypeId::kFloat32:
      return NC_FLOAT;
    case TypeId::kFloat64:
      return NC_DOUBLE;
    default:
      return NC_NAT;
  }
}

std::string NcTypeName(nc_type type) {
  switch (type) {
    case NC_BYTE:
      return "byte";
    case NC_UBYTE:
      return "ubyte";
    case NC_CHAR:
      return "char";
    case NC_SHORT:
      return "short";
    case NC_USHORT:
      return "ushort";
    case NC_INT:
      return "int";
    case NC_UINT:
      return "uint";
    case NC_INT64:
      return "int64";
    case NC_UINT64:
      return "uint64";
    case NC_FLOAT:
      return "float";
    case NC_DOUBLE:
      return "double";
    case NC_STRING:
      return "string";
    default:
      break;
  }
  return "user-defined type " + std::to_string(type) +
         " (compound, enum, opaque or variable-length)";
}

}  // namespace lance_nd::netcdf::internal
