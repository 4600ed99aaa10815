// Variables of one output dataset: defined from their first array, written hyperslab by
// hyperslab with nulls replaced by the fill value.
#include <cstring>
#include <string_view>

#include "lance_nd/array/view.h"
#include "lance_nd/netcdf/conventions.h"
#include "lance_nd/netcdf/nc_attributes.h"
#include "lance_nd/netcdf/nc_output.h"

namespace lance_nd::netcdf::internal {
namespace {

bool IsText(const array::DataType& type) {
  return type.id() == array::TypeId::kUtf8 || type.id() == array::TypeId::kLargeUtf8;
}

// The value that replaces nulls: the variable's _FillValue, else its first missing_value, else
// netCDF's default fill of its type. A missing_value of another type is converted as the import
// converted it to find the nulls.
template <typename T>
Result<T> NullReplacement(int ncid, int varid) {
  T fill{};
  nc_type type = NC_NAT;
  std::size_t len = 0;
  const bool has_fill = nc_inq_att(ncid, varid, "_FillValue", &type, &len) == NC_NOERR;
  if (!has_fill && nc_inq_att(ncid, varid, "missing_value", &type, &len) == NC_NOERR &&
      type != NC_CHAR && type != NC_STRING && len > 0) {
    std::vector<T> missing(len);
    if (GetAttributeAs<T>(ncid, varid, "missing_value", missing.data())) return missing[0];
  }
  int no_fill = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_var_fill(ncid, varid, &no_fill, &fill), "fill value"));
  return fill;
}

template <typename T>
Status PutNumbers(int ncid, int varid, const array::ArrayData& values,
                  const std::vector<std::size_t>& start, const std::vector<std::size_t>& count) {
  const T* data = values.values<T>(1);
  if (values.null_count() == 0) {
    return NcCall("writing values",
                  [&] { return nc_put_vara(ncid, varid, start.data(), count.data(), data); });
  }
  LND_ASSIGN_OR_RETURN(const T fill, NullReplacement<T>(ncid, varid));
  std::vector<T> filled(data, data + values.length);
  for (std::int64_t i = 0; i < values.length; ++i) {
    if (values.IsNull(i)) filled[static_cast<std::size_t>(i)] = fill;
  }
  return NcCall("writing values", [&] {
    return nc_put_vara(ncid, varid, start.data(), count.data(), filled.data());
  });
}

// The string that replaces nulls: the variable's _FillValue, else its first missing_value,
// else netCDF's default string fill ("").
std::string NullString(int ncid, int varid) {
  for (const char* name : {"_FillValue", "missing_value"}) {
    nc_type type = NC_NAT;
    std::size_t len = 0;
    if (nc_inq_att(ncid, varid, name, &type, &len) != NC_NOERR || type != NC_STRING || len == 0) {
      continue;
    }
    std::vector<char*> values(len, nullptr);
    if (nc_get_att_string(ncid, varid, name, values.data()) != NC_NOERR) continue;
    std::string out = values[0] == nullptr ? "" : values[0];
    nc_free_string(len, values.data());
    return out;
  }
  return "";
}

Status PutStrings(int ncid, int varid, const array::ArrayData& values,
                  const std::vector<std::size_t>& start, const std::vector<std::size_t>& count) {
  array::BinaryView view(values);
  const std::string fill = values.null_count() > 0 ? NullString(ncid, varid) : std::string();
  std::vector<std::string> strings;
  for (std::int64_t i = 0; i < values.length; ++i) {
    strings.emplace_back(view.IsNull(i) ? std::string_view(fill) : view.Value(i));
  }
  std::vector<const char*> pointers;
  for (const std::string& s : strings) pointers.push_back(s.c_str());
  return NcCall("writing strings", [&] {
    return nc_put_vara_string(ncid, varid, start.data(), count.data(), pointers.data());
  });
}

Status PutChars(int ncid, int varid, const array::ArrayData& values, std::size_t width,
                const std::vector<std::size_t>& start, const std::vector<std::size_t>& count) {
  array::BinaryView view(values);
  std::string chars(static_cast<std::size_t>(values.length) * width, '\0');
  for (std::int64_t i = 0; i < values.length; ++i) {
    if (view.IsNull(i)) continue;
    const std::string_view s = view.Value(i);
    if (s.size() > width) {
      return Status::InvalidArgument("value ", i, " has ", s.size(),
                                     " bytes, more than its character dimension holds (", width,
                                     ")");
    }
    if (s.empty()) continue;  // an empty value may have no data pointer at all
    std::memcpy(chars.data() + static_cast<std::size_t>(i) * width, s.data(), s.size());
  }
  if (chars.empty()) return Status::OK();
  return NcCall("writing characters", [&] {
    return nc_put_vara_text(ncid, varid, start.data(), count.data(), chars.data());
  });
}

}  // namespace

Result<DatasetOutput::Variable*> DatasetOutput::Define(const std::string& name,
                                                       const nd::NdArrowArray& array) {
  Variable var;
  const array::DataType& type = *array.value_type();
  const std::optional<std::string> char_dim = array.attributes().GetString(kCharDimKey);
  std::vector<int> dimids;
  for (const nd::Dimension& d : array.dimensions().dims()) {
    auto it = dims_.find(d.name);
    if (it == dims_.end()) {
      return Status::InvalidArgument("dimension ", d.name,
                                     " is not one of the dataset's dimensions");
    }
    dimids.push_back(it->second.dimid);
    var.dims.push_back(d.name);
  }
  if (IsText(type) && char_dim) {
    var.type = NC_CHAR;
    var.char_len = 1;
    if (!char_dim->empty()) {
      auto it = dims_.find(*char_dim);
      if (it == dims_.end()) {
        return Status::InvalidArgument("its character dimension ", *char_dim, " (attribute ",
                                       kCharDimKey, ") is not one of the dataset's dimensions");
      }
      dimids.push_back(it->second.dimid);
      var.char_len = it->second.size;
      var.has_char_dim = true;
    }
  } else if (IsText(type)) {
    var.type = NC_STRING;
  } else {
    var.type = NumericNcType(type);
    if (var.type == NC_NAT) {
      return Status::NotImplemented(
          "values of type ", type.ToString(),
          " have no netCDF type (netCDF holds int8..int64, uint8..uint64, float32, float64 and "
          "utf8)");
    }
  }
  LND_RETURN_NOT_OK(NcCall("defining the variable", [&] {
    return nc_def_var(ncid_, name.c_str(), var.type, static_cast<int>(dimids.size()), dimids.data(),
                      &var.varid);
  }));
  LND_RETURN_NOT_OK(DefineAttributes(var, array.attributes()));
  return &(variables_[name] = std::move(var));
}

Status DatasetOutput::DefineAttributes(const Variable& var, const nd::Attributes& attributes) {
  for (const auto& [key, value] : attributes.entries()) {
    if (key == kCharDimKey) continue;
    Status s;
    if (key == "_FillValue" && var.type != NC_CHAR && var.type != NC_STRING) {
      // The fill value must have the variable's type (a cast table may have changed it).
      const nc_type attr_type = NumericNcType(*value->type);
      if (attr_type == NC_NAT) {
        return Status::InvalidArgument("attribute _FillValue of type ", value->type->ToString(),
                                       " is not a number");
      }
      std::vector<unsigned char> converted(8);
      const array::ArrayData& fill = *value;  // clang 14 cannot capture a structured binding
      VisitNumeric(attr_type, [&]<typename A>() {
        const A v = fill.values<A>(1)[0];
        VisitNumeric(var.type, [&]<typename T>() {
          const T t = static_cast<T>(v);
          std::memcpy(converted.data(), &t, sizeof(T));
        });
      });
      s = NcCall("writing attribute _FillValue", [&] {
        return nc_put_att(ncid_, var.varid, "_FillValue", var.type, 1, converted.data());
      });
    } else if (key == "_FillValue" && var.type == NC_STRING && IsText(*value->type)) {
      const std::string text(array::BinaryView(*value).Value(0));
      const char* pointer = text.c_str();
      s = NcCall("writing attribute _FillValue",
                 [&] { return nc_put_att_string(ncid_, var.varid, "_FillValue", 1, &pointer); });
    } else {
      s = WriteAttribute(ncid_, var.varid, key, *value);
    }
    LND_RETURN_NOT_OK(s);
  }
  return Status::OK();
}

Status DatasetOutput::Put(const std::string& name, const nd::NdArrowArray& array,
                          const std::map<std::string, std::uint64_t, std::less<>>& offsets) {
  auto it = variables_.find(name);
  Variable* var = it == variables_.end() ? nullptr : &it->second;
  if (var == nullptr) {
    LND_ASSIGN_OR_RETURN_CTX(var, Define(name, array), "variable " + name);
  }
  if (array.dimensions().names() != var->dims) {
    return Status::InvalidArgument("variable ", name, " has dimensions ",
                                   array.dimensions().ToString(),
                                   " in this row, but was defined with other dimensions");
  }
  std::vector<std::size_t> start;
  std::vector<std::size_t> count;
  for (const nd::Dimension& d : array.dimensions().dims()) {
    auto o = offsets.find(d.name);
    start.push_back(o == offsets.end() ? 0 : o->second);
    count.push_back(d.size);
  }
  if (var->has_char_dim) {
    start.push_back(0);
    count.push_back(var->char_len);
  }
  LND_RETURN_NOT_OK_CTX(Write(*var, array, start, count), "variable " + name);
  return Status::OK();
}

Status DatasetOutput::Write(const Variable& var, const nd::NdArrowArray& array,
                            const std::vector<std::size_t>& start,
                            const std::vector<std::size_t>& count) {
  const array::ArrayData& values = *array.values();
  if (values.length == 0) return Status::OK();
  if (var.type == NC_CHAR) {
    return PutChars(ncid_, var.varid, values, var.char_len, start, count);
  }
  if (var.type == NC_STRING) return PutStrings(ncid_, var.varid, values, start, count);
  Status s;
  VisitNumeric(var.type,
               [&]<typename T>() { s = PutNumbers<T>(ncid_, var.varid, values, start, count); });
  return s;
}

}  // namespace lance_nd::netcdf::internal
