// Reading and writing netCDF attributes as nd attributes.
#include "lance_nd/netcdf/nc_attributes.h"

#include <netcdf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lance_nd/array/view.h"
#include "lance_nd/netcdf/nc_util.h"

namespace lance_nd::netcdf::internal {
namespace {

Status ReadOne(int ncid, int varid, const std::string& name, nd::Attributes* out) {
  nc_type type = NC_NAT;
  std::size_t len = 0;
  LND_RETURN_NOT_OK(NcStatus(nc_inq_att(ncid, varid, name.c_str(), &type, &len), "attribute"));
  if (type == NC_CHAR) {
    std::string text(len, '\0');
    LND_RETURN_NOT_OK(NcStatus(nc_get_att_text(ncid, varid, name.c_str(), text.data()), "text"));
    // Trailing NULs are C string terminators, not text (netCDF4-python writes "" as one NUL;
    // ncdump does not show them), as for char variables.
    while (!text.empty() && text.back() == '\0') text.pop_back();
    out->Set(name, text);
    return Status::OK();
  }
  if (type == NC_STRING) {
    std::vector<char*> strings(len, nullptr);
    LND_RETURN_NOT_OK(
        NcStatus(nc_get_att_string(ncid, varid, name.c_str(), strings.data()), "strings"));
    std::vector<std::string> values;
    for (char* s : strings) values.emplace_back(s == nullptr ? "" : s);
    nc_free_string(len, strings.data());
    if (len == 1) {
      out->Set(name, values[0]);
    } else {
      out->Set(name, values);
    }
    return Status::OK();
  }
  Status status;
  const bool numeric = VisitNumeric(type, [&]<typename T>() {
    std::vector<T> values(len);
    status = NcStatus(nc_get_att(ncid, varid, name.c_str(), values.data()), "values");
    if (!status.ok()) return;
    if (len == 1) {
      out->Set(name, values[0]);
    } else {
      out->Set(name, values);
    }
  });
  if (!numeric) {
    return Status::NotImplemented("attribute of type ", NcTypeName(type),
                                  ": only char, string and the numeric types are imported");
  }
  return status;
}

// A list<utf8> attribute as an NC_STRING array.
Status WriteStrings(int ncid, int varid, const std::string& key, const array::ArrayData& items,
                    std::int64_t begin, std::int64_t end) {
  array::BinaryView view(items);
  std::vector<std::string> values;
  for (std::int64_t i = begin; i < end; ++i) values.emplace_back(view.Value(i));
  std::vector<const char*> pointers;
  for (const std::string& v : values) pointers.push_back(v.c_str());
  return NcStatus(nc_put_att_string(ncid, varid, key.c_str(), pointers.size(), pointers.data()),
                  "writing attribute " + key);
}

Status WriteNumbers(int ncid, int varid, const std::string& key, const array::ArrayData& values,
                    std::int64_t begin, std::int64_t end) {
  const nc_type type = NumericNcType(*values.type);
  if (type == NC_NAT) {
    return Status::NotImplemented("attribute ", key, " of type ", values.type->ToString(),
                                  ": netCDF attributes hold text, strings and numbers");
  }
  const std::int64_t width = values.type->byte_width();
  const std::uint8_t* first = values.buffers[1]->data() + (values.offset + begin) * width;
  return NcStatus(
      nc_put_att(ncid, varid, key.c_str(), type, static_cast<std::size_t>(end - begin), first),
      "writing attribute " + key);
}

}  // namespace

Result<nd::Attributes> ReadAttributes(int ncid, int varid) {
  int natts = 0;
  if (varid == NC_GLOBAL) {
    LND_RETURN_NOT_OK(NcStatus(nc_inq_natts(ncid, &natts), "counting global attributes"));
  } else {
    LND_RETURN_NOT_OK(NcStatus(nc_inq_varnatts(ncid, varid, &natts), "counting attributes"));
  }
  nd::Attributes out;
  for (int i = 0; i < natts; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    LND_RETURN_NOT_OK(NcStatus(nc_inq_attname(ncid, varid, i, name), "attribute name"));
    LND_RETURN_NOT_OK_CTX(ReadOne(ncid, varid, name, &out), std::string("attribute ") + name);
  }
  return out;
}

Status WriteAttribute(int ncid, int varid, const std::string& key, const array::ArrayData& value) {
  using array::TypeId;
  const TypeId id = value.type->id();
  if (id == TypeId::kUtf8 || id == TypeId::kLargeUtf8) {
    const std::string_view text = array::BinaryView(value).Value(0);
    return NcStatus(nc_put_att_text(ncid, varid, key.c_str(), text.size(), text.data()),
                    "writing attribute " + key);
  }
  if (id == TypeId::kList || id == TypeId::kLargeList) {
    array::ListView list(value);
    const array::ArrayData& items = *list.values();
    const std::int64_t begin = list.ValueOffset(0);
    const std::int64_t end = begin + list.ValueLength(0);
    const TypeId item = items.type->id();
    if (item == TypeId::kUtf8 || item == TypeId::kLargeUtf8) {
      return WriteStrings(ncid, varid, key, items, begin, end);
    }
    return WriteNumbers(ncid, varid, key, items, begin, end);
  }
  return WriteNumbers(ncid, varid, key, value, 0, 1);
}

Status WriteAttributes(int ncid, int varid, const nd::Attributes& attributes) {
  for (const auto& [key, value] : attributes.entries()) {
    LND_RETURN_NOT_OK(WriteAttribute(ncid, varid, key, *value));
  }
  return Status::OK();
}

}  // namespace lance_nd::netcdf::internal
