#include "npy_writer.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "lance_nd/array/view.h"

namespace lance_nd::cli {
namespace {

static_assert(std::endian::native == std::endian::little,
              ".npy values are written as they are in memory, little-endian");

std::string_view UnitCode(array::TimeUnit unit) {
  switch (unit) {
    case array::TimeUnit::kSecond:
      return "s";
    case array::TimeUnit::kMilli:
      return "ms";
    case array::TimeUnit::kMicro:
      return "us";
    case array::TimeUnit::kNano:
      return "ns";
  }
  return "?";
}

/// The NumPy type string of `type`, or nullopt when .npy has no form for it here.
std::optional<std::string> Descr(const array::DataType& type) {
  switch (type.id()) {
    case array::TypeId::kBool:
      return "|b1";
    case array::TypeId::kInt8:
      return "|i1";
    case array::TypeId::kUInt8:
      return "|u1";
    case array::TypeId::kInt16:
      return "<i2";
    case array::TypeId::kUInt16:
      return "<u2";
    case array::TypeId::kInt32:
      return "<i4";
    case array::TypeId::kUInt32:
      return "<u4";
    case array::TypeId::kInt64:
      return "<i8";
    case array::TypeId::kUInt64:
      return "<u8";
    case array::TypeId::kFloat16:
      return "<f2";
    case array::TypeId::kFloat32:
      return "<f4";
    case array::TypeId::kFloat64:
      return "<f8";
    case array::TypeId::kDate32:
      return "<M8[D]";
    case array::TypeId::kTimestamp:
      return "<M8[" + std::string(UnitCode(type.unit())) + "]";
    case array::TypeId::kDuration:
      return "<m8[" + std::string(UnitCode(type.unit())) + "]";
    default:
      return std::nullopt;
  }
}

/// The header: magic, version 1.0, length, and the dict padded so the data starts at a
/// multiple of 64 bytes.
std::string Header(const std::string& descr, const std::vector<std::uint64_t>& shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    dict += std::to_string(shape[k]) + (shape.size() == 1 ? "," : k + 1 < shape.size() ? ", " : "");
  }
  dict += "), }";
  const std::size_t unpadded = 10 + dict.size() + 1;  // magic 6, version 2, length 2, '\n'
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

template <typename T>
void AppendValue(std::string& out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  out.append(bytes, sizeof(T));
}

/// The fill of an integer or bool array: its `_FillValue` when the type holds it exactly.
template <typename T>
Result<T> IntegerFill(const nd::NdArrowArray& a, std::string_view name, int64_t nulls) {
  const std::optional<double> fill = a.attributes().GetDouble("_FillValue");
  const auto exact = [&](double v) {
    return v >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
           v <= static_cast<double>(std::numeric_limits<T>::max()) &&
           static_cast<double>(static_cast<T>(v)) == v;
  };
  if (!fill || !exact(*fill)) {
    return Status::InvalidArgument(
        "variable '", name, "' has ", nulls, " missing values and .npy has no missing value for ",
        a.value_type()->ToString(), fill ? " (its _FillValue does not fit the type)" : "",
        "; give the variable a _FillValue attribute, or use --format json");
  }
  return static_cast<T>(*fill);
}

template <typename T>
Status AppendFixed(std::string& out, const nd::NdArrowArray& a, std::string_view name,
                   std::optional<T> missing) {
  const array::ArrayData& values = *a.values();
  const int64_t nulls = values.null_count();
  if (nulls > 0 && !missing) {
    LND_ASSIGN_OR_RETURN(T fill, IntegerFill<T>(a, name, nulls));
    missing = fill;
  }
  const array::PrimitiveView<T> view(values);
  for (int64_t i = 0; i < values.length; ++i) {
    AppendValue<T>(out, values.IsNull(i) ? *missing : view.Value(i));
  }
  return Status::OK();
}

Status AppendBools(std::string& out, const nd::NdArrowArray& a, std::string_view name) {
  const array::ArrayData& values = *a.values();
  std::uint8_t fill = 0;
  if (values.null_count() > 0) {
    LND_ASSIGN_OR_RETURN(fill, IntegerFill<std::uint8_t>(a, name, values.null_count()));
    if (fill > 1)
      return Status::InvalidArgument("variable '", name, "': _FillValue ", fill, " is not a bool");
  }
  const array::BoolView view(values);
  for (int64_t i = 0; i < values.length; ++i) {
    out += static_cast<char>(values.IsNull(i) ? fill : (view.Value(i) ? 1 : 0));
  }
  return Status::OK();
}

Status AppendDates(std::string& out, const nd::NdArrowArray& a) {
  const array::ArrayData& values = *a.values();
  const array::PrimitiveView<int32_t> view(values);
  for (int64_t i = 0; i < values.length; ++i) {
    AppendValue<int64_t>(out, values.IsNull(i) ? std::numeric_limits<int64_t>::min()
                                               : static_cast<int64_t>(view.Value(i)));
  }
  return Status::OK();
}

Status AppendValues(std::string& out, const nd::NdArrowArray& a, std::string_view name) {
  constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();
  switch (a.value_type()->id()) {
    case array::TypeId::kBool:
      return AppendBools(out, a, name);
    case array::TypeId::kInt8:
      return AppendFixed<int8_t>(out, a, name, std::nullopt);
    case array::TypeId::kUInt8:
      return AppendFixed<uint8_t>(out, a, name, std::nullopt);
    case array::TypeId::kInt16:
      return AppendFixed<int16_t>(out, a, name, std::nullopt);
    case array::TypeId::kUInt16:
      return AppendFixed<uint16_t>(out, a, name, std::nullopt);
    case array::TypeId::kInt32:
      return AppendFixed<int32_t>(out, a, name, std::nullopt);
    case array::TypeId::kUInt32:
      return AppendFixed<uint32_t>(out, a, name, std::nullopt);
    case array::TypeId::kInt64:
      return AppendFixed<int64_t>(out, a, name, std::nullopt);
    case array::TypeId::kUInt64:
      return AppendFixed<uint64_t>(out, a, name, std::nullopt);
    case array::TypeId::kFloat16:
      return AppendFixed<uint16_t>(out, a, name, 0x7e00);  // NaN
    case array::TypeId::kFloat32:
      return AppendFixed<float>(out, a, name, std::numeric_limits<float>::quiet_NaN());
    case array::TypeId::kFloat64:
      return AppendFixed<double>(out, a, name, std::numeric_limits<double>::quiet_NaN());
    case array::TypeId::kDate32:
      return AppendDates(out, a);
    case array::TypeId::kTimestamp:
    case array::TypeId::kDuration:
      return AppendFixed<int64_t>(out, a, name, kNaT);
    default:
      return Status::Internal("no .npy writer for ", a.value_type()->ToString());
  }
}

}  // namespace

Result<std::string> EncodeNpy(const nd::NdArrowArray& array, std::string_view name) {
  const std::optional<std::string> descr = Descr(*array.value_type());
  if (!descr) {
    return Status::InvalidArgument("variable '", name, "' is ", array.value_type()->ToString(),
                                   ", which has no .npy form here (bool, integers, floats, "
                                   "dates, timestamps and durations do); use --format json");
  }
  std::string out = Header(*descr, array.shape());
  LND_RETURN_NOT_OK(AppendValues(out, array, name));
  return out;
}

}  // namespace lance_nd::cli
