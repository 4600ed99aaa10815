// Attributes <-> dict. Python values are typed by numpy: int -> int64, float -> float64, numpy
// scalars keep their dtype, str -> utf8, bytes -> binary, a list / tuple / 1-D array -> a list
// attribute of the numpy dtype of its items.
#pragma once

#include <pybind11/pybind11.h>

#include "lance_nd/nd/attributes.h"

namespace lance_nd::python {

namespace py = pybind11;

py::dict AttributesToDict(const nd::Attributes& attributes);
/// \brief StatusError (InvalidArgument) for a None value, a non-str key or an array of more
/// than one dimension.
nd::Attributes AttributesFromDict(const py::handle& mapping);

}  // namespace lance_nd::python
