// numpy -> Arrow: the values of a numpy array as an Arrow array (a copy: the library owns what
// it writes, so no Python object has to outlive the GIL-free write).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/type.h"

namespace lance_nd::python {

namespace py = pybind11;

/// \brief A numpy array made ready for ArrayFromNumpy by lance_nd._convert.prepare: C order,
/// native byte order, text as object arrays; `mask` is None or a bool array (True = null).
struct PreparedArray {
  py::array data;
  py::object mask;
};
PreparedArray PrepareArray(py::handle data);

/// \brief The values of `prepared` flattened in C order. Nulls: the mask, NaT, None.
/// StatusError (InvalidArgument) for a dtype lance-nd does not store.
array::ArrayPtr ArrayFromNumpy(const PreparedArray& prepared);

/// \brief The Arrow type of a numpy dtype (bool, integers, floats, datetime64 / timedelta64 in
/// s, ms, us or ns, str / object -> utf8, bytes -> binary).
array::DataTypePtr TypeFromDtype(const py::dtype& dtype);

}  // namespace lance_nd::python
