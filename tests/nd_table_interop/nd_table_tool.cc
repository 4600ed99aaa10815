// nd tables on the command line, for the random nd table interop driver (nd_tables.mjs):
//
//   nd_table_tool write TABLE CASE.json 2.1|2.2
//       encode the case's rows (EncodeRows) and write them as a new table, one commit per entry
//       of "commits": the first creates the table, the others first evolve the schema when the
//       rows bring new variables or keys (MergeEncodedSchema + EvolveSchema), then append
//       (EncodeRowsAs in the table's schema). Version 2.1 cannot add struct children, so there
//       each variable is added with every attribute key it will ever have.
//   nd_table_tool check TABLE EXPECTED.json [BATCH_ROWS]
//       scan the table (BATCH_ROWS rows per batch), decode every row with RowDecoder and
//       compare with the nd JSON rows of EXPECTED.json; then the same for every other row
//       taken with TakeRows, last to first.
//   nd_table_tool delete TABLE ROW...
//       delete the rows at these logical indexes (table order) with DeleteRows.
//   nd_table_tool append TABLE ROWS.json
//       append the nd JSON rows of ROWS.json to an existing table with default write options,
//       evolving its schema first when they bring new variables or keys.
//   nd_table_tool compact TABLE
//       compact the table (Compact, default options).
//
// Exit status: 0 when everything matches, 1 on a difference or error, 2 on bad usage.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../nd_ipc_interop/compare.h"
#include "../nd_ipc_interop/nd_json.h"
#include "lance_nd/array/array_data.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/nd/format.h"
#include "lance_nd/nd/row_encoding.h"
#include "lance_nd/nd/schema_merge.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;
using json = nlohmann::json;

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot open '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// \brief `fields` with each field replaced by the field of the same name in `full`.
Result<la::SchemaPtr> WithFullKeys(const la::Schema& fields, const la::Schema& full) {
  std::vector<la::FieldPtr> out;
  for (const la::FieldPtr& f : fields.fields()) {
    const int i = full.FieldIndex(f->name());
    if (i < 0)
      return Status::InvalidArgument("column '" + f->name() + "' is not in the full schema");
    out.push_back(full.field(i));
  }
  return la::MakeSchema(std::move(out), fields.metadata());
}

struct WritePlan {
  std::vector<nd::NdRecordBatch> rows;
  std::vector<std::size_t> commits;
  table::WriteOptions options;
  bool full_keys = false;  // version 2.1
};

Result<WritePlan> ParseCase(const std::string& case_path, std::string_view version) {
  WritePlan plan;
  LND_ASSIGN_OR_RETURN(std::string text, ReadText(case_path));
  LND_ASSIGN_OR_RETURN(plan.rows, ParseNdJson(text));
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::size_t total = 0;
  for (const json& n : doc.value("commits", json::array())) {
    plan.commits.push_back(n.get<std::size_t>());
    total += plan.commits.back();
  }
  if (total != plan.rows.size() || plan.commits.empty()) {
    return Status::InvalidArgument("case: commits do not add up to the rows");
  }
  if (version == "2.1") {
    plan.options.file_options.version = file::FileVersion::kV2_1;
    plan.full_keys = true;
  } else if (version != "2.2") {
    return Status::InvalidArgument("version must be 2.1 or 2.2");
  }
  if (doc.value("page_bytes", 0) > 0) plan.options.file_options.page_bytes = doc["page_bytes"];
  if (doc.value("max_rows_per_file", 0) > 0) {
    plan.options.max_rows_per_file = doc["max_rows_per_file"];
  }
  return plan;
}

/// \brief One commit: create the table, or evolve its schema and append.
Status WriteCommit(const std::string& path, std::span<const nd::NdRecordBatch> rows,
                   const la::Schema& full, WritePlan& plan, std::optional<table::Dataset>& ds) {
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr own, nd::EncodeRows(rows));
  la::SchemaPtr incoming = own->schema();
  if (plan.full_keys) {
    LND_ASSIGN_OR_RETURN(incoming, WithFullKeys(*incoming, full));
  }
  auto fs = io::LocalFileSystem();
  if (!ds) {
    la::Metadata meta = incoming->metadata();
    meta.Set(std::string(nd::kFormatMetadataKey), "1");
    la::SchemaPtr target = la::MakeSchema(incoming->fields(), std::move(meta));
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, nd::EncodeRowsAs(rows, *target));
    plan.options.mode = table::WriteMode::kCreate;
    LND_ASSIGN_OR_RETURN(
        ds, table::WriteTable(table::TableLocation(fs, path), std::span(&batch, 1), plan.options));
    return Status::OK();
  }
  LND_ASSIGN_OR_RETURN(la::SchemaPtr merged, nd::MergeEncodedSchema(*ds->schema(), *incoming));
  if (!merged->Equals(*ds->schema())) {
    LND_ASSIGN_OR_RETURN(ds, table::EvolveSchema(*ds, *merged));
  }
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, nd::EncodeRowsAs(rows, *ds->schema()));
  plan.options.mode = table::WriteMode::kAppend;
  LND_ASSIGN_OR_RETURN(
      ds, table::WriteTable(table::TableLocation(fs, path), std::span(&batch, 1), plan.options));
  return Status::OK();
}

Status Write(const std::string& path, const std::string& case_path, std::string_view version) {
  LND_ASSIGN_OR_RETURN(WritePlan plan, ParseCase(case_path, version));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr all, nd::EncodeRows(plan.rows));
  std::optional<table::Dataset> ds;
  std::size_t start = 0;
  for (std::size_t n : plan.commits) {
    std::span<const nd::NdRecordBatch> rows(plan.rows.data() + start, n);
    LND_RETURN_NOT_OK_CTX(
        WriteCommit(path, rows, *all->schema(), plan, ds),
        "commit of rows " + std::to_string(start) + ".." + std::to_string(start + n));
    start += n;
  }
  std::printf("write: version %llu, %zu rows, %zu fragments\n",
              static_cast<unsigned long long>(ds->version()), plan.rows.size(),
              ds->fragments().size());
  return Status::OK();
}

/// \brief Append the nd JSON rows of `rows_path` to an existing table (written by anyone),
/// evolving its schema first when the rows bring new variables or keys; default write options.
Status Append(const std::string& path, const std::string& rows_path) {
  WritePlan plan;
  LND_ASSIGN_OR_RETURN(std::string text, ReadText(rows_path));
  LND_ASSIGN_OR_RETURN(plan.rows, ParseNdJson(text));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr all, nd::EncodeRows(plan.rows));
  std::optional<table::Dataset> ds;
  LND_ASSIGN_OR_RETURN(ds, table::Dataset::Open(table::TableLocation::Local(path)));
  LND_RETURN_NOT_OK(WriteCommit(path, plan.rows, *all->schema(), plan, ds));
  std::printf("append: version %llu, %zu rows\n", static_cast<unsigned long long>(ds->version()),
              plan.rows.size());
  return Status::OK();
}

/// \brief TakeRows of every other row, last to first: the rows must be `want`'s.
Status CheckTake(const table::Dataset& ds, const nd::RowDecoder& decoder,
                 const std::vector<nd::NdRecordBatch>& want) {
  std::vector<std::uint64_t> indexes;
  std::vector<nd::NdRecordBatch> expected;
  for (std::size_t i = want.size(); i > 0; i -= std::min<std::size_t>(i, 2)) {
    indexes.push_back(i - 1);
    expected.push_back(want[i - 1]);
  }
  if (indexes.empty()) return Status::OK();
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, table::TakeRows(ds, indexes));
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> got, decoder.DecodeAll(*batch));
  return CompareRows(expected, got, ds.path() + " (TakeRows)");
}

Status Check(const std::string& path, const std::string& expected_path, std::int64_t batch_rows) {
  LND_ASSIGN_OR_RETURN(std::string text, ReadText(expected_path));
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> want, ParseNdJson(text));
  LND_ASSIGN_OR_RETURN(table::Dataset ds, table::Dataset::Open(table::TableLocation::Local(path)));
  table::TableScanOptions options;
  options.batch_rows = batch_rows;
  LND_ASSIGN_OR_RETURN(table::TableBatchReader reader, table::ScanTable(ds, options));
  LND_ASSIGN_OR_RETURN(nd::RowDecoder decoder, nd::RowDecoder::Make(reader.schema()));
  std::vector<nd::NdRecordBatch> got;
  while (true) {
    LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, reader.Next());
    if (batch == nullptr) break;
    LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> rows, decoder.DecodeAll(*batch));
    for (auto& r : rows) got.push_back(std::move(r));
  }
  LND_RETURN_NOT_OK(CompareRows(want, got, path));
  LND_RETURN_NOT_OK(CheckTake(ds, decoder, want));
  std::printf("check: %zu rows equal (version %llu, %zu fragments)\n", got.size(),
              static_cast<unsigned long long>(ds.version()), ds.fragments().size());
  return Status::OK();
}

/// \brief Delete the rows at logical indexes `rows` (table order) with DeleteRows.
Status Delete(const std::string& path, std::span<char*> rows) {
  LND_ASSIGN_OR_RETURN(table::Dataset ds, table::Dataset::Open(table::TableLocation::Local(path)));
  table::TableScanOptions options;
  options.projection = {table::kRowAddressColumn};
  options.with_row_address = true;
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, table::ReadTable(ds, options));
  const la::ArrayPtr& addresses = batch->column(batch->num_columns() - 1);
  std::vector<std::uint64_t> selected;
  for (char* arg : rows) {
    const std::int64_t i = std::stoll(arg);
    if (i < 0 || i >= batch->num_rows())
      return Status::InvalidArgument("no row " + std::string(arg));
    selected.push_back(addresses->values<std::uint64_t>()[i]);
  }
  LND_ASSIGN_OR_RETURN(table::DeleteResult after_deleted, table::DeleteRows(ds, selected));
  table::Dataset after = std::move(after_deleted.dataset);
  std::printf("delete: %zu rows, version %llu\n", selected.size(),
              static_cast<unsigned long long>(after.version()));
  return Status::OK();
}

Status Compact(const std::string& path) {
  LND_ASSIGN_OR_RETURN(table::Dataset ds, table::Dataset::Open(table::TableLocation::Local(path)));
  LND_ASSIGN_OR_RETURN(table::CompactionResult m_compacted, table::Compact(ds));
  table::CompactionMetrics m = std::move(m_compacted.metrics);
  LND_ASSIGN_OR_RETURN(table::Dataset after,
                       table::Dataset::Open(table::TableLocation::Local(path)));
  std::printf("compact: %llu fragments removed, %llu added, %zu fragments\n",
              static_cast<unsigned long long>(m.fragments_removed),
              static_cast<unsigned long long>(m.fragments_added), after.fragments().size());
  return Status::OK();
}

int Run(std::span<char*> args) {
  const auto usage = [] {
    std::fprintf(stderr,
                 "usage: nd_table_tool write TABLE CASE.json 2.1|2.2 | check TABLE EXPECTED.json "
                 "[BATCH_ROWS] | append TABLE ROWS.json | delete TABLE ROW... | compact TABLE\n");
    return 2;
  };
  if (args.size() < 3) return usage();
  const std::string_view cmd = args[1];
  Status st;
  if (cmd == "delete") {
    st = Delete(args[2], args.subspan(3));
  } else if (cmd == "append" && args.size() == 4) {
    st = Append(args[2], args[3]);
  } else if (cmd == "compact" && args.size() == 3) {
    st = Compact(args[2]);
  } else if (cmd == "write" && args.size() == 5) {
    st = Write(args[2], args[3], args[4]);
  } else if (cmd == "check" && (args.size() == 4 || args.size() == 5)) {
    const std::int64_t batch_rows = args.size() == 5 ? std::stoll(args[4]) : 64 * 1024;
    st = Check(args[2], args[3], batch_rows);
  } else {
    return usage();
  }
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd::interop

int main(int argc, char** argv) { return lance_nd::interop::Run(std::span(argv, argc)); }
