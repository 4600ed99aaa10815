// The Arrow PyCapsule interface: encoded rows leave as an ArrowArrayStream capsule (zero-copy),
// and any object with __arrow_c_stream__ / __arrow_c_array__ holding rows in the nd encoding
// is decoded into nd record batches one at a time.
#pragma once

#include <pybind11/pybind11.h>

#include "lance_nd/array/c_data.h"

namespace lance_nd::python {

/// \brief A PyCapsule "arrow_array_stream" exporting `source`'s batches of `schema`.
pybind11::capsule ExportStreamCapsule(array::SchemaPtr schema, array::RecordBatchSource source);

void RegisterArrowRows(pybind11::module_& m);

}  // namespace lance_nd::python
