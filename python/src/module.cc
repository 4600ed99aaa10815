// lance_nd._lance_nd: the library's public C++ API for the lance_nd Python package.
#include <pybind11/pybind11.h>

#include "arrow_c.h"
#include "lance_nd/version.h"
#include "nd_objects.h"
#include "numpy_out.h"
#include "region.h"
#include "status.h"
#include "table.h"
#include "writer.h"

PYBIND11_MODULE(_lance_nd, m) {
  m.doc() = "lance-nd: N-dimensional arrays in Lance tables (native part).";
  m.attr("__version__") = lance_nd::kVersionString;
  lance_nd::python::RegisterErrorTranslator();
  lance_nd::python::RegisterBufferRef(m);
  lance_nd::python::RegisterNdObjects(m);
  lance_nd::python::RegisterArrowRows(m);
  lance_nd::python::RegisterTable(m);
  lance_nd::python::RegisterWriters(m);
  lance_nd::python::RegisterRegion(m);
}
