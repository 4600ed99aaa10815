// Interop helper for tables with stable row ids: lance-nd's writes on the command line, for
// rowids_interop.mjs, which compares them with Lance 12 (LanceDB 0.39) doing the same.
//
//   rowids_tool create TABLE IN.arrow            (create with stable row ids)
//   rowids_tool append TABLE IN.arrow
//   rowids_tool overwrite TABLE IN.arrow
//   rowids_tool plan-append TABLE IN.arrow PLAN  (data files + the Append transaction, not
//                                                 committed; PLAN holds the .txn bytes)
//   rowids_tool commit-plan TABLE PLAN           (commit a planned Append: rebased on what
//                                                 was committed since it was planned)
//   rowids_tool add-column TABLE NAME           (a nullable int32 column, all null)
//   rowids_tool delete-ids TABLE ID...           (delete the rows whose int "id" is listed)
//   rowids_tool compact TABLE
//   rowids_tool dump TABLE VERSION               (JSON {"version", "next_row_id", "flags",
//                                                 "ids": [...], "rowids": [...]} in scan order,
//                                                 "fragments": [{id, rows, deleted, row_ids
//                                                 segments, created_at / last_updated_at runs
//                                                 [span, version], stored: hex of the encoded
//                                                 row-id members}]})
//
// One line of output on success; errors on stderr with exit code 1.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../common/table_tool_util.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/manifest.h"
#include "lance_nd/table/rowids/row_id_codec.h"  // internal: fragment row-id metadata
#include "lance_nd/table/scan.h"
#include "lance_nd/table/write.h"

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace table = lance_nd::table;
namespace ipc = lance_nd::array::ipc;

using lance_nd::tool::ParseU64;

std::string Describe(const table::Dataset& ds) {
  return "version " + std::to_string(ds.version()) + ", " + std::to_string(ds.CountRows()) +
         " rows, next_row_id " + std::to_string(ds.manifest().next_row_id) + ", flags " +
         std::to_string(ds.manifest().reader_feature_flags);
}

Result<table::Dataset> Open(const std::string& path, std::optional<std::uint64_t> v = {}) {
  return lance_nd::tool::OpenLocal(path, v);
}

Status Write(const std::string& path, const std::string& in, const std::string& mode) {
  table::WriteOptions options;
  options.enable_stable_row_ids = mode == "create";
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::WriteIpcToTable(mode, path, in, options));
  std::printf("%s: %s\n", mode.c_str(), Describe(ds).c_str());
  return Status::OK();
}

Status PlanAppend(const std::string& path, const std::string& in, const std::string& plan) {
  LND_ASSIGN_OR_RETURN(auto contents, ipc::ReadIpcFile(in));
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  table::WriteOptions options;
  options.mode = table::WriteMode::kAppend;
  table::Transaction txn;
  txn.read_version = ds.version();
  txn.uuid = table::NewUuid();
  table::op::Append append;
  LND_ASSIGN_OR_RETURN(append.fragments,
                       table::WriteFragments(table::TableLocation(ds.file_system(), path),
                                             ds.manifest().fields, contents.batches, options));
  const std::size_t num_fragments = append.fragments.size();
  txn.operation = std::move(append);
  LND_ASSIGN_OR_RETURN(auto bytes, table::SerializeTransaction(txn));
  std::ofstream out(plan, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) return Status::IOError("cannot write '" + plan + "'");
  std::printf("plan-append: read version %llu, %zu fragments\n",
              static_cast<unsigned long long>(txn.read_version), num_fragments);
  return Status::OK();
}

Status CommitPlan(const std::string& path, const std::string& plan) {
  std::ifstream in(plan, std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  if (bytes.empty()) return Status::IOError("cannot read '" + plan + "'");
  LND_ASSIGN_OR_RETURN(auto txn, table::ParseTransaction(bytes, plan));
  LND_ASSIGN_OR_RETURN(auto ds, table::CommitTransaction(table::TableLocation::Local(path), txn));
  std::printf("commit-plan: %s\n", Describe(ds).c_str());
  return Status::OK();
}

// Column `c` of `b` as uint64 (int32 / int64 / uint64 columns).
std::vector<std::uint64_t> Column(const lance_nd::array::RecordBatch& b, int c) {
  const auto& a = *b.column(c);
  std::vector<std::uint64_t> out;
  const std::string type = b.schema()->field(c)->type()->ToString();
  for (std::int64_t i = 0; i < a.length; ++i) {
    if (type == "int32") {
      out.push_back(static_cast<std::uint64_t>(a.values<std::int32_t>()[i]));
    } else {
      out.push_back(a.values<std::uint64_t>()[i]);
    }
  }
  return out;
}

Result<lance_nd::array::RecordBatchPtr> IdsAndRowIds(const table::Dataset& ds, bool addresses) {
  table::TableScanOptions o;
  o.projection = {"id", addresses ? "_rowaddr" : "_rowid"};
  return table::ReadTable(ds, o);
}

Status DeleteIds(const std::string& path, const std::vector<std::string>& args) {
  std::set<std::uint64_t> ids;
  for (const auto& a : args) {
    LND_ASSIGN_OR_RETURN(auto v, ParseU64(a, "id"));
    ids.insert(v);
  }
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(auto b, IdsAndRowIds(ds, /*addresses=*/true));
  const auto col = Column(*b, 0);
  const auto addr = Column(*b, 1);
  std::vector<std::uint64_t> rows;
  for (std::size_t i = 0; i < col.size(); ++i) {
    if (ids.count(col[i]) != 0) rows.push_back(addr[i]);
  }
  LND_ASSIGN_OR_RETURN(table::DeleteResult after_deleted, table::DeleteRows(ds, rows));
  auto after = std::move(after_deleted.dataset);
  std::printf("delete-ids: %zu rows; %s\n", rows.size(), Describe(after).c_str());
  return Status::OK();
}

Status AddColumn(const std::string& path, const std::string& name) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  auto fields = ds.schema()->fields();
  fields.push_back(lance_nd::array::MakeField(name, lance_nd::array::Int32()));
  LND_ASSIGN_OR_RETURN(auto after, table::EvolveSchema(ds, lance_nd::array::Schema(fields)));
  std::printf("add-column: %s\n", Describe(after).c_str());
  return Status::OK();
}

Status CompactTable(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(table::CompactionResult metrics_compacted, table::Compact(ds));
  auto metrics = std::move(metrics_compacted.metrics);
  LND_ASSIGN_OR_RETURN(auto after, Open(path));
  std::printf("compact: %s; fragments removed %llu, added %llu\n", Describe(after).c_str(),
              static_cast<unsigned long long>(metrics.fragments_removed),
              static_cast<unsigned long long>(metrics.fragments_added));
  return Status::OK();
}

std::string JsonList(const std::vector<std::uint64_t>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(v[i]);
  }
  return out + "]";
}

// The fragment's serialised row-id members (the encoded sequences), byte for byte.
std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string JsonRuns(const table::internal::VersionRuns& runs) {
  std::string out = "[";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i > 0) out += ",";
    out += "[" + JsonList(runs[i].span) + "," + std::to_string(runs[i].version) + "]";
  }
  return out + "]";
}

// The stored row-id metadata of every fragment, to compare with what Lance wrote.
Result<std::string> JsonFragments(const table::Dataset& ds) {
  std::string out = "[";
  for (const table::Fragment& f : ds.fragments()) {
    LND_ASSIGN_OR_RETURN(auto meta, table::internal::ReadFragmentRowIdMeta(ds.location(), f));
    if (out.size() > 1) out += ",";
    out +=
        "{\"id\":" + std::to_string(f.id) + ",\"rows\":" + std::to_string(f.physical_rows) +
        ",\"deleted\":" + std::to_string(f.deletion_file ? f.deletion_file->num_deleted_rows : 0) +
        ",\"row_ids\":[";
    for (std::size_t i = 0; i < meta.row_ids.size(); ++i) {
      out += (i > 0 ? "," : "") + JsonList(meta.row_ids[i]);
    }
    out += "],\"created_at\":" + (meta.has_created_at ? JsonRuns(meta.created_at) : "null") +
           ",\"last_updated_at\":" +
           (meta.has_last_updated_at ? JsonRuns(meta.last_updated_at) : "null") + ",\"stored\":\"" +
           Hex(f.unmodelled_proto) + "\"}";
  }
  return out + "]";
}

Status Dump(const std::string& path, const std::string& version) {
  LND_ASSIGN_OR_RETURN(auto v, ParseU64(version, "version"));
  LND_ASSIGN_OR_RETURN(auto ds, Open(path, v));
  LND_ASSIGN_OR_RETURN(auto b, IdsAndRowIds(ds, /*addresses=*/false));
  LND_ASSIGN_OR_RETURN(std::string fragments, JsonFragments(ds));
  std::printf(
      "{\"version\":%llu,\"next_row_id\":%llu,\"flags\":%llu,\"ids\":%s,\"rowids\":%s,"
      "\"fragments\":%s}\n",
      static_cast<unsigned long long>(ds.version()),
      static_cast<unsigned long long>(ds.manifest().next_row_id),
      static_cast<unsigned long long>(ds.manifest().reader_feature_flags),
      JsonList(Column(*b, 0)).c_str(), JsonList(Column(*b, 1)).c_str(), fragments.c_str());
  return Status::OK();
}

Status Run(const std::vector<std::string>& a) {
  const auto need = [&](std::size_t n) {
    return a.size() >= n ? Status::OK()
                         : Status::InvalidArgument("'" + a[0] + "' needs " + std::to_string(n - 1) +
                                                   " arguments");
  };
  if (a.empty()) return Status::InvalidArgument("no command (see the comment of rowids_tool.cc)");
  const std::string& cmd = a[0];
  if (cmd == "create" || cmd == "append" || cmd == "overwrite") {
    LND_RETURN_NOT_OK(need(3));
    return Write(a[1], a[2], cmd);
  }
  if (cmd == "plan-append") {
    LND_RETURN_NOT_OK(need(4));
    return PlanAppend(a[1], a[2], a[3]);
  }
  if (cmd == "commit-plan") {
    LND_RETURN_NOT_OK(need(3));
    return CommitPlan(a[1], a[2]);
  }
  if (cmd == "delete-ids") {
    LND_RETURN_NOT_OK(need(2));
    return DeleteIds(a[1], std::vector<std::string>(a.begin() + 2, a.end()));
  }
  if (cmd == "add-column") {
    LND_RETURN_NOT_OK(need(3));
    return AddColumn(a[1], a[2]);
  }
  if (cmd == "compact") {
    LND_RETURN_NOT_OK(need(2));
    return CompactTable(a[1]);
  }
  if (cmd == "dump") {
    LND_RETURN_NOT_OK(need(3));
    return Dump(a[1], a[2]);
  }
  return Status::InvalidArgument("unknown command '" + cmd + "'");
}

}  // namespace

int main(int argc, char** argv) {
  const Status st = Run(std::vector<std::string>(argv + 1, argv + argc));
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
