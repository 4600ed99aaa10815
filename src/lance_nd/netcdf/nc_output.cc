// Writing groups, dimensions and variables of a netCDF-4 file.
#include "lance_nd/netcdf/nc_output.h"

#include "lance_nd/netcdf/conventions.h"
#include "lance_nd/netcdf/nc_attributes.h"

namespace lance_nd::netcdf::internal {
namespace {

// Paths of the ancestors of `path`, the root first: "a/b" -> "", "a".
std::vector<std::string> AncestorPaths(const std::string& path) {
  std::vector<std::string> out;
  if (path.empty()) return out;
  out.emplace_back();
  for (std::size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    out.push_back(path.substr(0, slash));
  }
  return out;
}

}  // namespace

Result<NcOutput> NcOutput::Create(const std::string& path) {
  int ncid = -1;
  LND_RETURN_NOT_OK(NcCall("cannot create netCDF-4 file " + path, [&] {
    return nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &ncid);
  }));
  NcOutput out{NcFile(ncid)};
  out.groups_[""] = ncid;
  out.paths_[ncid] = "";
  return out;
}

Result<int> NcOutput::Group(const std::string& group_path) {
  if (auto it = groups_.find(group_path); it != groups_.end()) return it->second;
  const std::size_t slash = group_path.rfind('/');
  const std::string parent_path = slash == std::string::npos ? "" : group_path.substr(0, slash);
  const std::string name = slash == std::string::npos ? group_path : group_path.substr(slash + 1);
  if (name.empty()) {
    return Status::InvalidArgument("group path '", group_path,
                                   "' has an empty part; dataset ids name groups as a/b/c");
  }
  LND_ASSIGN_OR_RETURN(int parent, Group(parent_path));
  int ncid = -1;
  LND_RETURN_NOT_OK(NcCall("cannot create group " + group_path,
                           [&] { return nc_def_grp(parent, name.c_str(), &ncid); }));
  groups_[group_path] = ncid;
  paths_[ncid] = group_path;
  return ncid;
}

int NcOutput::InheritedDim(const std::vector<std::string>& ancestors, const DimSpec& spec) const {
  // Readers find a dimension by name in the nearest group that has one: only the nearest
  // ancestor's dimension of that name may be reused, not one that it shadows.
  for (auto a = ancestors.rbegin(); a != ancestors.rend(); ++a) {
    auto it = datasets_.find(*a);
    if (it == datasets_.end()) continue;
    auto d = it->second->dims_.find(spec.name);
    if (d == it->second->dims_.end()) continue;
    const bool same = d->second.size == spec.size && d->second.unlimited == spec.unlimited;
    return same ? d->second.dimid : -1;
  }
  return -1;
}

Result<DatasetOutput*> NcOutput::Begin(const std::string& group_path,
                                       const std::vector<DimSpec>& dims,
                                       const nd::Attributes& globals) {
  if (datasets_.contains(group_path)) {
    return Status::InvalidArgument("two datasets map to group '", group_path,
                                   "'; export them separately");
  }
  LND_ASSIGN_OR_RETURN(int ncid, Group(group_path));
  auto dataset = std::make_unique<DatasetOutput>();
  dataset->ncid_ = ncid;
  const std::vector<std::string> ancestors = AncestorPaths(group_path);
  for (const DimSpec& spec : dims) {
    DatasetOutput::DimDef def{InheritedDim(ancestors, spec), spec.size, spec.unlimited};
    if (def.dimid < 0) {
      const std::size_t len = spec.unlimited ? NC_UNLIMITED : spec.size;
      LND_RETURN_NOT_OK(NcCall("dimension " + spec.name + " of group '" + group_path + "'", [&] {
        return nc_def_dim(ncid, spec.name.c_str(), len, &def.dimid);
      }));
    }
    dataset->dims_[spec.name] = def;
  }
  LND_RETURN_NOT_OK_CTX(WriteAttributes(ncid, NC_GLOBAL, globals),
                        "global attributes of group '" + group_path + "'");
  DatasetOutput* out = dataset.get();
  datasets_[group_path] = std::move(dataset);
  return out;
}

}  // namespace lance_nd::netcdf::internal
