#include "numpy_in.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lance_nd/array/buffer.h"
#include "lance_nd/array/builder.h"
#include "status.h"

namespace lance_nd::python {
namespace {

using array::ArrayPtr;
using array::BufferPtr;
using array::DataTypePtr;

std::string DtypeName(const py::dtype& dtype) {
  return py::str(static_cast<const py::handle&>(dtype)).cast<std::string>();
}

Status UnsupportedDtype(const py::dtype& dtype) {
  return Status::InvalidArgument(
      "numpy dtype '", DtypeName(dtype),
      "' is not supported: use bool, (unsigned) integers, float16/32/64, datetime64 or "
      "timedelta64 in s, ms, us or ns, str, bytes or objects that are str / bytes / None");
}

array::TimeUnit ParseUnit(const py::dtype& dtype) {
  const auto unit = py::module_::import("numpy")
                        .attr("datetime_data")(dtype)
                        .cast<py::tuple>()[0]
                        .cast<std::string>();
  if (unit == "s") return array::TimeUnit::kSecond;
  if (unit == "ms") return array::TimeUnit::kMilli;
  if (unit == "us") return array::TimeUnit::kMicro;
  if (unit == "ns") return array::TimeUnit::kNano;
  throw StatusError(UnsupportedDtype(dtype));
}

DataTypePtr IntegerType(bool is_signed, py::ssize_t size) {
  switch (size) {
    case 1:
      return is_signed ? array::Int8() : array::UInt8();
    case 2:
      return is_signed ? array::Int16() : array::UInt16();
    case 4:
      return is_signed ? array::Int32() : array::UInt32();
    default:
      return is_signed ? array::Int64() : array::UInt64();
  }
}

// Null flags from the mask (1 = null); empty when there is no mask.
std::vector<std::uint8_t> MaskFlags(const PreparedArray& prepared, std::int64_t n) {
  std::vector<std::uint8_t> nulls;
  if (prepared.mask.is_none()) return nulls;
  auto mask = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(prepared.mask);
  if (!mask || mask.size() != n) {
    throw StatusError(Status::InvalidArgument("the mask has ", mask ? mask.size() : -1,
                                              " elements, the data ", n,
                                              ": give a mask of the data's shape"));
  }
  nulls.assign(mask.data(), mask.data() + n);
  return nulls;
}

// The validity bitmap of `nulls` (null when nothing is null) and the null count.
BufferPtr ValidityOf(const std::vector<std::uint8_t>& nulls, std::int64_t* null_count) {
  *null_count = 0;
  for (auto v : nulls) *null_count += v != 0 ? 1 : 0;
  if (*null_count == 0) return nullptr;
  std::uint8_t* bits = nullptr;
  const auto n = static_cast<std::int64_t>(nulls.size());
  auto buffer = array::Buffer::AllocateZeroed(array::BytesForBits(n), &bits);
  for (std::int64_t i = 0; i < n; ++i) {
    if (nulls[static_cast<std::size_t>(i)] == 0) array::SetBit(bits, i);
  }
  return buffer;
}

ArrayPtr FixedWidth(const PreparedArray& p, DataTypePtr type, std::vector<std::uint8_t> nulls) {
  const std::int64_t n = p.data.size();
  const auto width = static_cast<std::int64_t>(p.data.itemsize());
  const bool temporal = p.data.dtype().kind() == 'M' || p.data.dtype().kind() == 'm';
  if (temporal) {  // NaT is a null
    if (nulls.empty()) nulls.assign(static_cast<std::size_t>(n), 0);
    const auto* v = static_cast<const std::int64_t*>(p.data.data());
    for (std::int64_t i = 0; i < n; ++i) {
      if (v[i] == std::numeric_limits<std::int64_t>::min()) nulls[static_cast<std::size_t>(i)] = 1;
    }
  }
  std::int64_t null_count = 0;
  auto validity = ValidityOf(nulls, &null_count);
  auto values = array::Buffer::Copy(p.data.data(), n * width);
  return array::MakeArrayData(std::move(type), n, {validity, values}, {}, null_count);
}

ArrayPtr Bools(const PreparedArray& p, const std::vector<std::uint8_t>& nulls) {
  const std::int64_t n = p.data.size();
  const auto* v = static_cast<const std::uint8_t*>(p.data.data());
  std::uint8_t* bits = nullptr;
  auto values = array::Buffer::AllocateZeroed(array::BytesForBits(n), &bits);
  for (std::int64_t i = 0; i < n; ++i) {
    if (v[i] != 0) array::SetBit(bits, i);
  }
  std::int64_t null_count = 0;
  auto validity = ValidityOf(nulls, &null_count);
  return array::MakeArrayData(array::Bool(), n, {validity, values}, {}, null_count);
}

bool IsMissing(PyObject* item) {
  if (item == Py_None) return true;
  return PyFloat_Check(item) && std::isnan(PyFloat_AsDouble(item));
}

// Object arrays: str -> utf8, bytes -> binary (by the first non-null item); None and NaN are
// nulls.
ArrayPtr Objects(const PreparedArray& p, const std::vector<std::uint8_t>& nulls) {
  const std::int64_t n = p.data.size();
  auto* const* items = static_cast<PyObject* const*>(p.data.data());
  bool binary = false;
  for (std::int64_t i = 0; i < n; ++i) {
    if (!IsMissing(items[i])) {
      binary = PyBytes_Check(items[i]) != 0;
      break;
    }
  }
  array::BinaryBuilder builder(binary ? array::Binary() : array::Utf8());
  for (std::int64_t i = 0; i < n; ++i) {
    PyObject* item = items[i];
    if (IsMissing(item) || (!nulls.empty() && nulls[static_cast<std::size_t>(i)] != 0)) {
      builder.AppendNull();
    } else if (!binary && PyUnicode_Check(item)) {
      Py_ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(item, &size);
      if (text == nullptr) throw py::error_already_set();
      builder.Append({text, static_cast<std::size_t>(size)});
    } else if (binary && PyBytes_Check(item)) {
      builder.Append({PyBytes_AS_STRING(item), static_cast<std::size_t>(PyBytes_GET_SIZE(item))});
    } else {
      throw StatusError(Status::InvalidArgument(
          "object array item ", i, " is a ", Py_TYPE(item)->tp_name, ": expected ",
          binary ? "bytes" : "str", " (as the first item) or None"));
    }
  }
  return Unwrap(builder.Finish());
}

}  // namespace

PreparedArray PrepareArray(py::handle data) {
  auto prepared = py::module_::import("lance_nd._convert").attr("prepare")(data).cast<py::tuple>();
  return {prepared[0].cast<py::array>(), prepared[1]};
}

DataTypePtr TypeFromDtype(const py::dtype& dtype) {
  const auto size = dtype.itemsize();
  switch (dtype.kind()) {
    case 'b':
      return array::Bool();
    case 'i':
    case 'u':
      return IntegerType(dtype.kind() == 'i', size);
    case 'f':
      if (size == 2) return array::Float16();
      if (size == 4) return array::Float32();
      if (size == 8) return array::Float64();
      break;
    case 'M':
      return array::Timestamp(ParseUnit(dtype));
    case 'm':
      return array::Duration(ParseUnit(dtype));
    case 'O':
    case 'U':
      return array::Utf8();
    case 'S':
      return array::Binary();
    default:
      break;
  }
  throw StatusError(UnsupportedDtype(dtype));
}

ArrayPtr ArrayFromNumpy(const PreparedArray& p) {
  if ((p.data.flags() & py::array::c_style) == 0) {
    throw StatusError(Status::Internal("the array given to ArrayFromNumpy is not C-contiguous"));
  }
  auto nulls = MaskFlags(p, p.data.size());
  const auto dtype = p.data.dtype();
  switch (dtype.kind()) {
    case 'b':
      return Bools(p, nulls);
    case 'O':
      return Objects(p, nulls);
    default:
      return FixedWidth(p, TypeFromDtype(dtype), std::move(nulls));
  }
}

}  // namespace lance_nd::python
