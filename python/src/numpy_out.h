// Arrow -> numpy: fixed-width values are numpy views of the library's buffers (no copy); bools,
// dates and text are converted. Arrays with nulls come back as numpy.ma.MaskedArray.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "lance_nd/array/array_data.h"

namespace lance_nd::python {

namespace py = pybind11;

/// \brief Keeps a library buffer alive while numpy views it (the `.base` of to_numpy's arrays).
struct BufferRef {
  array::BufferPtr buffer;
};
void RegisterBufferRef(py::module_& m);

/// \brief The numpy dtype to_numpy gives for `type` (object for text and nested types).
py::dtype DtypeOf(const array::DataType& type);

/// \brief `values` as a numpy array of `shape` (C order).
py::object ArrayToNumpy(const array::ArrayPtr& values, const std::vector<std::uint64_t>& shape);

/// \brief Element `i` (relative to the array's offset) as a Python value: numpy scalars for
/// numbers, bools and times, str, bytes, a numpy array for a list of numbers, a list otherwise,
/// a dict for a struct, decimal.Decimal, None for a null.
py::object ValueToPython(const array::ArrayPtr& array, std::int64_t i);

}  // namespace lance_nd::python
