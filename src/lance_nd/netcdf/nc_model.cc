// Reading the structure of a netCDF file (groups, dimensions, variables, attributes).
#include "lance_nd/netcdf/nc_model.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "lance_nd/netcdf/conventions.h"
#include "lance_nd/netcdf/nc_attributes.h"
#include "lance_nd/netcdf/nc_util.h"

namespace lance_nd::netcdf::internal {
namespace {

std::string DimName(int ncid, int dimid) {
  char name[NC_MAX_NAME + 1] = {};
  (void)nc_inq_dimname(ncid, dimid, name);
  return name;
}

// Unlimited dimensions visible from `ncid`: its own and its ancestors'.
Result<std::set<int>> UnlimitedDims(int ncid) {
  std::set<int> out;
  for (int g = ncid;;) {
    int n = 0;
    LND_RETURN_NOT_OK(NcStatus(nc_inq_unlimdims(g, &n, nullptr), "unlimited dimensions"));
    std::vector<int> ids(static_cast<std::size_t>(n));
    LND_RETURN_NOT_OK(NcStatus(nc_inq_unlimdims(g, &n, ids.data()), "unlimited dimensions"));
    out.insert(ids.begin(), ids.end());
    int parent = -1;
    if (nc_inq_grp_parent(g, &parent) != NC_NOERR) break;  // the root has no parent
    g = parent;
  }
  return out;
}

Result<std::vector<int>> VarDimIds(int ncid, int varid) {
  int ndims = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_varndims(ncid, varid, &ndims), "rank"));
  std::vector<int> ids(static_cast<std::size_t>(ndims));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_vardimid(ncid, varid, ids.data()), "dimensions"));
  return ids;
}

// The group's own dimensions and those of its ancestors that its variables use, by id.
Result<std::vector<int>> LayoutDimIds(int ncid, int nvars) {
  int n = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_dimids(ncid, &n, nullptr, 0), "dimensions"));
  std::vector<int> own(static_cast<std::size_t>(n));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_dimids(ncid, &n, own.data(), 0), "dimensions"));
  std::set<int> ids(own.begin(), own.end());
  for (int v = 0; v < nvars; ++v) {
    LND_ASSIGN_OR_RETURN(std::vector<int> used, VarDimIds(ncid, v));
    ids.insert(used.begin(), used.end());
  }
  return std::vector<int>(ids.begin(), ids.end());
}

// The netCDF-4 chunk shape of a chunked variable, else empty.
std::vector<std::size_t> StorageChunks(int ncid, int varid, std::size_t rank) {
  std::vector<std::size_t> sizes(std::max<std::size_t>(rank, 1));
  int storage = NC_CONTIGUOUS;
  if (rank == 0 || nc_inq_var_chunking(ncid, varid, &storage, sizes.data()) != NC_NOERR ||
      storage != NC_CHUNKED) {
    return {};
  }
  return sizes;
}

Result<NcVariable> ReadVariable(int ncid, int varid, const std::vector<int>& layout_ids,
                                const DatasetLayout& layout) {
  NcVariable var;
  char name[NC_MAX_NAME + 1] = {};
  LND_RETURN_NOT_OK(NcStatus(nc_inq_varname(ncid, varid, name), "variable name"));
  var.name = name;
  var.varid = varid;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_vartype(ncid, varid, &var.type), "variable type"));
  if (var.type != NC_CHAR && var.type != NC_STRING && NumericArrowType(var.type) == nullptr) {
    return Status::NotImplemented("variable ", var.name, " is of ", NcTypeName(var.type),
                                  "; the import reads char, string and the numeric types");
  }
  LND_ASSIGN_OR_RETURN(std::vector<int> ids, VarDimIds(ncid, varid));
  for (int id : ids) {
    const auto at = std::find(layout_ids.begin(), layout_ids.end(), id);
    var.dims.push_back(static_cast<std::size_t>(at - layout_ids.begin()));
  }
  LND_ASSIGN_OR_RETURN_CTX(var.attributes, ReadAttributes(ncid, varid), "variable " + var.name);
  LND_RETURN_NOT_OK(NcStatus(nc_inq_type(ncid, var.type, nullptr, &var.value_bytes), "type size"));
  var.storage_chunks = StorageChunks(ncid, varid, ids.size());
  if (var.type == NC_CHAR) {
    var.is_char = true;
    const std::string char_dim = var.dims.empty() ? "" : layout.dim_names[var.dims.back()];
    var.attributes.Set(std::string(kCharDimKey), char_dim);
  }
  return var;
}

Result<NcGroup> ReadGroup(int ncid, std::string path) {
  NcGroup group;
  group.ncid = ncid;
  group.path = std::move(path);
  int nvars = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_nvars(ncid, &nvars), "variables"));
  LND_ASSIGN_OR_RETURN(std::vector<int> dim_ids, LayoutDimIds(ncid, nvars));
  LND_ASSIGN_OR_RETURN(std::set<int> unlimited, UnlimitedDims(ncid));
  for (int id : dim_ids) {
    std::size_t len = 0;
    LND_RETURN_NOT_OK(NcStatus(nc_inq_dimlen(ncid, id, &len), "dimension length"));
    const std::string name = DimName(ncid, id);
    group.layout.dim_names.push_back(name);
    group.layout.dim_sizes.push_back(len);
    if (unlimited.contains(id)) group.layout.unlimited_dims.push_back(name);
  }
  for (int v = 0; v < nvars; ++v) {
    LND_ASSIGN_OR_RETURN(NcVariable var, ReadVariable(ncid, v, dim_ids, group.layout));
    group.variables.push_back(std::move(var));
  }
  LND_ASSIGN_OR_RETURN(nd::Attributes globals, ReadAttributes(ncid, NC_GLOBAL));
  group.attributes = RenameGlobals(globals);
  return group;
}

Status ReadTree(int ncid, const std::string& path, std::vector<NcGroup>* out) {
  LND_ASSIGN_OR_RETURN(NcGroup group, ReadGroup(ncid, path));
  out->push_back(std::move(group));
  int n = 0;
  if (nc_inq_grps(ncid, &n, nullptr) != NC_NOERR || n == 0) return Status::OK();  // classic
  std::vector<int> children(static_cast<std::size_t>(n));
  LND_RETURN_NOT_OK(NcStatus(nc_inq_grps(ncid, &n, children.data()), "groups"));
  for (int child : children) {
    char name[NC_MAX_NAME + 1] = {};
    LND_RETURN_NOT_OK(NcStatus(nc_inq_grpname(child, name), "group name"));
    const std::string child_path = path.empty() ? name : path + "/" + name;
    LND_RETURN_NOT_OK_CTX(ReadTree(child, child_path, out), "group " + child_path);
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<NcGroup>> ReadStructure(int ncid) {
  std::vector<NcGroup> groups;
  LND_RETURN_NOT_OK(ReadTree(ncid, "", &groups));
  return groups;
}

Status ProbeData(const NcGroup& group) {
  for (const NcVariable& var : group.variables) {
    std::vector<std::size_t> last;
    bool empty = false;
    for (std::size_t d : var.dims) {
      const std::uint64_t size = group.layout.dim_sizes[d];
      empty = empty || size == 0;
      last.push_back(size == 0 ? 0 : size - 1);
    }
    if (empty) continue;
    int rc = NC_NOERR;
    if (var.type == NC_STRING) {
      char* value = nullptr;
      rc = nc_get_var1_string(group.ncid, var.varid, last.data(), &value);
      if (rc == NC_NOERR) nc_free_string(1, &value);
    } else {
      unsigned char buffer[8] = {};
      rc = nc_get_var1(group.ncid, var.varid, last.data(), buffer);
    }
    LND_RETURN_NOT_OK(NcStatus(rc, "variable " + var.name + ": reading its last value"));
  }
  return Status::OK();
}

Status ReadEveryString(const NcGroup& group) {
  for (const NcVariable& var : group.variables) {
    if (var.type != NC_STRING) continue;
    std::size_t count = 1;
    for (std::size_t d : var.dims) count *= group.layout.dim_sizes[d];
    if (count == 0) continue;
    std::vector<char*> values(count, nullptr);
    LND_RETURN_NOT_OK(NcStatus(nc_get_var_string(group.ncid, var.varid, values.data()),
                               "variable " + var.name + ": reading its strings"));
    nc_free_string(count, values.data());
  }
  return Status::OK();
}

Status CheckClassicLength(int ncid, const std::string& path, const NcGroup& root) {
  int format = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_format(ncid, &format), "file format"));
  if (format != NC_FORMAT_CLASSIC && format != NC_FORMAT_64BIT_OFFSET && format != NC_FORMAT_CDF5) {
    return Status::OK();  // HDF5-based files fail on their own when cut
  }
  std::uint64_t needed = 0;
  for (const NcVariable& var : root.variables) {
    std::size_t width = 0;
    LND_RETURN_NOT_OK(NcStatus(nc_inq_type(ncid, var.type, nullptr, &width), "type size"));
    std::uint64_t n = width;
    for (std::size_t d : var.dims) n *= root.layout.dim_sizes[d];
    needed += n;
  }
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size < needed) {
    return Status::IOError("the file has ", size, " bytes but its variables hold ", needed,
                           " bytes of data: it is truncated");
  }
  return Status::OK();
}

}  // namespace lance_nd::netcdf::internal
