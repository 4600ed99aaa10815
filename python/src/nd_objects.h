// The nd model in Python: NdArray (one named-dimension array) and NdRecordBatch (named arrays
// on one grid plus global attributes, one table row).
#pragma once

#include <pybind11/pybind11.h>

namespace lance_nd::python {

void RegisterNdObjects(pybind11::module_& m);

}  // namespace lance_nd::python
