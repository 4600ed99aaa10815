// JSON Lines values: one array slot <-> one JSON value.
#include "lance_nd/api/json_values.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "lance_nd/api/json_lines.h"
#include "lance_nd/array/view.h"

namespace lance_nd::json_lines {
namespace {

using array::ArrayData;
using array::DataType;
using array::TypeId;

/// A JSON number that reads back as a float: "1" becomes "1.0" (so "-0" keeps its sign).
void AppendFloatText(std::string& out, const char* begin, const char* end) {
  out.append(begin, end);
  if (std::string_view(begin, static_cast<std::size_t>(end - begin)).find_first_of(".e") ==
      std::string_view::npos) {
    out += ".0";
  }
}

bool AppendNonFinite(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
  } else if (std::isinf(v)) {
    out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    return false;
  }
  return true;
}

void AppendDouble(std::string& out, double v) {
  if (AppendNonFinite(out, v)) return;
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest that reads back exactly
  AppendFloatText(out, buf, r.ptr);
}

/// The shortest text of a float32 that reads back (as a double, then rounded to float32) to
/// the same bits; 9 significant digits always do.
void AppendFloat(std::string& out, float v) {
  if (AppendNonFinite(out, v)) return;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  *r.ptr = '\0';
  const auto back = static_cast<float>(std::strtod(buf, nullptr));
  if (std::memcmp(&back, &v, sizeof v) != 0) {
    const int n = std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    r.ptr = buf + n;
  }
  AppendFloatText(out, buf, r.ptr);
}

/// The shortest text (1..5 significant digits) that reads back to the same float16 bits.
void AppendHalf(std::string& out, std::uint16_t bits) {
  const double v = HalfToDouble(bits);
  if (AppendNonFinite(out, v)) return;
  char buf[64];
  int n = 0;
  for (int digits = 1; digits <= 5; ++digits) {
    n = std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (DoubleToHalf(std::strtod(buf, nullptr)) == bits) break;
  }
  AppendFloatText(out, buf, buf + n);
}

template <typename T>
void AppendInteger(std::string& out, const ArrayData& a, int64_t i) {
  out += std::to_string(array::PrimitiveView<T>(a).Value(i));
}

Status AppendList(std::string& out, const ArrayData& a, int64_t i) {
  const array::ListView list(a);
  const int64_t begin = list.ValueOffset(i);
  const int64_t end = begin + list.ValueLength(i);
  out += '[';
  for (int64_t k = begin; k < end; ++k) {
    if (k > begin) out += ", ";
    LND_RETURN_NOT_OK(AppendSlot(out, *list.values(), k));
  }
  out += ']';
  return Status::OK();
}

}  // namespace

Status AppendSlot(std::string& out, const ArrayData& a, int64_t i) {
  if (a.IsNull(i)) {
    out += "null";
    return Status::OK();
  }
  switch (a.type->id()) {
    case TypeId::kBool:
      out += array::BoolView(a).Value(i) ? "true" : "false";
      return Status::OK();
    case TypeId::kInt8:
      AppendInteger<int8_t>(out, a, i);
      return Status::OK();
    case TypeId::kInt16:
      AppendInteger<int16_t>(out, a, i);
      return Status::OK();
    case TypeId::kInt32:
    case TypeId::kDate32:
      AppendInteger<int32_t>(out, a, i);
      return Status::OK();
    case TypeId::kInt64:
    case TypeId::kTimestamp:
    case TypeId::kDuration:
      AppendInteger<int64_t>(out, a, i);
      return Status::OK();
    case TypeId::kUInt8:
      AppendInteger<uint8_t>(out, a, i);
      return Status::OK();
    case TypeId::kUInt16:
      AppendInteger<uint16_t>(out, a, i);
      return Status::OK();
    case TypeId::kUInt32:
      AppendInteger<uint32_t>(out, a, i);
      return Status::OK();
    case TypeId::kUInt64:
      AppendInteger<uint64_t>(out, a, i);
      return Status::OK();
    case TypeId::kFloat16:
      AppendHalf(out, array::PrimitiveView<uint16_t>(a).Value(i));
      return Status::OK();
    case TypeId::kFloat32:
      AppendFloat(out, array::PrimitiveView<float>(a).Value(i));
      return Status::OK();
    case TypeId::kFloat64:
      AppendDouble(out, array::PrimitiveView<double>(a).Value(i));
      return Status::OK();
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8:
      AppendJsonString(out, array::BinaryView(a).Value(i));
      return Status::OK();
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
      AppendJsonString(out, Base64Encode(array::BinaryView(a).Value(i)));
      return Status::OK();
    case TypeId::kList:
      return AppendList(out, a, i);
    default:
      return JsonDtypeName(*a.type).status();
  }
}

}  // namespace lance_nd::json_lines
