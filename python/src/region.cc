#include "region.h"

#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>

#include "attributes.h"
#include "lance_nd/api/region.h"
#include "numpy_out.h"
#include "status.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;

py::list Datasets(const Table& table) {
  auto datasets = [&] {
    py::gil_scoped_release release;
    return Unwrap(ListDatasets(table));
  }();
  py::list out;
  for (const auto& d : datasets) {
    py::dict info;
    info["id"] = d.id;
    info["chunk_count"] = d.chunk_count;
    info["rows"] = d.rows;
    if (d.first_row) info["first_row"] = *d.first_row;
    if (d.layout) {
      info["dims"] = d.layout->dim_names;
      info["shape"] = d.layout->dim_sizes;
      info["unlimited_dims"] = d.layout->unlimited_dims;
    }
    out.append(info);
  }
  return out;
}

// (global attributes, [(name, dims, shape, dtype, attrs), ...]) of a row, without its values.
py::tuple RowLayout(const Table& table, std::uint64_t row) {
  auto layout = [&] {
    py::gil_scoped_release release;
    return Unwrap(ReadRowLayout(table, row));
  }();
  py::list arrays;
  for (const nd::NdArrayLayout& a : layout.arrays) {
    arrays.append(py::make_tuple(a.name, py::tuple(py::cast(a.dimensions.names())),
                                 py::tuple(py::cast(a.dimensions.sizes())), DtypeOf(*a.value_type),
                                 AttributesToDict(a.attributes)));
  }
  return py::make_tuple(AttributesToDict(layout.global_attributes), std::move(arrays));
}

// (dim, is_index, a, b): an index `a`, or the range [a, b).
using Selector = std::tuple<std::string, bool, std::int64_t, std::int64_t>;

py::tuple Region(const Table& table, const std::string& id, const std::string& variable,
                 const std::vector<Selector>& selectors) {
  RegionSelection selection;
  for (const auto& [dim, is_index, a, b] : selectors) {
    selection.emplace_back(dim, is_index ? DimSelector::Index(a) : DimSelector::Range(a, b));
  }
  RegionReadStats stats;
  auto array = [&] {
    py::gil_scoped_release release;
    return Unwrap(ReadRegion(table, id, variable, selection, &stats));
  }();
  py::dict counts;
  counts["table_rows"] = stats.table_rows;
  counts["dataset_rows"] = stats.dataset_rows;
  counts["rows_read"] = stats.rows_read;
  counts["rows_decoded"] = stats.rows_decoded;
  return py::make_tuple(std::move(array), counts);
}

}  // namespace

void RegisterRegion(py::module_& m) {
  m.def("_list_datasets", &Datasets);
  m.def("_read_region", &Region);
  m.def("_row_layout", &RowLayout, py::arg("table"), py::arg("row"),
        "(global_attrs, [(name, dims, shape, dtype, attrs), ...]) of a row, read without the "
        "values of its arrays.");
  m.def("set_region_cache_capacity", &SetRegionCacheCapacity, py::arg("nbytes"),
        "Bytes of decoded chunk rows that region reads (the xarray backend) keep in memory, "
        "over the process; 0 keeps none.");
  m.def(
      "clear_read_caches",
      [] {
        py::gil_scoped_release release;
        ClearReadCaches();
      },
      "Drop what reads keep in memory across calls: parsed manifests, data-file metadata, "
      "dataset indexes and decoded chunk rows.");
}

}  // namespace lance_nd::python
