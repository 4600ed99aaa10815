#include "numpy_out.h"

#include <string>

#include "lance_nd/array/buffer.h"
#include "status.h"

namespace lance_nd::python {
namespace {

using array::ArrayPtr;
using array::TypeId;

std::string UnitSuffix(array::TimeUnit unit) {
  return "[" + std::string(array::TimeUnitName(unit)) + "]";
}

// The numpy dtype a fixed-width Arrow type is viewed as, or None when it needs a conversion.
py::object ViewDtype(const array::DataType& type) {
  switch (type.id()) {
    case TypeId::kInt8:
      return py::dtype("i1");
    case TypeId::kInt16:
      return py::dtype("i2");
    case TypeId::kInt32:
      return py::dtype("i4");
    case TypeId::kInt64:
      return py::dtype("i8");
    case TypeId::kUInt8:
      return py::dtype("u1");
    case TypeId::kUInt16:
      return py::dtype("u2");
    case TypeId::kUInt32:
      return py::dtype("u4");
    case TypeId::kUInt64:
      return py::dtype("u8");
    case TypeId::kFloat16:
      return py::dtype("f2");
    case TypeId::kFloat32:
      return py::dtype("f4");
    case TypeId::kFloat64:
      return py::dtype("f8");
    case TypeId::kTimestamp:
      return py::dtype("M8" + UnitSuffix(type.unit()));
    case TypeId::kDuration:
      return py::dtype("m8" + UnitSuffix(type.unit()));
    case TypeId::kDate64:
      return py::dtype("M8[ms]");
    default:
      return py::none();
  }
}

std::vector<py::ssize_t> Shape(const std::vector<std::uint64_t>& shape) {
  return {shape.begin(), shape.end()};
}

py::array View(const ArrayPtr& values, const py::dtype& dtype,
               const std::vector<std::uint64_t>& shape) {
  const auto& buffer = values->buffers.size() > 1 ? values->buffers[1] : nullptr;
  if (values->length == 0 || !buffer) return py::array(dtype, Shape(shape));
  const auto* data = buffer->data() + values->offset * values->type->byte_width();
  py::object base = py::cast(BufferRef{buffer});
  py::array view(dtype, Shape(shape), {}, data, base);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

py::array Bools(const ArrayPtr& values, const std::vector<std::uint64_t>& shape) {
  py::array_t<bool> out(values->length);
  auto* o = out.mutable_data();
  const auto* bits = values->buffers[1]->data();
  for (std::int64_t i = 0; i < values->length; ++i) o[i] = array::GetBit(bits, values->offset + i);
  return out.reshape(Shape(shape));
}

py::array Dates(const ArrayPtr& values, const std::vector<std::uint64_t>& shape) {
  py::array_t<std::int64_t> out(values->length);
  const auto* days = values->values<std::int32_t>();
  for (std::int64_t i = 0; i < values->length; ++i) out.mutable_data()[i] = days[i];
  return out.attr("view")("M8[D]").attr("reshape")(Shape(shape)).cast<py::array>();
}

py::array Objects(const ArrayPtr& values, const std::vector<std::uint64_t>& shape) {
  py::array out(py::dtype("O"), std::vector<py::ssize_t>{values->length});
  auto** slots = static_cast<PyObject**>(out.mutable_data());
  for (std::int64_t i = 0; i < values->length; ++i) {
    py::object item = ValueToPython(values, i);
    Py_XDECREF(slots[i]);
    slots[i] = item.release().ptr();
  }
  return out.reshape(Shape(shape));
}

py::object Masked(const py::array& data, const ArrayPtr& values,
                  const std::vector<std::uint64_t>& shape) {
  py::array_t<bool> mask(values->length);
  for (std::int64_t i = 0; i < values->length; ++i) mask.mutable_data()[i] = values->IsNull(i);
  return py::module_::import("numpy").attr("ma").attr("MaskedArray")(
      data, py::arg("mask") = mask.reshape(Shape(shape)));
}

ArrayPtr Child(const ArrayPtr& array, std::int64_t offset, std::int64_t length) {
  return Unwrap(array::Slice(array->children.at(0), offset, length));
}

py::object ListValue(const ArrayPtr& array, std::int64_t i) {
  std::int64_t start = 0;
  std::int64_t end = 0;
  switch (array->type->id()) {
    case TypeId::kList:
      start = array->values<std::int32_t>()[i];
      end = array->values<std::int32_t>()[i + 1];
      break;
    case TypeId::kLargeList:
      start = array->values<std::int64_t>()[i];
      end = array->values<std::int64_t>()[i + 1];
      break;
    default:  // fixed-size list
      start = (array->offset + i) * array->type->fixed_size();
      end = start + array->type->fixed_size();
      break;
  }
  auto items = Child(array, start, end - start);
  if (!ViewDtype(*items->type).is_none() || items->type->id() == TypeId::kBool) {
    if (items->null_count() == 0) {
      return ArrayToNumpy(items, {static_cast<std::uint64_t>(end - start)});
    }
  }
  py::list out;
  for (std::int64_t k = 0; k < items->length; ++k) out.append(ValueToPython(items, k));
  return out;
}

template <typename Offset>
std::string_view Bytes(const ArrayPtr& array, std::int64_t i) {
  const auto* offsets = array->values<Offset>();
  const auto* data = reinterpret_cast<const char*>(array->buffers[2]->data());
  return {data + offsets[i], static_cast<std::size_t>(offsets[i + 1] - offsets[i])};
}

py::object StructValue(const ArrayPtr& array, std::int64_t i) {
  py::dict out;
  const auto& fields = array->type->children();
  for (std::size_t c = 0; c < fields.size(); ++c) {
    out[py::str(fields[c]->name())] = ValueToPython(array->children[c], array->offset + i);
  }
  return out;
}

}  // namespace

void RegisterBufferRef(py::module_& m) {
  py::class_<BufferRef>(m, "Buffer",
                        "A buffer of the library that numpy arrays returned by to_numpy view.")
      .def_property_readonly("nbytes", [](const BufferRef& b) { return b.buffer->size(); })
      .def("address",
           [](const BufferRef& b) { return reinterpret_cast<std::uintptr_t>(b.buffer->data()); });
}

py::dtype DtypeOf(const array::DataType& type) {
  py::object view = ViewDtype(type);
  if (!view.is_none()) return view.cast<py::dtype>();
  if (type.id() == TypeId::kBool) return py::dtype("?");
  if (type.id() == TypeId::kDate32) return py::dtype("M8[D]");
  return py::dtype("O");
}

py::object ArrayToNumpy(const ArrayPtr& values, const std::vector<std::uint64_t>& shape) {
  py::object view_dtype = ViewDtype(*values->type);
  py::array data;
  if (!view_dtype.is_none()) {
    data = View(values, view_dtype.cast<py::dtype>(), shape);
  } else if (values->type->id() == TypeId::kBool) {
    data = Bools(values, shape);
  } else if (values->type->id() == TypeId::kDate32) {
    data = Dates(values, shape);
  } else {
    data = Objects(values, shape);
  }
  if (values->null_count() == 0) return data;
  return Masked(data, values, shape);
}

py::object ValueToPython(const ArrayPtr& array, std::int64_t i) {
  if (array->IsNull(i)) return py::none();
  const auto id = array->type->id();
  switch (id) {
    case TypeId::kNull:
      return py::none();
    case TypeId::kBool:
      return py::module_::import("numpy").attr("bool_")(
          array::GetBit(array->buffers[1]->data(), array->offset + i));
    case TypeId::kUtf8:
      return py::str(std::string(Bytes<std::int32_t>(array, i)));
    case TypeId::kLargeUtf8:
      return py::str(std::string(Bytes<std::int64_t>(array, i)));
    case TypeId::kBinary:
      return py::bytes(std::string(Bytes<std::int32_t>(array, i)));
    case TypeId::kLargeBinary:
      return py::bytes(std::string(Bytes<std::int64_t>(array, i)));
    case TypeId::kFixedSizeBinary: {
      const auto width = array->type->fixed_size();
      const auto* v = array->buffers[1]->data() + (array->offset + i) * width;
      return py::bytes(reinterpret_cast<const char*>(v), static_cast<std::size_t>(width));
    }
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const int width = id == TypeId::kDecimal128 ? 16 : 32;
      const auto* v = array->buffers[1]->data() + (array->offset + i) * width;
      return py::module_::import("decimal").attr("Decimal")(
          array::DecimalToString(v, width, array->type->scale()));
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
      return ListValue(array, i);
    case TypeId::kStruct:
      return StructValue(array, i);
    default: {  // fixed-width numbers and times: element 0 of a one-element numpy array
      auto one = Unwrap(array::Slice(array, i, 1));
      return ArrayToNumpy(one, {1}).attr("copy")().attr("__getitem__")(0);
    }
  }
}

}  // namespace lance_nd::python
