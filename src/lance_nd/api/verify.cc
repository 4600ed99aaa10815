// Verify: every data file of one version read in bounded batches and checked (api/verify.h).
#include "lance_nd/api/verify.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lance_nd/api/table.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/file/reader.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/table/location.h"
#include "lance_nd/table/scan.h"

namespace lance_nd {
namespace {

using Problem = std::optional<VerifyProblem>;

VerifyProblem At(const table::Fragment& f, std::string data_file, std::string what) {
  VerifyProblem p;
  p.fragment_id = f.id;
  p.data_file = std::move(data_file);
  p.what = std::move(what);
  return p;
}

std::string DataFilePath(const table::Dataset& ds, const table::DataFile& file) {
  return ds.location().Path(table::kDataDir, file.path);
}

// The footer, offset tables, schema and column metadata of one data file, and its row count.
Result<file::FileReader> OpenDataFile(const table::Dataset& ds, const table::Fragment& f,
                                      const std::string& path, Problem& problem) {
  auto in = ds.file_system()->OpenForRead(path);
  if (!in.ok()) {
    problem = At(f, path, "cannot open: " + std::string(in.status().message()));
    return in.status();
  }
  auto reader = file::FileReader::Open(*in, file::ReaderOptions{1});
  if (!reader.ok()) {
    problem = At(f, path, "footer or metadata: " + std::string(reader.status().message()));
    return reader.status();
  }
  if (static_cast<std::uint64_t>(reader->num_rows()) != f.physical_rows) {
    problem = At(f, path,
                 "holds " + std::to_string(reader->num_rows()) + " rows, the manifest says " +
                     std::to_string(f.physical_rows));
    return Status::Corrupt(problem->what);
  }
  return reader;
}

// The first problem of one top-level field in rows [first, first + n) of `reader`: a page that
// does not decode or a value that fails its type's checks.
std::optional<std::string> CheckField(const file::FileReader& reader, std::int32_t field_id,
                                      std::int64_t first, std::int64_t n) {
  auto batch = reader.ReadRange(first, n, file::Projection::ByFieldIds({field_id}));
  if (!batch.ok()) return "does not decode: " + std::string(batch.status().message());
  for (int c = 0; c < (*batch)->num_columns(); ++c) {
    const Status valid = array::Validate(*(*batch)->column(c));
    if (!valid.ok()) return "invalid values: " + std::string(valid.message());
  }
  return std::nullopt;
}

// Rows [first, first + n) of every top-level field of one file, field by field, so that a
// problem names its field.
Problem CheckRows(const table::Fragment& f, const std::string& path, const file::FileReader& reader,
                  std::int64_t first, std::int64_t n) {
  for (const file::FieldLayout& field : reader.layout().fields) {
    if (field.parent_id != -1) continue;
    if (auto what = CheckField(reader, field.id, first, n)) {
      VerifyProblem p = At(f, path, *what);
      p.column = field.path;
      p.first_row = first;
      p.num_rows = n;
      return p;
    }
  }
  return std::nullopt;
}

Problem CheckDataFile(const table::Dataset& ds, const table::Fragment& f,
                      const table::DataFile& file, std::int64_t batch_rows) {
  const std::string path = DataFilePath(ds, file);
  Problem problem;
  auto reader = OpenDataFile(ds, f, path, problem);
  if (!reader.ok()) return problem;
  for (std::int64_t first = 0; first < reader->num_rows(); first += batch_rows) {
    const std::int64_t n = std::min(batch_rows, reader->num_rows() - first);
    if (Problem p = CheckRows(f, path, *reader, first, n)) return p;
  }
  return std::nullopt;
}

// The fragment holding live row `row` of the table, and the row's index within it.
std::pair<const table::Fragment*, std::int64_t> LocateRow(const table::Dataset& ds,
                                                          std::uint64_t row) {
  for (const table::Fragment& f : ds.fragments()) {
    if (row < f.num_rows()) return {&f, static_cast<std::int64_t>(row)};
    row -= f.num_rows();
  }
  return {nullptr, static_cast<std::int64_t>(row)};
}

VerifyProblem RowProblem(const table::Dataset& ds, std::uint64_t row, std::int64_t num_rows,
                         std::string what) {
  const auto [fragment, in_fragment] = LocateRow(ds, row);
  VerifyProblem p;
  if (fragment != nullptr) p.fragment_id = fragment->id;
  p.first_row = in_fragment;
  p.num_rows = num_rows;
  p.what = std::move(what);
  return p;
}

// Every row of `batch` (rows from table row `first`) decodes as an nd record batch.
Problem CheckNdRows(const table::Dataset& ds, const nd::RowDecoder& decoder,
                    const array::RecordBatch& batch, std::uint64_t first) {
  const Status valid = decoder.ValidateRows(batch);
  if (valid.ok()) return std::nullopt;
  for (std::int64_t r = 0; r < batch.num_rows(); ++r) {
    auto row = decoder.DecodeRow(batch, r);
    if (!row.ok()) {
      return RowProblem(
          ds, first + static_cast<std::uint64_t>(r), 1,
          "row does not decode as an nd record batch: " + std::string(row.status().message()));
    }
  }
  return RowProblem(ds, first, batch.num_rows(),
                    "rows do not decode as nd record batches: " + std::string(valid.message()));
}

// The table scan of every live row, `batch_rows` at a time, each row decoded.
Problem CheckTableRows(const table::Dataset& ds, const nd::RowDecoder& decoder,
                       std::int64_t batch_rows, std::uint64_t& rows) {
  table::TableScanOptions scan;
  scan.batch_rows = batch_rows;
  auto reader = table::ScanTable(ds, scan);
  if (!reader.ok()) {
    return RowProblem(ds, 0, 0, "cannot scan: " + std::string(reader.status().message()));
  }
  for (;;) {
    auto batch = reader->Next();
    if (!batch.ok()) {
      return RowProblem(ds, rows, 0, "cannot scan: " + std::string(batch.status().message()));
    }
    if (*batch == nullptr) return std::nullopt;
    if (Problem p = CheckNdRows(ds, decoder, **batch, rows)) return p;
    rows += static_cast<std::uint64_t>((*batch)->num_rows());
  }
}

}  // namespace

std::string VerifyProblem::ToString() const {
  std::string out = "fragment " + std::to_string(fragment_id);
  if (!data_file.empty()) out += ", data file " + data_file;
  if (!column.empty()) out += ", column '" + column + "'";
  if (first_row >= 0 && num_rows == 1) out += ", row " + std::to_string(first_row);
  if (first_row >= 0 && num_rows > 1) {
    out += ", rows " + std::to_string(first_row) + ".." + std::to_string(first_row + num_rows - 1);
  }
  return out + ": " + what;
}

std::string VerifyReport::Summary() const {
  if (problem) return "version " + std::to_string(version) + " is damaged: " + problem->ToString();
  return "verified " + std::to_string(rows) + " rows in " + std::to_string(fragments) +
         " fragments, " + std::to_string(columns) + " columns: ok";
}

Result<VerifyReport> Verify(const table::TableLocation& location, const VerifyOptions& options) {
  if (options.batch_rows < 1) {
    return Status::InvalidArgument("verify reads batches of ", options.batch_rows,
                                   " rows; give at least 1");
  }
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(location, options.version));
  const table::Dataset& ds = table.dataset();
  VerifyReport report;
  report.version = ds.version();
  report.columns = static_cast<std::uint64_t>(ds.schema()->num_fields());
  for (const table::Fragment& f : ds.fragments()) {
    for (const table::DataFile& file : f.files) {
      report.problem = CheckDataFile(ds, f, file, options.batch_rows);
      if (report.problem) return report;
      ++report.data_files;
    }
    ++report.fragments;
  }
  auto decoder = nd::RowDecoder::Make(ds.schema());
  if (!decoder.ok()) {
    VerifyProblem p;
    p.what = "the schema is not an nd schema: " + std::string(decoder.status().message());
    report.problem = std::move(p);
    return report;
  }
  report.problem = CheckTableRows(ds, *decoder, options.batch_rows, report.rows);
  return report;
}

Result<VerifyReport> Verify(std::string_view uri, const VerifyOptions& options) {
  return Verify(ResolveLocation(uri), options);
}

}  // namespace lance_nd
