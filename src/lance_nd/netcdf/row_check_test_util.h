// Checks an imported row against its source file, reading the source with libnetcdf directly:
// every array's values at the row's chunk offsets, nulls exactly where the source holds its
// _FillValue or a missing_value, char variables as trimmed strings.
#pragma once

#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "lance_nd/api/chunking.h"
#include "lance_nd/array/view.h"
#include "lance_nd/nd/record_batch.h"

namespace lance_nd::netcdf::testing {
namespace detail {

template <typename T>
std::vector<T> Missing(int ncid, int varid) {
  std::vector<T> out;
  for (const char* name : {"_FillValue", "missing_value"}) {
    nc_type type = NC_NAT;
    std::size_t len = 0;
    if (nc_inq_att(ncid, varid, name, &type, &len) != NC_NOERR || type == NC_CHAR ||
        type == NC_STRING) {
      continue;
    }
    std::vector<double> d(len);
    nc_get_att_double(ncid, varid, name, d.data());
    for (double v : d) out.push_back(static_cast<T>(v));
  }
  return out;
}

template <typename T>
std::string CompareNumbers(int ncid, int varid, const array::ArrayData& got, std::size_t n,
                           const std::vector<std::size_t>& start,
                           const std::vector<std::size_t>& count) {
  std::vector<T> want(n);
  if (n > 0) nc_get_vara(ncid, varid, start.data(), count.data(), want.data());
  const std::vector<T> missing = Missing<T>(ncid, varid);
  const T* values = got.values<T>(1);
  for (std::size_t i = 0; i < n; ++i) {
    bool is_missing = false;
    for (T m : missing) {
      is_missing = is_missing || want[i] == m;
      if constexpr (std::is_floating_point_v<T>) {
        is_missing = is_missing || (std::isnan(m) && std::isnan(want[i]));
      }
    }
    const auto at = static_cast<std::int64_t>(i);
    if (is_missing != got.IsNull(at)) return "null mismatch at " + std::to_string(i);
    if (!is_missing && std::memcmp(&values[i], &want[i], sizeof(T)) != 0) {
      return "value mismatch at " + std::to_string(i);
    }
  }
  return "";
}

inline std::string CompareText(int ncid, int varid, nc_type type, const array::ArrayData& got,
                               std::size_t n, std::vector<std::size_t> start,
                               std::vector<std::size_t> count, std::size_t char_len) {
  std::vector<std::string> want;
  if (type == NC_STRING) {
    std::vector<char*> s(n);
    if (n > 0) nc_get_vara_string(ncid, varid, start.data(), count.data(), s.data());
    for (char* v : s) want.emplace_back(v ? v : "");
    if (n > 0) nc_free_string(n, s.data());
  } else {
    std::string chars(n * char_len, '\0');
    if (!chars.empty()) nc_get_vara_text(ncid, varid, start.data(), count.data(), chars.data());
    for (std::size_t i = 0; i < n; ++i) {
      std::string s = chars.substr(i * char_len, char_len);
      while (!s.empty() && s.back() == '\0') s.pop_back();
      want.push_back(s);
    }
  }
  // A string equal to a string _FillValue or missing_value entry is a null.
  std::vector<std::string> missing;
  for (const char* name : {"_FillValue", "missing_value"}) {
    nc_type att_type = NC_NAT;
    std::size_t len = 0;
    if (type != NC_STRING || nc_inq_att(ncid, varid, name, &att_type, &len) != NC_NOERR ||
        att_type != NC_STRING) {
      continue;
    }
    std::vector<char*> values(len);
    nc_get_att_string(ncid, varid, name, values.data());
    for (char* v : values) missing.emplace_back(v ? v : "");
    nc_free_string(len, values.data());
  }
  array::BinaryView view(got);
  for (std::size_t i = 0; i < n; ++i) {
    const bool null = std::find(missing.begin(), missing.end(), want[i]) != missing.end();
    if (view.IsNull(static_cast<std::int64_t>(i)) != null) {
      return "null mismatch at " + std::to_string(i) + " (source \"" + want[i] + "\")";
    }
    if (!null && view.Value(static_cast<std::int64_t>(i)) != want[i]) {
      return "string mismatch at " + std::to_string(i);
    }
  }
  return "";
}

}  // namespace detail

/// \brief "" when every array of `row` holds what group `ncid` of the source holds there.
inline std::string CheckRowAgainstSource(int ncid, const nd::NdRecordBatch& row) {
  auto chunk = ReadChunkAttributes(row.attributes());
  if (!chunk.ok() || !chunk->has_value()) return "not a chunk row";
  const DatasetLayout& layout = (*chunk)->layout;
  std::string problems;
  for (int c = 0; c < row.num_columns(); ++c) {
    const std::string& name = row.column_name(c);
    const nd::NdArrowArray& array = row.column(c);
    int varid = -1;
    if (nc_inq_varid(ncid, name.c_str(), &varid) != NC_NOERR) {
      problems += name + ": not in the source\n";
      continue;
    }
    nc_type type = NC_NAT;
    nc_inq_vartype(ncid, varid, &type);
    std::vector<std::size_t> start;
    std::vector<std::size_t> count;
    std::size_t n = 1;
    for (const nd::Dimension& d : array.dimensions().dims()) {
      const int at = layout.DimIndex(d.name);
      start.push_back(at < 0 ? 0 : (*chunk)->position.offset[static_cast<std::size_t>(at)]);
      count.push_back(d.size);
      n *= d.size;
    }
    std::string problem;
    if (type == NC_CHAR || type == NC_STRING) {
      std::size_t char_len = 1;
      int ndims = 0;
      nc_inq_varndims(ncid, varid, &ndims);
      if (type == NC_CHAR && ndims > 0) {
        std::vector<int> ids(static_cast<std::size_t>(ndims));
        nc_inq_vardimid(ncid, varid, ids.data());
        nc_inq_dimlen(ncid, ids.back(), &char_len);
        start.push_back(0);
        count.push_back(char_len);
      }
      problem = detail::CompareText(ncid, varid, type, *array.values(), n, start, count, char_len);
    } else {
      switch (type) {
#define LND_CASE(NC, T)                                                                 \
  case NC:                                                                              \
    problem = detail::CompareNumbers<T>(ncid, varid, *array.values(), n, start, count); \
    break;
        LND_CASE(NC_BYTE, std::int8_t)
        LND_CASE(NC_UBYTE, std::uint8_t)
        LND_CASE(NC_SHORT, std::int16_t)
        LND_CASE(NC_USHORT, std::uint16_t)
        LND_CASE(NC_INT, std::int32_t)
        LND_CASE(NC_UINT, std::uint32_t)
        LND_CASE(NC_INT64, std::int64_t)
        LND_CASE(NC_UINT64, std::uint64_t)
        LND_CASE(NC_FLOAT, float)
        LND_CASE(NC_DOUBLE, double)
#undef LND_CASE
        default:
          problem = "unexpected type " + std::to_string(type);
      }
    }
    if (!problem.empty()) problems += name + ": " + problem + "\n";
  }
  return problems;
}

}  // namespace lance_nd::netcdf::testing
