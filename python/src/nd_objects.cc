#include "nd_objects.h"

#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "attributes.h"
#include "lance_nd/api/chunking.h"
#include "lance_nd/nd/record_batch.h"
#include "numpy_in.h"
#include "numpy_out.h"
#include "status.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;
using nd::NdArrowArray;
using nd::NdRecordBatch;

NdArrowArray MakeNdArray(const py::object& dims, const py::object& data, const py::object& attrs) {
  auto prepared = PrepareArray(data);
  std::vector<std::string> names;
  if (py::isinstance<py::str>(dims)) {
    names.push_back(dims.cast<std::string>());
  } else {
    names = dims.cast<std::vector<std::string>>();
  }
  if (static_cast<py::ssize_t>(names.size()) != prepared.data.ndim()) {
    throw StatusError(
        Status::InvalidArgument("dims name ", names.size(), " dimension(s) but the data has ",
                                prepared.data.ndim(), ": give one name per axis of the data"));
  }
  std::vector<std::uint64_t> sizes;
  for (py::ssize_t d = 0; d < prepared.data.ndim(); ++d) {
    sizes.push_back(static_cast<std::uint64_t>(prepared.data.shape(d)));
  }
  auto dimensions = Unwrap(nd::Dimensions::Make(names, sizes));
  return Unwrap(NdArrowArray::Make(ArrayFromNumpy(prepared), std::move(dimensions),
                                   AttributesFromDict(attrs)));
}

py::tuple Tuple(const std::vector<std::string>& items) { return py::cast(items); }

py::tuple ShapeOf(const NdArrowArray& a) {
  py::list out;
  for (auto s : a.shape()) out.append(s);
  return py::tuple(out);
}

NdRecordBatch MakeBatch(const py::object& arrays, const py::object& attrs) {
  std::vector<std::pair<std::string, NdArrowArray>> columns;
  if (!arrays.is_none()) {
    for (auto item : py::dict(arrays)) {
      columns.emplace_back(item.first.cast<std::string>(), item.second.cast<NdArrowArray>());
    }
  }
  return Unwrap(
      NdRecordBatch::FromArrays(std::move(columns), AttributesFromDict(attrs, "global attribute")));
}

const NdArrowArray& Column(const NdRecordBatch& batch, const std::string& name) {
  const auto* column = batch.GetColumn(name);
  if (column == nullptr) throw py::key_error(name);
  return *column;
}

std::vector<std::string> Names(const NdRecordBatch& batch) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(batch.num_columns()));
  for (int i = 0; i < batch.num_columns(); ++i) names.push_back(batch.column_name(i));
  return names;
}

// Everything to_xarray needs, in one call: (global attributes, [(name, dims, values, attrs)]).
py::tuple Parts(const NdRecordBatch& batch) {
  py::list arrays;
  for (int i = 0; i < batch.num_columns(); ++i) {
    const NdArrowArray& a = batch.column(i);
    arrays.append(py::make_tuple(batch.column_name(i), Tuple(a.dimensions().names()),
                                 ArrayToNumpy(a.values(), a.shape()),
                                 AttributesToDict(a.attributes())));
  }
  return py::make_tuple(AttributesToDict(batch.attributes()), std::move(arrays));
}

py::object ChunkInfo(const NdRecordBatch& batch) {
  auto info = Unwrap(ReadChunkAttributes(batch.attributes()));
  if (!info) return py::none();
  py::dict out;
  out["id"] = info->layout.id;
  out["dims"] = Tuple(info->layout.dim_names);
  out["shape"] = py::tuple(py::cast(info->layout.dim_sizes));
  out["unlimited_dims"] = Tuple(info->layout.unlimited_dims);
  out["offset"] = py::tuple(py::cast(info->position.offset));
  out["index"] = info->position.index;
  out["count"] = info->position.count;
  return out;
}

void RegisterNdArray(py::module_& m) {
  py::class_<NdArrowArray>(m, "NdArray", "One N-dimensional array: values, named dims, attrs.")
      .def(py::init(&MakeNdArray), py::arg("dims"), py::arg("data"), py::arg("attrs") = py::none(),
           "An array from numpy-like data (a numpy.ma.MaskedArray gives nulls; NaT and None "
           "are nulls too) and one dimension name per axis.")
      .def_property_readonly("dims",
                             [](const NdArrowArray& a) { return Tuple(a.dimensions().names()); })
      .def_property_readonly("shape", &ShapeOf)
      .def_property_readonly("attrs",
                             [](const NdArrowArray& a) { return AttributesToDict(a.attributes()); })
      .def_property_readonly("dtype",
                             [](const NdArrowArray& a) { return DtypeOf(*a.value_type()); })
      .def_property_readonly("arrow_type",
                             [](const NdArrowArray& a) { return a.value_type()->ToString(); })
      .def_property_readonly("null_count",
                             [](const NdArrowArray& a) { return a.values()->null_count(); })
      .def(
          "to_numpy", [](const NdArrowArray& a) { return ArrayToNumpy(a.values(), a.shape()); },
          "The values as a numpy array of `shape`: a read-only view of the library's buffer "
          "for numbers and times, a numpy.ma.MaskedArray where there are nulls.")
      .def("__eq__", [](const NdArrowArray& a, const NdArrowArray& b) { return a.Equals(b); })
      .def("__repr__", [](const NdArrowArray& a) { return "NdArray(" + a.ToString() + ")"; });
}

void RegisterNdRecordBatch(py::module_& m) {
  py::class_<NdRecordBatch>(m, "NdRecordBatch",
                            "Named nd arrays on one grid plus global attributes: one table row.")
      .def(py::init(&MakeBatch), py::arg("arrays") = py::none(), py::arg("attrs") = py::none(),
           "A batch from a dict of NdArray and a dict of global attributes.")
      .def_property_readonly(
          "global_attrs", [](const NdRecordBatch& b) { return AttributesToDict(b.attributes()); })
      .def_property_readonly("dims",
                             [](const NdRecordBatch& b) {
                               py::dict out;
                               for (const auto& d : b.target().dims()) {
                                 out[py::str(d.name)] = d.size;
                               }
                               return out;
                             })
      .def("keys", &Names)
      .def("__iter__", [](const NdRecordBatch& b) { return py::iter(py::cast(Names(b))); })
      .def("__len__", &NdRecordBatch::num_columns)
      .def("__contains__",
           [](const NdRecordBatch& b, const std::string& name) { return b.ColumnIndex(name) >= 0; })
      .def("__getitem__", &Column)
      .def("_parts", &Parts,
           "(global_attrs, [(name, dims, values, attrs), ...]): each array's to_numpy() "
           "values, for to_xarray.")
      .def("chunk_info", &ChunkInfo,
           "The dataset/chunk keys of the global attributes (docs/FORMAT.md §3.6) as a dict, "
           "or None for a row that is not a chunk row.")
      .def(
          "_with_global_attrs",
          [](const NdRecordBatch& b, const py::object& attrs) {
            return b.WithAttributes(AttributesFromDict(attrs, "global attribute"));
          },
          py::arg("attrs"))
      .def("__eq__", [](const NdRecordBatch& a, const NdRecordBatch& b) { return a.Equals(b); })
      .def("__repr__",
           [](const NdRecordBatch& b) { return "NdRecordBatch(" + b.ToString() + ")"; });
}

// The chunk grid of a dataset (api/chunking.h), for the chunks= writer.
void RegisterChunkGrid(py::module_& m) {
  py::class_<ChunkGrid>(m, "_ChunkGrid")
      .def(py::init([](std::string id, std::vector<std::string> dims,
                       std::vector<std::uint64_t> sizes, std::vector<std::string> unlimited,
                       std::vector<std::pair<std::string, std::uint64_t>> chunk_sizes) {
        DatasetLayout layout{std::move(id), std::move(dims), std::move(sizes),
                             std::move(unlimited)};
        return Unwrap(ChunkGrid::Make(std::move(layout), chunk_sizes));
      }))
      .def_property_readonly("num_chunks", &ChunkGrid::num_chunks)
      .def_property_readonly("chunk_sizes", &ChunkGrid::chunk_sizes)
      .def("offset", [](const ChunkGrid& g, std::uint64_t i) { return g.Position(i).offset; })
      .def("extent", &ChunkGrid::Extent)
      .def("is_split", &ChunkGrid::IsSplit)
      .def("apply", [](const ChunkGrid& g, const NdRecordBatch& batch, std::uint64_t index) {
        auto attributes = batch.attributes();
        ThrowIfError(SetChunkAttributes(g.layout(), g.Position(index), &attributes));
        return batch.WithAttributes(std::move(attributes));
      });
}

}  // namespace

void RegisterNdObjects(py::module_& m) {
  RegisterNdArray(m);
  RegisterNdRecordBatch(m);
  RegisterChunkGrid(m);
}

}  // namespace lance_nd::python
