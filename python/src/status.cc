#include "status.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace lance_nd::python {
namespace {

// The name of the lance_nd.errors class for a status: the finer kind first, then the code.
const char* ExceptionName(const Status& status) {
  switch (status.kind()) {
    case ErrorKind::kTableNotFound:
      return "TableNotFoundError";
    case ErrorKind::kTableExists:
      return "TableExistsError";
    default:
      break;
  }
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
      return "InvalidArgumentError";
    case StatusCode::kSchemaMismatch:
      return "SchemaMismatchError";
    case StatusCode::kAlreadyExists:
      return "TableExistsError";
    case StatusCode::kInvalidTable:
      return "InvalidTableError";
    case StatusCode::kCommitConflict:
      return "CommitConflictError";
    default:
      return "LanceNdError";
  }
}

void Raise(const Status& status) {
  py::object errors = py::module_::import("lance_nd.errors");
  py::object cls = errors.attr(ExceptionName(status));
  py::object error = cls(std::string(status.message()));
  error.attr("code") = std::string(StatusCodeName(status.code()));
  error.attr("kind") = std::string(ErrorKindName(status.kind()));
  error.attr("retryable") = status.retryable();
  PyErr_SetObject(cls.ptr(), error.ptr());
}

}  // namespace

void RegisterErrorTranslator() {
  // NOLINTNEXTLINE(performance-unnecessary-value-param): pybind11 fixes the signature
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      Raise(e.status());
    }
  });
}

}  // namespace lance_nd::python
