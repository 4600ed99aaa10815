#include "attributes.h"

#include <pybind11/numpy.h>

#include <string>
#include <string_view>

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

constexpr const char* kSupported =
    "an attribute value is one bool, int, float, str, bytes or numpy scalar, or a 1-D list, "
    "tuple or numpy array of items of one of these types (ints and floats may mix)";

// The kind of one attribute value or list item, as a user names it ("int", "str", ...), or
// "" for one no attribute can hold (dict, complex, nested list, other objects).
std::string ItemKind(const py::handle& item) {
  if (PyBool_Check(item.ptr())) return "bool";
  if (PyLong_Check(item.ptr())) return "int";
  if (PyFloat_Check(item.ptr())) return "float";
  if (PyUnicode_Check(item.ptr())) return "str";
  if (PyBytes_Check(item.ptr())) return "bytes";
  py::module_ np = py::module_::import("numpy");
  if (py::isinstance(item, np.attr("generic"))) {
    const auto kind = item.attr("dtype").attr("kind").cast<std::string>();
    if (kind == "b") return "bool";
    if (kind == "i" || kind == "u") return "int";
    if (kind == "f") return "float";
    if (kind == "U") return "str";
    if (kind == "S") return "bytes";
    if (kind == "M") return "datetime64";
    if (kind == "m") return "timedelta64";
  }
  return "";
}

// Ints and floats are one kind in a list (numbers, as numpy and netCDF make them float64).
std::string ListKind(const std::string& kind) {
  return kind == "int" || kind == "float" ? std::string("number") : kind;
}

[[noreturn]] void Refuse(std::string_view owner, const std::string& key, const std::string& what,
                         std::string_view hint) {
  throw StatusError(Status::InvalidArgument(owner, " '", key, "' ", what, ": ", kSupported,
                                            hint.empty() ? "" : "; ", hint));
}

// Refuses a value (or a list item) no attribute holds, saying what is supported.
void CheckItem(std::string_view owner, const std::string& key, const py::handle& item,
               bool in_list) {
  const std::string where = in_list ? "holds " : "is ";
  if (py::isinstance<py::dict>(item)) {
    Refuse(owner, key, where + "a dict",
           "store each entry as its own attribute, or the dict "
           "as a JSON str");
  }
  if (PyComplex_Check(item.ptr()) ||
      (py::isinstance(item, py::module_::import("numpy").attr("complexfloating")))) {
    Refuse(owner, key, where + "a complex number",
           "store the real and imaginary parts as two attributes");
  }
  if (in_list && (py::isinstance<py::list>(item) || py::isinstance<py::tuple>(item) ||
                  py::isinstance<py::array>(item))) {
    Refuse(owner, key, "is a nested list", "");
  }
  if (in_list && item.is_none()) {
    Refuse(owner, key, "holds None", "drop the item, or the key");
  }
  if (ItemKind(item).empty()) {
    Refuse(owner, key, where + "an object of type " + std::string(Py_TYPE(item.ptr())->tp_name),
           "");
  }
}

array::ArrayPtr AttributeValue(std::string_view owner, const std::string& key,
                               const py::handle& value) {
  if (value.is_none()) {
    throw StatusError(Status::InvalidArgument(owner, " '", key,
                                              "' is None: an attribute holds one value; drop "
                                              "the key instead"));
  }
  const bool is_sequence = py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value);
  const bool is_ndarray = py::isinstance<py::array>(value);
  if (is_sequence) {
    // numpy would make [1, "a"] the str list ["1", "a"]: one kind of item per list.
    std::string first_kind;
    std::string first_type;
    for (auto item : py::reinterpret_borrow<py::sequence>(value)) {
      CheckItem(owner, key, item, true);
      const auto kind = ItemKind(item);
      if (first_kind.empty()) {
        first_kind = ListKind(kind);
        first_type = kind;
      } else if (ListKind(kind) != first_kind) {
        Refuse(owner, key, "mixes items of types " + first_type + " and " + kind,
               "give a list of one type, or store the items as separate attributes");
      }
    }
  } else if (!is_ndarray) {
    CheckItem(owner, key, value, false);
  }
  py::module_ np = py::module_::import("numpy");
  py::array values = np.attr("asarray")(value);
  const bool is_list = is_sequence || (is_ndarray && values.ndim() > 0);
  if (values.ndim() > 1) {
    throw StatusError(Status::InvalidArgument(owner, " '", key, "' has ", values.ndim(),
                                              " dimensions: an attribute is one value or a 1-D "
                                              "list"));
  }
  const auto dtype_kind = values.attr("dtype").attr("kind").cast<std::string>();
  if (dtype_kind == "c") {
    Refuse(owner, key, "is a complex array",
           "store the real and imaginary parts as two attributes");
  }
  if (is_ndarray && dtype_kind == "O") {
    // An object array's items are checked as a list's are.
    return AttributeValue(owner, key, values.attr("tolist")());
  }
  auto items = ArrayFromNumpy(PrepareArray(values.attr("reshape")(-1)));
  if (is_list) return AsList(items);
  if (items->null_count() != 0) {
    throw StatusError(Status::InvalidArgument(owner, " '", key, "' is missing (NaT / None)",
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

nd::Attributes AttributesFromDict(const py::handle& mapping, std::string_view owner) {
  nd::Attributes attributes;
  if (mapping.is_none()) return attributes;
  const py::dict entries(py::reinterpret_borrow<py::object>(mapping));
  for (auto item : entries) {
    if (!py::isinstance<py::str>(item.first)) {
      throw StatusError(Status::InvalidArgument(
          owner, " key ", py::repr(item.first).cast<std::string>(), " is not a str"));
    }
    auto key = item.first.cast<std::string>();
    ThrowIfError(attributes.SetValue(key, AttributeValue(owner, key, item.second)));
  }
  return attributes;
}

}  // namespace lance_nd::python
