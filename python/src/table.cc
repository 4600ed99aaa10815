#include "table.h"

#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arrow_c.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/scan.h"
#include "numpy_in.h"
#include "status.h"

namespace lance_nd::python {
namespace {

namespace py = pybind11;

// What Table.scan asked for; each iteration or export opens its own reader.
struct Scan {
  Table table;
  std::optional<std::vector<std::string>> project;
  std::string filter;
  std::string prune;
  std::optional<std::uint64_t> limit;

  Scanner MakeScanner() const {
    Scanner scanner = table.Scan();
    scanner.DecodeAhead();  // rows are decoded while Python works on the ones before
    if (project) scanner.Project(*project);
    if (!filter.empty()) scanner.Filter(filter);
    if (!prune.empty()) scanner.Prune(prune);
    if (limit) scanner.Limit(*limit);
    return scanner;
  }
  // The variables read: the projection, else every variable.
  std::vector<std::string> Variables() const {
    if (project) return *project;
    std::vector<std::string> names;
    for (const auto& f : table.Variables()) names.push_back(f->name());
    return names;
  }
};

struct ScanIterator {
  NdBatchReader reader;
};

ScanIterator OpenScan(const Scan& scan) {
  py::gil_scoped_release release;
  return ScanIterator{Unwrap(scan.MakeScanner().Open())};
}

nd::NdRecordBatch NextRow(ScanIterator& it) {
  std::optional<nd::NdRecordBatch> row;
  {
    py::gil_scoped_release release;
    row = Unwrap(it.reader.Next());
  }
  if (!row) throw py::stop_iteration();
  return std::move(*row);
}

// The table's encoded schema restricted to `variables` and the global attributes.
array::SchemaPtr ProjectedSchema(const Table& table, const std::vector<std::string>& variables) {
  const std::set<std::string, std::less<>> wanted(variables.begin(), variables.end());
  std::vector<array::FieldPtr> fields;
  for (const auto& f : table.schema()->fields()) {
    if (wanted.contains(f->name()) || f->name() == nd::kGlobalAttributesField) fields.push_back(f);
  }
  return array::MakeSchema(std::move(fields), table.schema()->metadata());
}

// A plain scan: the table's encoded batches as read (zero-copy).
py::capsule ExportRaw(const Scan& scan, std::vector<std::string> columns) {
  if (scan.table.schema()->GetField(nd::kGlobalAttributesField)) {
    columns.emplace_back(nd::kGlobalAttributesField);
  }
  table::TableScanOptions options;
  options.projection = std::move(columns);
  options.batch_rows = 256;
  auto reader = std::make_shared<table::TableBatchReader>(
      Unwrap(table::ScanTable(scan.table.dataset(), options)));
  auto schema = reader->schema();
  return ExportStreamCapsule(std::move(schema), [reader]() { return reader->Next(); });
}

// A filtered, pruned or limited scan: the rows that pass, encoded again in the table's schema.
py::capsule ExportEncoded(const Scan& scan, const std::vector<std::string>& columns) {
  auto schema = ProjectedSchema(scan.table, columns);
  auto reader = std::make_shared<NdBatchReader>(OpenScan(scan).reader);
  return ExportStreamCapsule(schema, [reader, schema]() -> Result<array::RecordBatchPtr> {
    std::vector<nd::NdRecordBatch> rows;
    while (rows.size() < 256) {
      LND_ASSIGN_OR_RETURN(auto row, reader->Next());
      if (!row) break;
      rows.push_back(std::move(*row));
    }
    if (rows.empty()) return array::RecordBatchPtr{};
    return nd::EncodeRowsAs(rows, *schema);
  });
}

py::capsule ExportScan(const Scan& scan, const py::object& requested_schema) {
  if (!requested_schema.is_none()) {
    throw StatusError(Status::NotImplemented(
        "a requested schema is not supported: the rows are given in the table's encoding"));
  }
  auto columns = scan.Variables();
  const bool plain = scan.filter.empty() && scan.prune.empty() && !scan.limit;
  return plain ? ExportRaw(scan, std::move(columns)) : ExportEncoded(scan, columns);
}

py::object Timestamp(std::chrono::system_clock::time_point t) {
  const double seconds = std::chrono::duration<double>(t.time_since_epoch()).count();
  py::module_ dt = py::module_::import("datetime");
  return dt.attr("datetime").attr("fromtimestamp")(seconds, dt.attr("timezone").attr("utc"));
}

std::chrono::seconds Seconds(const py::object& older_than) {
  double seconds = py::hasattr(older_than, "total_seconds")
                       ? older_than.attr("total_seconds")().cast<double>()
                       : older_than.cast<double>();
  if (seconds < 0) {
    throw StatusError(
        Status::InvalidArgument("older_than is ", seconds, " seconds: give 0 or more seconds"));
  }
  return std::chrono::seconds(static_cast<std::int64_t>(seconds));
}

template <typename F>
auto WithoutGil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

void RegisterScan(py::module_& m) {
  py::class_<ScanIterator>(m, "_ScanIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &NextRow);
  py::class_<Scan>(m, "Scan", "A scan of one table version: iterate for NdRecordBatch rows.")
      .def("__iter__", &OpenScan)
      .def("count_rows",
           [](const Scan& s) {
             return WithoutGil([&] { return Unwrap(s.MakeScanner().CountRows()); });
           })
      .def("__arrow_c_stream__", &ExportScan, py::arg("requested_schema") = py::none(),
           "The rows in the table's encoding as an ArrowArrayStream PyCapsule.");
}

Table Open(const std::string& uri) {
  return WithoutGil([&] { return Unwrap(Table::Open(uri)); });
}

py::dict VariableTypes(const Table& t) {
  py::dict out;
  for (const auto& f : t.Variables()) out[py::str(f->name())] = f->type()->ToString();
  return out;
}

Scan MakeScan(const Table& t, std::optional<std::vector<std::string>> project,
              const std::optional<std::string>& filter, const std::optional<std::string>& prune,
              std::optional<std::uint64_t> limit) {
  return Scan{t, std::move(project), filter.value_or(""), prune.value_or(""), limit};
}

// The rows at logical indices `rows` (table order, deleted rows not counted), in that order.
std::vector<nd::NdRecordBatch> TakeRows(const Table& t, const std::vector<std::uint64_t>& rows,
                                        std::optional<std::vector<std::string>> project) {
  py::gil_scoped_release release;
  Scanner scanner = t.Scan();
  if (project) scanner.Project(std::move(*project));
  return Unwrap(scanner.Take(rows));
}

py::dict CompactTable(Table& t) {
  auto stats = WithoutGil([&] { return Unwrap(t.Compact()); });
  py::dict out;
  out["fragments_removed"] = stats.fragments_removed;
  out["fragments_added"] = stats.fragments_added;
  out["rows_rewritten"] = stats.rows_rewritten;
  out["deleted_rows_removed"] = stats.deleted_rows_removed;
  out["committed_version"] = stats.committed_version;
  return out;
}

py::dict Cleanup(Table& t, const py::object& older_than) {
  const auto seconds = Seconds(older_than);
  auto stats = WithoutGil([&] { return Unwrap(t.CleanupOldVersions(seconds)); });
  py::dict out;
  out["old_versions"] = stats.old_versions;
  out["bytes_removed"] = stats.bytes_removed;
  out["files_removed"] = stats.files_removed;
  return out;
}

py::list Versions(const Table& t) {
  auto versions = WithoutGil([&] { return Unwrap(t.Versions()); });
  py::list out;
  for (const auto& v : versions) out.append(py::make_tuple(v.version, Timestamp(v.timestamp)));
  return out;
}

void Widen(Table& t, const std::string& variable, const py::object& dtype) {
  auto type = TypeFromDtype(py::dtype::from_args(dtype));
  WithoutGil([&] {
    ThrowIfError(t.Widen(variable, type));
    return 0;
  });
}

}  // namespace

void RegisterTable(py::module_& m) {
  RegisterScan(m);
  py::class_<Table>(m, "Table", "One version of a lance-nd table.")
      .def_property_readonly("version", &Table::version)
      .def_property_readonly("uri", [](const Table& t) { return t.location().root(); })
      .def_property_readonly("has_stats", &Table::has_stats)
      .def_property_readonly("writable", &Table::writable)
      .def("variables", &VariableTypes, "Variable name -> Arrow value type, in table order.")
      .def(
          "count_rows",
          [](const Table& t, std::optional<std::string> filter) {
            return WithoutGil([&] { return Unwrap(t.CountRows(filter.value_or(""))); });
          },
          py::arg("filter") = py::none())
      .def("scan", &MakeScan, py::arg("project") = py::none(), py::arg("filter") = py::none(),
           py::arg("prune") = py::none(), py::arg("limit") = py::none())
      .def("take", &TakeRows, py::arg("rows"), py::arg("project") = py::none(),
           "The rows at these logical indices (0..count_rows()-1 in table order), in the "
           "order given; only their projected columns are read.")
      .def("delete",
           [](Table& t, const std::string& predicate) {
             return WithoutGil([&] { return Unwrap(t.Delete(predicate)); });
           })
      .def("compact", &CompactTable)
      .def("cleanup_old_versions", &Cleanup, py::arg("older_than"))
      .def("versions", &Versions, "[(version, datetime in UTC)], oldest first.")
      .def("checkout",
           [](const Table& t, std::uint64_t v) {
             return WithoutGil([&] { return Unwrap(t.Checkout(v)); });
           })
      .def("restore",
           [](Table& t, std::uint64_t v) {
             WithoutGil([&] {
               ThrowIfError(t.Restore(v));
               return 0;
             });
           })
      .def("refresh",
           [](Table& t) {
             WithoutGil([&] {
               ThrowIfError(t.Refresh());
               return 0;
             });
           })
      .def("widen", &Widen, py::arg("variable"), py::arg("dtype"))
      .def("__repr__", [](const Table& t) {
        return "Table('" + t.location().root() + "', version=" + std::to_string(t.version()) + ")";
      });
  m.def("open", &Open, py::arg("uri"), "The latest version of the lance-nd table at `uri`.");
}

}  // namespace lance_nd::python
