// lance-nd's side of the filter differential (filter_diff.mjs):
//
//   filter_tool filter TABLE FILTERS.json OUT.json
//       open the table (table::Dataset::Open), read every live row (table::ReadTable), and for
//       each SQL text of FILTERS.json ({"filters": ["...", ...]}) run query::Filter::Parse,
//       Bind (the table's schema) and Select. OUT.json gets, per filter, {"rows": [rid, ...]}
//       (the `rid` column of the selected rows, ascending) or {"error": "...", "stage":
//       "parse" | "bind" | "select"}. With FROM TO, the columns FROM and __stats__:FROM are
//       renamed TO and __stats__:TO in the batch read, before the filters are bound.
//   filter_tool write TABLE IN.arrow [ROWS_PER_COMMIT]
//       write the batches of an Arrow IPC file as a new table (Lance file format 2.2), in
//       commits of ROWS_PER_COMMIT rows (default: one commit).
//
// Exit status: 0 when every filter ran (errors included), 1 on a table error, 2 on bad usage.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lance_nd/array/array_data.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/array/view.h"
#include "lance_nd/core/result.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/query/filter.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace lance_nd::interop {
namespace {

namespace la = lance_nd::array;
using json = nlohmann::json;

Result<json> ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot open '" + path + "'");
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("'" + path + "' is not JSON");
  return doc;
}

/// \brief The `rid` (int32) of every row of `batch`.
Result<std::vector<std::int32_t>> RowKeys(const la::RecordBatch& batch) {
  la::ArrayPtr rid = batch.GetColumnByName("rid");
  if (!rid || rid->type->id() != la::TypeId::kInt32) {
    return Status::InvalidArgument("the table has no int32 column 'rid'");
  }
  la::PrimitiveView<std::int32_t> view(*rid);
  std::vector<std::int32_t> out(static_cast<std::size_t>(view.length()));
  for (std::int64_t i = 0; i < view.length(); ++i) out[static_cast<std::size_t>(i)] = view.Value(i);
  return out;
}

json Failure(const char* stage, const Status& status) {
  return json{{"error", status.ToString()}, {"stage", stage}};
}

/// \brief One filter's rows (as `rid` keys, ascending) or its error.
json RunFilter(const std::string& sql, const la::RecordBatch& batch,
               const std::vector<std::int32_t>& keys) {
  Result<query::Filter> parsed = query::Filter::Parse(sql);
  if (!parsed.ok()) return Failure("parse", parsed.status());
  Result<query::BoundFilter> bound = parsed->Bind(*batch.schema());
  if (!bound.ok()) return Failure("bind", bound.status());
  Result<std::vector<std::int64_t>> rows = bound->Select(batch);
  if (!rows.ok()) return Failure("select", rows.status());
  std::vector<std::int32_t> out;
  out.reserve(rows->size());
  for (std::int64_t r : *rows) out.push_back(keys.at(static_cast<std::size_t>(r)));
  std::sort(out.begin(), out.end());
  return json{{"rows", out}};
}

/// \brief `batch` with the top-level fields `from` and `__stats__:from` renamed to `to` and
/// `__stats__:to` (same columns).
Result<la::RecordBatchPtr> Renamed(const la::RecordBatchPtr& batch, const std::string& from,
                                   const std::string& to) {
  const std::string stats = "__stats__:";
  std::vector<la::FieldPtr> fields;
  for (const la::FieldPtr& f : batch->schema()->fields()) {
    if (f->name() == from) {
      fields.push_back(f->WithName(to));
    } else if (f->name() == stats + from) {
      fields.push_back(f->WithName(stats + to));
    } else {
      fields.push_back(f);
    }
  }
  std::vector<la::ArrayPtr> columns;
  for (int i = 0; i < batch->num_columns(); ++i) columns.push_back(batch->column(i));
  return la::RecordBatch::Make(la::MakeSchema(std::move(fields), batch->schema()->metadata()),
                               batch->num_rows(), std::move(columns));
}

Status Filter(const std::string& path, const std::string& filters_path, const std::string& out_path,
              const std::vector<std::string>& rename) {
  LND_ASSIGN_OR_RETURN(json filters, ReadJson(filters_path));
  LND_ASSIGN_OR_RETURN(table::Dataset ds,
                       table::Dataset::Open(table::TableLocation(io::LocalFileSystem(), path)));
  LND_ASSIGN_OR_RETURN(la::RecordBatchPtr batch, table::ReadTable(ds));
  if (rename.size() == 2) {
    LND_ASSIGN_OR_RETURN(batch, Renamed(batch, rename[0], rename[1]));
  }
  LND_ASSIGN_OR_RETURN(std::vector<std::int32_t> keys, RowKeys(*batch));
  json results = json::array();
  for (const json& f : filters.at("filters")) {
    results.push_back(RunFilter(f.get<std::string>(), *batch, keys));
  }
  std::ofstream out(out_path, std::ios::binary);
  out << json{{"results", results}}.dump();
  if (!out) return Status::IOError("cannot write '" + out_path + "'");
  return Status::OK();
}

Status Write(const std::string& path, const std::string& ipc_path, std::int64_t per_commit) {
  LND_ASSIGN_OR_RETURN(la::ipc::IpcContents contents, la::ipc::ReadIpcFile(ipc_path));
  table::WriteOptions options;
  const table::TableLocation location(io::LocalFileSystem(), path);
  for (const la::RecordBatchPtr& batch : contents.batches) {
    for (std::int64_t start = 0; start < batch->num_rows(); start += per_commit) {
      LND_ASSIGN_OR_RETURN(la::RecordBatchPtr part,
                           batch->Slice(start, std::min(per_commit, batch->num_rows() - start)));
      LND_RETURN_NOT_OK(table::WriteTable(location, std::span(&part, 1), options).status());
      options.mode = table::WriteMode::kAppend;
    }
  }
  return Status::OK();
}

int Main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  Status st = Status::InvalidArgument("usage");
  if ((args.size() == 4 || args.size() == 6) && args[0] == "filter") {
    st = Filter(args[1], args[2], args[3], {args.begin() + 4, args.end()});
  } else if ((args.size() == 3 || args.size() == 4) && args[0] == "write") {
    const std::int64_t per_commit = args.size() == 4 ? std::stoll(args[3]) : INT64_MAX;
    st = Write(args[1], args[2], std::max<std::int64_t>(per_commit, 1));
  } else {
    std::fprintf(stderr,
                 "usage: filter_tool filter TABLE FILTERS.json OUT.json [FROM TO]\n"
                 "       filter_tool write TABLE IN.arrow [ROWS_PER_COMMIT]\n");
    return 2;
  }
  if (!st.ok()) {
    std::fprintf(stderr, "filter_tool %s: %s\n", args[0].c_str(), st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd::interop

int main(int argc, char** argv) { return lance_nd::interop::Main(argc, argv); }
