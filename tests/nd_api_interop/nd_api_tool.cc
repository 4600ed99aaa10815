// lance-nd's facade on the command line, for the facade interop driver (nd_api.mjs):
//
//   nd_api_tool write TABLE CASE.json
//       write the case's nd JSON rows (tests/nd_table_interop/gen.mjs) with stats on, one
//       commit per entry of "commits": the first with Table::Write (create), the second with
//       Table::Append, the others with NdWriter::Append (one Write per row, then Finish).
//       Later commits bring new variables and keys, so the facade evolves the schema.
//   nd_api_tool check TABLE CHECKS.json [VERSION]
//       CHECKS.json is {"checks": [{"filter": SQL?, "prune": SQL?, "rows": [nd JSON rows]}]}:
//       for each, Table::Open (the latest version, or VERSION) + Scanner (Filter / Prune) +
//       ReadAll must give exactly `rows` (the rows LanceDB returned for the same filter), and
//       CountRows their number.
//   nd_api_tool prune-sql TABLE SQL
//       print query::PruneFilter of SQL against the table's schema as SQL ("" = every row).
//
// Exit status: 0 when everything matches, 1 on a difference or error, 2 on bad usage.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../nd_ipc_interop/compare.h"
#include "../nd_ipc_interop/nd_json.h"
#include "lance_nd/api/nd_writer.h"
#include "lance_nd/api/scanner.h"
#include "lance_nd/api/table.h"
#include "lance_nd/core/result.h"
#include "lance_nd/query/filter.h"

namespace lance_nd::interop {
namespace {

using json = nlohmann::json;

Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot open '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Result<json> ReadJson(const std::string& path) {
  LND_ASSIGN_OR_RETURN(std::string text, ReadText(path));
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::InvalidArgument("'" + path + "' is not JSON");
  return doc;
}

/// \brief One commit of the case through the facade entry point named in the header.
Status WriteCommit(const std::string& path, std::size_t index,
                   std::span<const nd::NdRecordBatch> rows) {
  WriteOptions options;
  options.stats = true;
  if (index == 0) return Table::Write(path, rows, options).status();
  if (index == 1) {
    LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
    return table.Append(rows, options);
  }
  LND_ASSIGN_OR_RETURN(NdWriter writer, NdWriter::Append(path, options));
  for (const nd::NdRecordBatch& row : rows) LND_RETURN_NOT_OK(writer.Write(row));
  return writer.Finish().status();
}

Status Write(const std::string& path, const std::string& case_path) {
  LND_ASSIGN_OR_RETURN(std::string text, ReadText(case_path));
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> rows, ParseNdJson(text));
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  std::size_t start = 0;
  std::size_t index = 0;
  for (const json& n : doc.value("commits", json::array({rows.size()}))) {
    const std::size_t count = n.get<std::size_t>();
    if (start + count > rows.size()) return Status::InvalidArgument("case: commits exceed rows");
    LND_RETURN_NOT_OK_CTX(WriteCommit(path, index++, std::span(rows).subspan(start, count)),
                          "commit " + std::to_string(index));
    start += count;
  }
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  std::printf("write: version %llu, %zu rows, stats %s\n",
              static_cast<unsigned long long>(table.version()), rows.size(),
              table.has_stats() ? "on" : "off");
  return Status::OK();
}

/// \brief One scan of CHECKS.json against its expected rows.
Status CheckScan(const Table& table, const json& check, const std::string& what) {
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> want,
                       ParseNdJson(json{{"rows", check.at("rows")}}.dump()));
  Scanner scanner = table.Scan();
  if (check.contains("filter")) scanner.Filter(check["filter"].get<std::string>());
  if (check.contains("prune")) scanner.Prune(check["prune"].get<std::string>());
  LND_ASSIGN_OR_RETURN(std::vector<nd::NdRecordBatch> got, scanner.ReadAll());
  LND_RETURN_NOT_OK(CompareRows(want, got, what));
  LND_ASSIGN_OR_RETURN(std::uint64_t counted, scanner.CountRows());
  if (counted != want.size()) {
    return Status::InvalidArgument(what + ": CountRows " + std::to_string(counted) + ", expected " +
                                   std::to_string(want.size()));
  }
  return Status::OK();
}

Status Check(const std::string& path, const std::string& checks_path,
             std::optional<std::uint64_t> version) {
  LND_ASSIGN_OR_RETURN(json doc, ReadJson(checks_path));
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(ResolveLocation(path), version));
  std::size_t n = 0;
  for (const json& check : doc.at("checks")) {
    std::string what = path;
    if (check.contains("filter")) what += " where " + check["filter"].get<std::string>();
    if (check.contains("prune")) what += " prune " + check["prune"].get<std::string>();
    LND_RETURN_NOT_OK(CheckScan(table, check, what));
    ++n;
  }
  std::printf("check: %zu scans equal\n", n);
  return Status::OK();
}

Status PruneSql(const std::string& path, const std::string& sql) {
  LND_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  LND_ASSIGN_OR_RETURN(query::Filter filter, query::Filter::Parse(sql));
  LND_ASSIGN_OR_RETURN(std::optional<query::Filter> pruned,
                       query::PruneFilter(filter, *table.schema()));
  std::printf("%s\n", pruned ? pruned->ToSql().c_str() : "");
  return Status::OK();
}

int Run(std::span<char*> args) {
  if (args.size() < 4) {
    std::fprintf(stderr,
                 "usage: nd_api_tool write TABLE CASE.json | check TABLE CHECKS.json [VERSION] | "
                 "prune-sql TABLE SQL\n");
    return 2;
  }
  const std::string cmd = args[1];
  Status st = Status::InvalidArgument("unknown command '" + cmd + "'");
  if (cmd == "write") st = Write(args[2], args[3]);
  if (cmd == "check") {
    std::optional<std::uint64_t> version;
    if (args.size() > 4) version = std::stoull(args[4]);
    st = Check(args[2], args[3], version);
  }
  if (cmd == "prune-sql") st = PruneSql(args[2], args[3]);
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace lance_nd::interop

int main(int argc, char** argv) { return lance_nd::interop::Run(std::span(argv, argc)); }
