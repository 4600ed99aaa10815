// Interop helper: lance-nd's table operations on the command line, for the Node scripts that
// compare them with Lance 12 (LanceDB 0.39).
//
//   table_interop_tool create|append|overwrite TABLE IN.arrow
//   table_interop_tool evolve TABLE SCHEMA.arrow        (the schema of an IPC file, rows ignored)
//   table_interop_tool delete TABLE ROWADDR...          (row addresses, decimal)
//   table_interop_tool compact TABLE
//   table_interop_tool restore TABLE VERSION
//   table_interop_tool tag TABLE NAME VERSION
//   table_interop_tool dump TABLE OUT.arrow [--version N | --tag NAME] [--rowaddr]
//   table_interop_tool versions TABLE                   (one version number per line)
//   table_interop_tool fields TABLE [VERSION]           ("name id parent_id logical_type" lines)
//
// Prints one line describing the result on success; errors go to stderr with exit code 1.
// Operations whose table-layer API is not available in this build exit with code 3.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../common/table_tool_util.h"
#include "lance_nd/array/ipc.h"
#include "lance_nd/io/file_system.h"
#include "lance_nd/table/commit.h"
#include "lance_nd/table/dataset.h"
#include "lance_nd/table/deletion.h"
#include "lance_nd/table/evolution.h"
#include "lance_nd/table/maintenance.h"
#include "lance_nd/table/write.h"

#if __has_include("lance_nd/table/scan.h")
#include "lance_nd/table/scan.h"
#define LND_TOOL_HAS_SCAN 1
#endif
#if __has_include("lance_nd/table/tags.h")
#include "lance_nd/table/tags.h"
#define LND_TOOL_HAS_TAGS 1
#endif

namespace {

using lance_nd::Result;
using lance_nd::Status;
namespace table = lance_nd::table;
namespace ipc = lance_nd::array::ipc;

constexpr int kUnavailable = 3;

[[noreturn, maybe_unused]] void ExitUnavailable(const std::string& what) {
  std::fprintf(stderr, "unavailable: %s is not in this build of the table layer\n", what.c_str());
  std::exit(kUnavailable);
}

using lance_nd::tool::ParseU64;

std::string Describe(const table::Dataset& ds) {
  return "version " + std::to_string(ds.version()) + ", " + std::to_string(ds.CountRows()) +
         " rows, " + std::to_string(ds.fragments().size()) + " fragments";
}

Status Write(const std::string& mode, const std::string& path, const std::string& in) {
  LND_ASSIGN_OR_RETURN(auto ds, lance_nd::tool::WriteIpcToTable(mode, path, in));
  std::printf("%s: %s\n", mode.c_str(), Describe(ds).c_str());
  return Status::OK();
}

Result<table::Dataset> Open(const std::string& path, std::optional<std::uint64_t> version = {}) {
  return lance_nd::tool::OpenLocal(path, version);
}

Status Evolve(const std::string& path, const std::string& schema_file) {
  LND_ASSIGN_OR_RETURN(auto contents, ipc::ReadIpcFile(schema_file));
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  LND_ASSIGN_OR_RETURN(auto evolved, table::EvolveSchema(ds, *contents.schema));
  std::printf("evolve: %s%s\n", Describe(evolved).c_str(),
              evolved.version() == ds.version() ? " (nothing new)" : "");
  return Status::OK();
}

// Used while maintenance.cc answers NotImplemented (its API was published before its
// implementation): the same Delete transaction built from deletion.h and commit.h.
Result<table::Dataset> DeleteFallback(const table::Dataset& ds,
                                      const std::vector<std::uint64_t>& rows) {
  const std::string& path = ds.path();
  std::map<std::uint64_t, std::vector<std::uint32_t>> by_fragment;
  for (std::uint64_t v : rows) {
    by_fragment[v >> 32].push_back(static_cast<std::uint32_t>(v & 0xffffffffu));
  }
  auto fs = ds.file_system();
  table::op::Delete del;
  del.predicate = "_rowaddr IN (...)";
  for (const auto& frag : ds.fragments()) {
    auto it = by_fragment.find(frag.id);
    if (it == by_fragment.end()) continue;
    LND_ASSIGN_OR_RETURN(auto dv, table::ReadFragmentDeletions(*fs, path, frag));
    for (std::uint32_t off : it->second) {
      if (off >= frag.physical_rows) {
        return Status::InvalidArgument("row offset " + std::to_string(off) +
                                       " is outside fragment " + std::to_string(frag.id));
      }
      dv.Insert(off);
    }
    by_fragment.erase(it);
    if (dv.size() == frag.physical_rows) {
      del.deleted_fragment_ids.push_back(frag.id);
      continue;
    }
    LND_ASSIGN_OR_RETURN(auto file, table::WriteDeletionFile(*fs, path, frag.id, ds.version(), dv));
    table::Fragment updated = frag;
    updated.deletion_file = file;
    del.updated_fragments.push_back(std::move(updated));
  }
  if (!by_fragment.empty()) {
    return Status::InvalidArgument("no fragment " + std::to_string(by_fragment.begin()->first));
  }
  table::Transaction txn;
  txn.read_version = ds.version();
  txn.operation = std::move(del);
  return table::CommitTransaction(fs, path, std::move(txn));
}

Status Delete(const std::string& path, const std::vector<std::string>& addrs) {
  std::vector<std::uint64_t> rows;
  for (const auto& a : addrs) {
    LND_ASSIGN_OR_RETURN(auto v, ParseU64(a, "row address"));
    rows.push_back(v);
  }
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  auto after = table::DeleteRows(ds, rows);
  const char* how = "";
  if (!after.ok() && after.status().code() == lance_nd::StatusCode::kNotImplemented) {
    after = DeleteFallback(ds, rows);
    how = " (tool fallback: DeleteRows not implemented)";
  }
  if (!after.ok()) return after.status();
  std::printf("delete%s: %s\n", how, Describe(*after).c_str());
  return Status::OK();
}

Status Compact(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path));
  auto metrics = table::Compact(ds);
  if (!metrics.ok() && metrics.status().code() == lance_nd::StatusCode::kNotImplemented) {
    ExitUnavailable("Compact (" + metrics.status().ToString() + ")");
  }
  if (!metrics.ok()) return metrics.status();
  LND_ASSIGN_OR_RETURN(auto after, Open(path));
  std::printf("compact: %s; fragments removed %llu, added %llu\n", Describe(after).c_str(),
              static_cast<unsigned long long>(metrics->fragments_removed),
              static_cast<unsigned long long>(metrics->fragments_added));
  return Status::OK();
}

Status RestoreVersion(const std::string& path, const std::string& version) {
  LND_ASSIGN_OR_RETURN(auto v, ParseU64(version, "version"));
  LND_ASSIGN_OR_RETURN(auto old, Open(path, v));
  auto after = table::Restore(old);
  const char* how = "";
  if (!after.ok() && after.status().code() == lance_nd::StatusCode::kNotImplemented) {
    // Fallback while Restore answers NotImplemented: a Restore transaction through commit.h.
    LND_ASSIGN_OR_RETURN(auto latest, Open(path));
    table::Transaction txn;
    txn.read_version = latest.version();
    txn.operation = table::op::Restore{old.version()};
    after = table::CommitTransaction(old.file_system(), path, std::move(txn));
    how = " (tool fallback: Restore not implemented)";
  }
  if (!after.ok()) return after.status();
  std::printf("restore%s: %s\n", how, Describe(*after).c_str());
  return Status::OK();
}

Status Tag(const std::string& path, const std::string& name, const std::string& version) {
#ifdef LND_TOOL_HAS_TAGS
  LND_ASSIGN_OR_RETURN(auto v, ParseU64(version, "version"));
  LND_RETURN_NOT_OK(table::CreateTag(*lance_nd::io::LocalFileSystem(), path, name, v));
  std::printf("tag: %s -> version %llu\n", name.c_str(), static_cast<unsigned long long>(v));
  return Status::OK();
#else
  (void)path;
  (void)name;
  (void)version;
  ExitUnavailable("CreateTag (tags.h)");
#endif
}

Status Dump(const std::string& path, const std::string& out, std::optional<std::uint64_t> version,
            const std::string& tag, bool rowaddr) {
#ifdef LND_TOOL_HAS_SCAN
  std::optional<table::Dataset> ds;
  if (!tag.empty()) {
#ifdef LND_TOOL_HAS_TAGS
    LND_ASSIGN_OR_RETURN(ds, table::OpenTag(lance_nd::io::LocalFileSystem(), path, tag));
#else
    ExitUnavailable("OpenTag (tags.h)");
#endif
  } else {
    LND_ASSIGN_OR_RETURN(ds, Open(path, version));
  }
  table::TableScanOptions options;
  options.with_row_address = rowaddr;
  LND_ASSIGN_OR_RETURN(auto batch, table::ReadTable(*ds, options));
  std::vector<lance_nd::array::RecordBatchPtr> batches{batch};
  LND_RETURN_NOT_OK(ipc::WriteIpcFile(out, batch->schema(), batches));
  std::printf("dump: %s -> %s\n", Describe(*ds).c_str(), out.c_str());
  return Status::OK();
#else
  (void)path;
  (void)out;
  (void)version;
  (void)tag;
  (void)rowaddr;
  ExitUnavailable("ReadTable (scan.h)");
#endif
}

Status Versions(const std::string& path) {
  LND_ASSIGN_OR_RETURN(auto list, table::ListVersions(*lance_nd::io::LocalFileSystem(), path));
  for (std::uint64_t v : list.versions) std::printf("%llu\n", static_cast<unsigned long long>(v));
  return Status::OK();
}

Status Fields(const std::string& path, std::optional<std::uint64_t> version) {
  LND_ASSIGN_OR_RETURN(auto ds, Open(path, version));
  for (const auto& f : ds.manifest().fields) {
    std::printf("%s %d %d %s\n", f.name.c_str(), f.id, f.parent_id, f.logical_type.c_str());
  }
  return Status::OK();
}

Status Run(const std::vector<std::string>& a) {
  const std::string& cmd = a[0];
  auto need = [&](std::size_t n) -> Status {
    if (a.size() < n) {
      return Status::InvalidArgument("'" + cmd + "' needs " + std::to_string(n - 1) +
                                     " arguments; see the usage at the top of the tool's source");
    }
    return Status::OK();
  };
  if (cmd == "create" || cmd == "append" || cmd == "overwrite") {
    LND_RETURN_NOT_OK(need(3));
    return Write(cmd, a[1], a[2]);
  }
  if (cmd == "evolve") {
    LND_RETURN_NOT_OK(need(3));
    return Evolve(a[1], a[2]);
  }
  if (cmd == "delete") {
    LND_RETURN_NOT_OK(need(3));
    return Delete(a[1], std::vector<std::string>(a.begin() + 2, a.end()));
  }
  if (cmd == "compact") {
    LND_RETURN_NOT_OK(need(2));
    return Compact(a[1]);
  }
  if (cmd == "restore") {
    LND_RETURN_NOT_OK(need(3));
    return RestoreVersion(a[1], a[2]);
  }
  if (cmd == "tag") {
    LND_RETURN_NOT_OK(need(4));
    return Tag(a[1], a[2], a[3]);
  }
  if (cmd == "versions") {
    LND_RETURN_NOT_OK(need(2));
    return Versions(a[1]);
  }
  if (cmd == "fields") {
    LND_RETURN_NOT_OK(need(2));
    std::optional<std::uint64_t> version;
    if (a.size() > 2) {
      LND_ASSIGN_OR_RETURN(version, ParseU64(a[2], "version"));
    }
    return Fields(a[1], version);
  }
  if (cmd == "dump") {
    LND_RETURN_NOT_OK(need(3));
    std::optional<std::uint64_t> version;
    std::string tag;
    bool rowaddr = false;
    for (std::size_t i = 3; i < a.size(); ++i) {
      if (a[i] == "--rowaddr") {
        rowaddr = true;
      } else if (a[i] == "--version" && i + 1 < a.size()) {
        LND_ASSIGN_OR_RETURN(version, ParseU64(a[++i], "version"));
      } else if (a[i] == "--tag" && i + 1 < a.size()) {
        tag = a[++i];
      } else {
        return Status::InvalidArgument("dump: unknown option '" + a[i] + "'");
      }
    }
    return Dump(a[1], a[2], version, tag, rowaddr);
  }
  return Status::InvalidArgument("unknown command '" + cmd +
                                 "'; expected create, append, overwrite, evolve, delete, compact, "
                                 "restore, tag, dump, versions or fields");
}

}  // namespace

int main(int argc, char** argv) {
  return lance_nd::tool::ToolMain(argc, argv, "COMMAND TABLE ...", Run);
}
