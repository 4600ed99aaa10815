#include "arrow_c.h"

#include <memory>
#include <optional>
#include <vector>

#include "lance_nd/nd/row_encoding.h"
#include "status.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;

void ReleaseStreamCapsule(PyObject* capsule) {
  auto* stream =
      static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (stream == nullptr) {
    PyErr_Clear();
    return;
  }
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

template <typename T>
T* CapsulePointer(const py::handle& capsule, const char* name) {
  auto* pointer = PyCapsule_GetPointer(capsule.ptr(), name);
  if (pointer == nullptr) {
    PyErr_Clear();
    throw StatusError(Status::InvalidArgument("expected a PyCapsule named '", name,
                                              "' (the Arrow PyCapsule interface)"));
  }
  return static_cast<T*>(pointer);
}

// Rows decoded from encoded Arrow batches: a stream, or one batch.
class ArrowRows {
 public:
  static ArrowRows FromStream(const py::handle& capsule) {
    auto* stream = CapsulePointer<ArrowArrayStream>(capsule, "arrow_array_stream");
    ArrowRows rows;
    rows.reader_ = Unwrap(array::CStreamReader::Make(stream));
    rows.decoder_.emplace(Unwrap(nd::RowDecoder::Make(rows.reader_->schema())));
    return rows;
  }
  static ArrowRows FromArray(const py::handle& schema_capsule, const py::handle& array_capsule) {
    auto* schema = CapsulePointer<ArrowSchema>(schema_capsule, "arrow_schema");
    auto* array = CapsulePointer<ArrowArray>(array_capsule, "arrow_array");
    ArrowRows rows;
    auto batch = Unwrap(array::ImportRecordBatch(array, schema));
    rows.decoder_.emplace(Unwrap(nd::RowDecoder::Make(batch->schema())));
    rows.batch_ = std::move(batch);
    return rows;
  }

  /// \brief The next row; nullopt at the end.
  std::optional<nd::NdRecordBatch> Next() {
    while (!batch_ || row_ >= batch_->num_rows()) {
      if (!reader_) return std::nullopt;  // one batch, read
      array::RecordBatchPtr next;
      {
        py::gil_scoped_release release;
        next = Unwrap(reader_->ReadNext());
      }
      if (!next) return std::nullopt;
      ThrowIfError(decoder_->CheckBatch(*next));
      batch_ = std::move(next);
      row_ = 0;
    }
    return Unwrap(decoder_->DecodeCheckedRow(*batch_, row_++));
  }

 private:
  std::unique_ptr<array::CStreamReader> reader_;
  std::optional<nd::RowDecoder> decoder_;
  array::RecordBatchPtr batch_;
  std::int64_t row_ = 0;
};

}  // namespace

py::capsule ExportStreamCapsule(array::SchemaPtr schema, array::RecordBatchSource source) {
  auto stream = std::make_unique<ArrowArrayStream>();
  ThrowIfError(array::ExportRecordBatchStream(std::move(schema), std::move(source), stream.get()));
  PyObject* capsule = PyCapsule_New(stream.get(), "arrow_array_stream", &ReleaseStreamCapsule);
  if (capsule == nullptr) {
    stream->release(stream.get());
    throw py::error_already_set();
  }
  (void)stream.release();  // the capsule owns the stream now
  return py::reinterpret_steal<py::capsule>(capsule);
}

void RegisterArrowRows(py::module_& m) {
  py::class_<ArrowRows>(m, "_ArrowRows")
      .def_static("from_stream", &ArrowRows::FromStream)
      .def_static("from_array", &ArrowRows::FromArray)
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", [](ArrowRows& rows) {
        auto row = rows.Next();
        if (!row) throw py::stop_iteration();
        return std::move(*row);
      });
}

}  // namespace lance_nd::python
