// Attributes <-> dict. Python values are typed by numpy: int -> int64, float -> float64, numpy
// scalars keep their dtype, str -> utf8, bytes -> binary, a list / tuple / 1-D array -> a list
// attribute of the numpy dtype of its items.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

#include "lance_nd/nd/attributes.h"

namespace lance_nd::python {

namespace py = pybind11;

py::dict AttributesToDict(const nd::Attributes& attributes);
/// \brief StatusError (InvalidArgument) for a None value, a non-str key, an array of more
/// than one dimension, a list mixing item types (ints and floats may mix), a dict, a complex
/// number or another object no attribute holds. Messages name the attribute as
/// "<owner> '<key>'" (owner "attribute" or "global attribute") and say what is supported.
nd::Attributes AttributesFromDict(const py::handle& mapping, std::string_view owner = "attribute");

}  // namespace lance_nd::python
