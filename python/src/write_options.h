// WriteOptions from the keyword arguments of lance_nd.create / append / stage (a dict).
#pragma once

#include <pybind11/pybind11.h>

#include "lance_nd/api/options.h"

namespace lance_nd::python {

/// \brief Keys: mode, casting, stats, target_fragment_bytes, write_parallelism,
/// column_defaults, column_options; None means the library's default. StatusError
/// (InvalidArgument) for an unknown key or value, naming the accepted ones.
WriteOptions ParseWriteOptions(const pybind11::dict& options);

}  // namespace lance_nd::python
