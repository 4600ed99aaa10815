// Hyperslab reads: numbers straight into an Arrow buffer, then nulls where the fill or missing
// values are; strings and chars through a builder.
#include "lance_nd/netcdf/nc_read.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "lance_nd/array/builder.h"
#include "lance_nd/netcdf/nc_attributes.h"
#include "lance_nd/netcdf/nc_util.h"

namespace lance_nd::netcdf::internal {
namespace {

std::int64_t CountValues(const std::vector<std::size_t>& count, std::size_t rank) {
  std::int64_t n = 1;
  for (std::size_t d = 0; d < rank; ++d) n *= static_cast<std::int64_t>(count[d]);
  return n;
}

// The numbers that mean "no value": _FillValue and every missing_value entry that fit T.
template <typename T>
std::vector<T> MissingValues(int ncid, int varid) {
  std::vector<T> out;
  for (const char* name : {"_FillValue", "missing_value"}) {
    nc_type type = NC_NAT;
    std::size_t len = 0;
    if (nc_inq_att(ncid, varid, name, &type, &len) != NC_NOERR) continue;
    if (type == NC_CHAR || type == NC_STRING || len == 0) continue;
    std::vector<T> values(len);
    if (GetAttributeAs<T>(ncid, varid, name, values.data())) {
      out.insert(out.end(), values.begin(), values.end());
    }
  }
  return out;
}

template <typename T>
bool IsMissing(T value, const std::vector<T>& missing) {
  for (T m : missing) {
    if (value == m) return true;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(m) && std::isnan(value)) return true;
    }
  }
  return false;
}

// A validity bitmap for `values`, or null when nothing is missing.
template <typename T>
array::BufferPtr Validity(const T* values, std::int64_t n, const std::vector<T>& missing,
                          std::int64_t* null_count) {
  *null_count = 0;
  if (missing.empty()) return nullptr;
  std::uint8_t* bits = nullptr;
  array::BufferPtr validity = array::Buffer::AllocateZeroed((n + 7) / 8, &bits);
  for (std::int64_t i = 0; i < n; ++i) {
    if (IsMissing(values[i], missing)) {
      ++*null_count;
    } else {
      bits[i / 8] = static_cast<std::uint8_t>(bits[i / 8] | (1u << (i % 8)));
    }
  }
  return *null_count == 0 ? nullptr : validity;
}

template <typename T>
Result<array::ArrayPtr> ReadNumbers(int ncid, const NcVariable& var,
                                    const std::vector<std::size_t>& start,
                                    const std::vector<std::size_t>& count) {
  const std::int64_t n = CountValues(count, count.size());
  std::uint8_t* data = nullptr;
  array::BufferPtr values =
      array::Buffer::AllocateUninitialized(n * static_cast<std::int64_t>(sizeof(T)), &data);
  if (n > 0) {
    LND_RETURN_NOT_OK(
        NcStatus(nc_get_vara(ncid, var.varid, start.data(), count.data(), data), "reading values"));
  }
  std::int64_t null_count = 0;
  array::BufferPtr validity =
      Validity(reinterpret_cast<const T*>(data), n, MissingValues<T>(ncid, var.varid), &null_count);
  return array::MakeArrayData(NumericArrowType(var.type), n, {validity, values}, {}, null_count);
}

// The builder's strings, refused when they are not UTF-8 (netCDF does not check).
Result<array::ArrayPtr> CheckedUtf8(array::BinaryBuilder& builder) {
  LND_ASSIGN_OR_RETURN(array::ArrayPtr out, builder.Finish());
  LND_RETURN_NOT_OK_CTX(array::Validate(*out), "text that is not UTF-8");
  return out;
}

// The strings that mean "no value": the string _FillValue and missing_value entries.
std::vector<std::string> MissingStrings(int ncid, int varid) {
  std::vector<std::string> out;
  for (const char* name : {"_FillValue", "missing_value"}) {
    nc_type type = NC_NAT;
    std::size_t len = 0;
    if (nc_inq_att(ncid, varid, name, &type, &len) != NC_NOERR) continue;
    if (type != NC_STRING || len == 0) continue;
    std::vector<char*> values(len, nullptr);
    if (nc_get_att_string(ncid, varid, name, values.data()) != NC_NOERR) continue;
    for (const char* v : values) out.emplace_back(v == nullptr ? "" : v);
    nc_free_string(len, values.data());
  }
  return out;
}

Result<array::ArrayPtr> ReadStrings(int ncid, const NcVariable& var,
                                    const std::vector<std::size_t>& start,
                                    const std::vector<std::size_t>& count) {
  const std::int64_t n = CountValues(count, count.size());
  std::vector<char*> strings(static_cast<std::size_t>(n), nullptr);
  if (n > 0) {
    LND_RETURN_NOT_OK(
        NcStatus(nc_get_vara_string(ncid, var.varid, start.data(), count.data(), strings.data()),
                 "reading strings"));
  }
  const std::vector<std::string> missing = MissingStrings(ncid, var.varid);
  array::BinaryBuilder builder(array::Utf8());
  for (char* s : strings) {
    if (s == nullptr || std::find(missing.begin(), missing.end(), s) != missing.end()) {
      builder.AppendNull();
    } else {
      builder.Append(s);
    }
  }
  if (n > 0) nc_free_string(strings.size(), strings.data());
  return CheckedUtf8(builder);
}

Result<array::ArrayPtr> ReadChars(int ncid, const NcVariable& var,
                                  const std::vector<std::size_t>& start,
                                  const std::vector<std::size_t>& count) {
  const std::size_t rank = var.array_rank();
  const std::int64_t n = CountValues(count, rank);
  const std::size_t width = var.dims.empty() ? 1 : count.back();
  std::string chars(static_cast<std::size_t>(n) * width, '\0');
  if (!chars.empty()) {
    LND_RETURN_NOT_OK(
        NcStatus(nc_get_vara_text(ncid, var.varid, start.data(), count.data(), chars.data()),
                 "reading characters"));
  }
  array::BinaryBuilder builder(array::Utf8());
  for (std::int64_t i = 0; i < n; ++i) {
    std::string_view s(chars.data() + static_cast<std::size_t>(i) * width, width);
    while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
    builder.Append(s);
  }
  return CheckedUtf8(builder);
}

}  // namespace

Result<array::ArrayPtr> ReadSlab(int ncid, const NcVariable& var,
                                 const std::vector<std::size_t>& start,
                                 const std::vector<std::size_t>& count) {
  if (var.is_char) return ReadChars(ncid, var, start, count);
  if (var.type == NC_STRING) return ReadStrings(ncid, var, start, count);
  Result<array::ArrayPtr> out = Status::Internal("unreachable");
  const bool numeric =
      VisitNumeric(var.type, [&]<typename T>() { out = ReadNumbers<T>(ncid, var, start, count); });
  if (!numeric) {
    return Status::NotImplemented("variable ", var.name, " is of ", NcTypeName(var.type));
  }
  return out;
}

}  // namespace lance_nd::netcdf::internal
