// Table, its scans (iterators of NdRecordBatch and Arrow streams of encoded rows) and its
// maintenance calls. The GIL is released while the library reads, commits or rewrites.
#pragma once

#include <pybind11/pybind11.h>

namespace lance_nd::python {

void RegisterTable(pybind11::module_& m);

}  // namespace lance_nd::python
