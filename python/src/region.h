// Region reads (api/region.h) for the xarray backend: the datasets of a table and hyperslabs
// of one variable, reading only the chunk rows that overlap.
#pragma once

#include <pybind11/pybind11.h>

namespace lance_nd::python {

void RegisterRegion(pybind11::module_& m);

}  // namespace lance_nd::python
