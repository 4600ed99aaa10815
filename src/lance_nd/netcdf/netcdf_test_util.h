// Test helpers of the netcdf layer: scratch folders, external tools (ncdump, ncgen), and a
// comparison of two netCDF files through libnetcdf (structure, attributes, every value's bytes).
#pragma once

#include <gtest/gtest.h>
#include <netcdf.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>
#include "lance_nd/testing/test_env.h"

namespace lance_nd::netcdf::testing {

using lance_nd::testing::TempDir;

namespace detail {

inline std::string Name(int ncid, int varid = NC_GLOBAL) {
  char name[NC_MAX_NAME + 1] = {};
  if (varid == NC_GLOBAL) {
    nc_inq_grpname(ncid, name);
  } else {
    nc_inq_varname(ncid, varid, name);
  }
  return name;
}

inline std::string Bytes(const void* data, std::size_t n) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}

inline std::size_t TypeSize(int ncid, nc_type type) {
  std::size_t size = 0;
  nc_inq_type(ncid, type, nullptr, &size);
  return size;
}

inline std::string AttributeText(int ncid, int varid, const char* name) {
  nc_type type = NC_NAT;
  std::size_t len = 0;
  nc_inq_att(ncid, varid, name, &type, &len);
  std::string text = "type " + std::to_string(type) + " len " + std::to_string(len) + " ";
  if (type == NC_STRING) {
    std::vector<char*> s(len);
    nc_get_att_string(ncid, varid, name, s.data());
    for (char* v : s) text += std::string("\"") + (v ? v : "<null>") + "\" ";
    nc_free_string(len, s.data());
    return text;
  }
  std::vector<unsigned char> bytes(len * TypeSize(ncid, type));
  nc_get_att(ncid, varid, name, bytes.data());
  return text + Bytes(bytes.data(), bytes.size());
}

inline void DumpAttributes(int ncid, int varid, const std::string& prefix,
                           std::map<std::string, std::string>* out) {
  int natts = 0;
  if (varid == NC_GLOBAL) {
    nc_inq_natts(ncid, &natts);
  } else {
    nc_inq_varnatts(ncid, varid, &natts);
  }
  for (int i = 0; i < natts; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    nc_inq_attname(ncid, varid, i, name);
    (*out)[prefix + ":" + name] = AttributeText(ncid, varid, name);
  }
}

inline std::string VariableValues(int ncid, int varid, nc_type type, std::size_t count) {
  if (count == 0) return "";
  if (type == NC_STRING) {
    std::vector<char*> s(count);
    nc_get_var_string(ncid, varid, s.data());
    std::string text;
    for (char* v : s) text += std::string("\"") + (v ? v : "<null>") + "\" ";
    nc_free_string(count, s.data());
    return text;
  }
  std::vector<unsigned char> bytes(count * TypeSize(ncid, type));
  const int rc = nc_get_var(ncid, varid, bytes.data());
  if (rc != NC_NOERR) return std::string("read error ") + nc_strerror(rc);
  return Bytes(bytes.data(), bytes.size());
}

// A readable dump of one group (and its subgroups), values as hex bytes, for diffing.
inline void DumpGroup(int ncid, const std::string& path, std::map<std::string, std::string>* out) {
  int ndims = 0;
  nc_inq_dimids(ncid, &ndims, nullptr, 0);
  std::vector<int> dimids(static_cast<std::size_t>(ndims));
  nc_inq_dimids(ncid, &ndims, dimids.data(), 0);
  int nunlim = 0;
  std::vector<int> unlim(NC_MAX_DIMS);
  nc_inq_unlimdims(ncid, &nunlim, unlim.data());
  for (int d : dimids) {
    char name[NC_MAX_NAME + 1] = {};
    std::size_t len = 0;
    nc_inq_dim(ncid, d, name, &len);
    const bool u = std::find(unlim.begin(), unlim.begin() + nunlim, d) != unlim.begin() + nunlim;
    (*out)[path + "dim " + name] = std::to_string(len) + (u ? " unlimited" : "");
  }
  DumpAttributes(ncid, NC_GLOBAL, path + "global", out);
  int nvars = 0;
  nc_inq_nvars(ncid, &nvars);
  for (int v = 0; v < nvars; ++v) {
    const std::string name = path + "var " + Name(ncid, v);
    nc_type type = NC_NAT;
    int vdims = 0;
    nc_inq_var(ncid, v, nullptr, &type, &vdims, nullptr, nullptr);
    std::vector<int> ids(static_cast<std::size_t>(vdims));
    nc_inq_vardimid(ncid, v, ids.data());
    std::string shape = "type " + std::to_string(type) + " dims";
    std::size_t count = 1;
    for (int id : ids) {
      char dname[NC_MAX_NAME + 1] = {};
      std::size_t len = 0;
      nc_inq_dim(ncid, id, dname, &len);
      shape += std::string(" ") + dname + "=" + std::to_string(len);
      count *= len;
    }
    (*out)[name] = shape;
    (*out)[name + " values"] = VariableValues(ncid, v, type, count);
    DumpAttributes(ncid, v, name, out);
  }
  int ngrps = 0;
  nc_inq_grps(ncid, &ngrps, nullptr);
  std::vector<int> grps(static_cast<std::size_t>(ngrps));
  nc_inq_grps(ncid, &ngrps, grps.data());
  for (int g : grps) DumpGroup(g, path + Name(g) + "/", out);
}

inline std::map<std::string, std::string> Dump(const std::string& file, std::string* error) {
  std::map<std::string, std::string> out;
  int ncid = -1;
  const int rc = nc_open(file.c_str(), NC_NOWRITE, &ncid);
  if (rc != NC_NOERR) {
    *error += "cannot open " + file + ": " + nc_strerror(rc) + "\n";
    return out;
  }
  DumpGroup(ncid, "/", &out);
  nc_close(ncid);
  return out;
}

inline std::string Short(const std::string& s) {
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

}  // namespace detail

/// \brief Run `command` with the shell; its stdout, and its exit status in `*status`.
inline std::string Run(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *status = -1;
    return out;
  }
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  *status = ::pclose(pipe);
  return out;
}

/// \brief True when `tool` runs (found on PATH).
inline bool HaveTool(const std::string& tool) {
  int status = 0;
  Run("command -v " + tool + " >/dev/null 2>&1", &status);
  return status == 0;
}

/// \brief `ncdump` of `path` without its first line (which names the file). No other line is
/// changed: ncdump without -s shows neither _NCProperties nor the storage settings, which are
/// the only things the export may change.
inline std::string NcdumpBody(const std::string& path, const std::string& flags = "") {
  int status = 0;
  const std::string out = Run("ncdump " + flags + " '" + path + "' 2>&1", &status);
  const std::size_t newline = out.find('\n');
  return newline == std::string::npos ? out : out.substr(newline + 1);
}

/// \brief Every difference between two files (groups, dimensions with their sizes and
/// unlimited flags, variables with types, dimension names, attributes and values byte for
/// byte), one per line; empty when they hold the same data.
inline std::string CompareFiles(const std::string& a, const std::string& b) {
  std::string diff;
  const auto da = detail::Dump(a, &diff);
  const auto db = detail::Dump(b, &diff);
  for (const auto& [key, value] : da) {
    auto it = db.find(key);
    if (it == db.end()) {
      diff += "only in " + a + ": " + key + " = " + detail::Short(value) + "\n";
    } else if (it->second != value) {
      diff += "differs: " + key + ": " + detail::Short(value) + " vs " + detail::Short(it->second) +
              "\n";
    }
  }
  for (const auto& [key, value] : db) {
    if (!da.contains(key))
      diff += "only in " + b + ": " + key + " = " + detail::Short(value) + "\n";
  }
  return diff;
}

/// \brief The directory of the ferret-datasets files, or "" when the package is missing.
inline std::string FerretDataDir() {
  const std::string dir = "/usr/share/ferret-vis/data";
  return std::filesystem::exists(dir + "/coads_climatology.cdf") ? dir : "";
}

/// \brief A classic file holding one int variable v(x = 4): first, first + 1, first + 2, first + 3.
inline void SmallFile(const std::string& path, int first = 0) {
  int ncid = -1, dim = -1, var = -1;
  ASSERT_EQ(nc_create(path.c_str(), NC_CLOBBER, &ncid), NC_NOERR);
  nc_def_dim(ncid, "x", 4, &dim);
  nc_def_var(ncid, "v", NC_INT, 1, &dim, &var);
  nc_enddef(ncid);
  const int values[4] = {first, first + 1, first + 2, first + 3};
  nc_put_var_int(ncid, var, values);
  ASSERT_EQ(nc_close(ncid), NC_NOERR) << path;
}

}  // namespace lance_nd::netcdf::testing
