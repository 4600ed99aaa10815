#include "attributes.h"

#include <pybind11/numpy.h>

#include <string>

#include "lance_nd/array/buffer.h"
#include "numpy_in.h"
#include "numpy_out.h"
#include "status.h"

namespace lance_nd::python {
namespace {

// A one-element list array holding `items`.
array::ArrayPtr AsList(const array::ArrayPtr& items) {
  const std::int32_t offsets[2] = {0, static_cast<std::int32_t>(items->length)};
  return array::MakeArrayData(array::List(items->type), 1,
                              {nullptr, array::Buffer::Copy(offsets, sizeof(offsets))}, {items}, 0);
}

array::ArrayPtr AttributeValue(const std::string& key, const py::handle& value) {
  if (value.is_none()) {
    throw StatusError(Status::InvalidArgument("attribute '", key,
                                              "' is None: an attribute holds one value; drop "
                                              "the key instead"));
  }
  py::module_ np = py::module_::import("numpy");
  py::array values = np.attr("asarray")(value);
  const bool is_list = py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) ||
                       (py::isinstance<py::array>(value) && values.ndim() > 0);
  if (values.ndim() > 1) {
    throw StatusError(Status::InvalidArgument("attribute '", key, "' has ", values.ndim(),
                                              " dimensions: an attribute is one value or a 1-D "
                                              "list"));
  }
  auto items = ArrayFromNumpy(PrepareArray(values.attr("reshape")(-1)));
  if (is_list) return AsList(items);
  if (items->null_count() != 0) {
    throw StatusError(Status::InvalidArgument("attribute '", key, "' is missing (NaT / None)",
                                              ": an attribute holds one value; drop the key"));
  }
  return items;
}

}  // namespace

py::dict AttributesToDict(const nd::Attributes& attributes) {
  py::dict out;
  for (const auto& [key, value] : attributes.entries()) {
    out[py::str(key)] = ValueToPython(value, 0);
  }
  return out;
}

nd::Attributes AttributesFromDict(const py::handle& mapping) {
  nd::Attributes attributes;
  if (mapping.is_none()) return attributes;
  const py::dict entries(py::reinterpret_borrow<py::object>(mapping));
  for (auto item : entries) {
    if (!py::isinstance<py::str>(item.first)) {
      throw StatusError(Status::InvalidArgument(
          "attribute key ", py::repr(item.first).cast<std::string>(), " is not a str"));
    }
    auto key = item.first.cast<std::string>();
    ThrowIfError(attributes.SetValue(key, AttributeValue(key, item.second)));
  }
  return attributes;
}

}  // namespace lance_nd::python
