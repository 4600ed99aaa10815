// One nd record batch -> one JSON line.
#include <string>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/api/json_values.h"

namespace lance_nd {
namespace {

using json_lines::AppendJsonString;

/// {"dtype": T, "value": V}
Status AppendTypedValue(std::string& out, const array::ArrayPtr& value) {
  LND_ASSIGN_OR_RETURN(const std::string dtype, JsonDtypeName(*value->type));
  out += "{\"dtype\": ";
  AppendJsonString(out, dtype);
  out += ", \"value\": ";
  LND_RETURN_NOT_OK(json_lines::AppendSlot(out, *value, 0));
  out += '}';
  return Status::OK();
}

Status AppendAttributes(std::string& out, const nd::Attributes& attributes) {
  out += '{';
  bool first = true;
  for (const auto& [key, value] : attributes.entries()) {
    if (!first) out += ", ";
    first = false;
    AppendJsonString(out, key);
    out += ": ";
    LND_RETURN_NOT_OK_CTX(AppendTypedValue(out, value), "attribute '" + key + "'");
  }
  out += '}';
  return Status::OK();
}

template <typename T>
void AppendList(std::string& out, const std::vector<T>& items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    if constexpr (std::is_same_v<T, std::string>) {
      AppendJsonString(out, items[i]);
    } else {
      out += std::to_string(items[i]);
    }
  }
  out += ']';
}

Status AppendArray(std::string& out, const nd::NdArrowArray& a) {
  LND_ASSIGN_OR_RETURN(const std::string dtype, JsonDtypeName(*a.value_type()));
  out += "{\"dtype\": ";
  AppendJsonString(out, dtype);
  out += ", \"dim_names\": ";
  AppendList(out, a.dimensions().names());
  out += ", \"dim_sizes\": ";
  AppendList(out, a.dimensions().sizes());
  out += ", \"values\": [";
  const array::ArrayData& values = *a.values();
  for (int64_t i = 0; i < values.length; ++i) {
    if (i > 0) out += ", ";
    LND_RETURN_NOT_OK(json_lines::AppendSlot(out, values, i));
  }
  out += ']';
  if (!a.attributes().empty()) {
    out += ", \"attrs\": ";
    LND_RETURN_NOT_OK(AppendAttributes(out, a.attributes()));
  }
  out += '}';
  return Status::OK();
}

}  // namespace

Result<std::string> EncodeJsonArray(const nd::NdArrowArray& array) {
  std::string out;
  LND_RETURN_NOT_OK(AppendArray(out, array));
  return out;
}

Result<std::string> EncodeJsonLine(const nd::NdRecordBatch& row) {
  std::string out = "{";
  if (!row.attributes().empty()) {
    out += "\"global_attrs\": ";
    LND_RETURN_NOT_OK_CTX(AppendAttributes(out, row.attributes()), "global attributes");
    out += ", ";
  }
  out += "\"arrays\": {";
  for (int i = 0; i < row.num_columns(); ++i) {
    if (i > 0) out += ", ";
    AppendJsonString(out, row.column_name(i));
    out += ": ";
    LND_RETURN_NOT_OK_CTX(AppendArray(out, row.column(i)), "array '" + row.column_name(i) + "'");
  }
  out += "}}";
  return out;
}

}  // namespace lance_nd
