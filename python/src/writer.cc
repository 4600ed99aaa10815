#include "writer.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/staged.h"
#include "status.h"
#include "write_options.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;

// An NdWriter; after finish or abort every call is InvalidArgument.
class Writer {
 public:
  static Writer Create(const std::string& uri, const py::dict& options, bool append) {
    auto parsed = ParseWriteOptions(options);
    py::gil_scoped_release release;
    auto writer = append ? NdWriter::Append(uri, parsed) : NdWriter::Create(uri, parsed);
    return Writer(std::make_unique<NdWriter>(Unwrap(std::move(writer))));
  }

  void Write(const std::vector<nd::NdRecordBatch>& rows) {
    auto& w = Open();
    py::gil_scoped_release release;
    ThrowIfError(w.Write(rows));
  }
  Table Finish() {
    auto& w = Open();
    auto table = [&] {
      py::gil_scoped_release release;
      return w.Finish();
    }();
    writer_.reset();
    return Unwrap(std::move(table));
  }
  void Abort() {
    if (!writer_) return;  // finished or aborted: nothing left to drop
    Status status;
    {
      py::gil_scoped_release release;
      status = writer_->Abort();
    }
    writer_.reset();
    ThrowIfError(status);
  }
  std::uint64_t rows_written() const { return writer_ ? writer_->rows_written() : rows_done_; }
  bool closed() const { return !writer_; }

 private:
  explicit Writer(std::unique_ptr<NdWriter> writer) : writer_(std::move(writer)) {}
  NdWriter& Open() {
    if (!writer_) {
      throw StatusError(Status::InvalidArgument(
          "the writer was finished or aborted: create a new one with lance_nd.create / append"));
    }
    rows_done_ = writer_->rows_written();
    return *writer_;
  }
  std::unique_ptr<NdWriter> writer_;
  std::uint64_t rows_done_ = 0;
};

StagedFragments Stage(const std::string& uri, const std::vector<nd::NdRecordBatch>& rows,
                      const py::dict& options) {
  auto parsed = ParseWriteOptions(options);
  py::gil_scoped_release release;
  return Unwrap(StageRows(uri, rows, parsed));
}

Table Commit(const std::string& uri, const std::vector<StagedFragments>& staged,
             const py::dict& options) {
  auto parsed = ParseWriteOptions(options);
  py::gil_scoped_release release;
  return Unwrap(CommitStaged(uri, staged, parsed));
}

StagedFragments FromJson(const std::string& json) {
  return Unwrap(StagedFragments::FromJson(json));
}

}  // namespace

void RegisterWriters(py::module_& m) {
  py::class_<Writer>(m, "_Writer")
      .def_static("create", &Writer::Create)
      .def("write", &Writer::Write)
      .def("finish", &Writer::Finish)
      .def("abort", &Writer::Abort)
      .def_property_readonly("rows_written", &Writer::rows_written)
      .def_property_readonly("closed", &Writer::closed);
  py::class_<StagedFragments>(m, "StagedFragments",
                              "Fragments written but not committed; picklable (JSON).")
      .def_property_readonly("num_rows", &StagedFragments::num_rows)
      .def_property_readonly("num_fragments", &StagedFragments::num_fragments)
      .def("to_json", &StagedFragments::ToJson)
      .def_static("from_json", &FromJson)
      .def(py::pickle([](const StagedFragments& s) { return s.ToJson(); },
                      [](const std::string& json) { return FromJson(json); }))
      .def("__repr__", [](const StagedFragments& s) {
        return "StagedFragments(rows=" + std::to_string(s.num_rows()) +
               ", fragments=" + std::to_string(s.num_fragments()) + ")";
      });
  m.def("_stage", &Stage);
  m.def("_commit_staged", &Commit);
}

}  // namespace lance_nd::python
