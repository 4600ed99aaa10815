// Writers: NdWriter (any number of writes, one commit at finish), and staged writes (stage in
// any process, commit_staged once). The GIL is released while rows are encoded and written.
#pragma once

#include <pybind11/pybind11.h>

namespace lance_nd::python {

void RegisterWriters(pybind11::module_& m);

}  // namespace lance_nd::python
